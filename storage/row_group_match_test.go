package storage

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"
)

// TestRowGroupMatch judges predicates against one row group of 10 rows:
// id in [10, 20] without NULLs, name in ["b", "d"] with 2 NULLs, gone all
// NULL, f (double) in [1, 2], k without statistics and old (bigint) with
// bounds of another type, as a column promoted from integer would have.
func TestRowGroupMatch(t *testing.T) {
	schema := iceberg.NewSchema(0,
		iceberg.NestedField{ID: 1, Name: "id", Type: iceberg.PrimitiveTypes.Int64, Required: true},
		iceberg.NestedField{ID: 2, Name: "name", Type: iceberg.PrimitiveTypes.String},
		iceberg.NestedField{ID: 3, Name: "gone", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 4, Name: "f", Type: iceberg.PrimitiveTypes.Float64},
		iceberg.NestedField{ID: 5, Name: "k", Type: iceberg.PrimitiveTypes.Int32},
		iceberg.NestedField{ID: 6, Name: "old", Type: iceberg.PrimitiveTypes.Int64},
		iceberg.NestedField{ID: 7, Name: "at", Type: iceberg.PrimitiveTypes.Timestamp},
		iceberg.NestedField{ID: 8, Name: "amount", Type: iceberg.DecimalTypeOf(12, 2)},
	)
	group := rowGroupStats{
		rows: 10,
		lower: map[int]iceberg.Literal{1: iceberg.Int64Literal(10), 2: iceberg.StringLiteral("b"),
			4: iceberg.Float64Literal(1), 6: iceberg.Int32Literal(10), 7: iceberg.TimestampLiteral(1000),
			8: iceberg.DecimalLiteral{Val: decimal128.FromI64(1000), Scale: 2}},
		upper: map[int]iceberg.Literal{1: iceberg.Int64Literal(20), 2: iceberg.StringLiteral("d"),
			4: iceberg.Float64Literal(2), 6: iceberg.Int32Literal(20), 7: iceberg.TimestampLiteral(2000),
			8: iceberg.DecimalLiteral{Val: decimal128.FromI64(2000), Scale: 2}},
		nulls: map[int]int64{1: 0, 2: 2, 3: 10, 4: 0, 6: 0, 7: 0, 8: 0},
	}
	ref := func(name string) iceberg.UnboundTerm { return iceberg.Reference(name) }
	tests := []struct {
		name string
		expr iceberg.BooleanExpression
		want bool
	}{
		{"equal to lower bound", iceberg.EqualTo(ref("id"), int64(10)), true},
		{"equal to upper bound", iceberg.EqualTo(ref("id"), int64(20)), true},
		{"equal inside", iceberg.EqualTo(ref("id"), int64(15)), true},
		{"equal below", iceberg.EqualTo(ref("id"), int64(9)), false},
		{"equal above", iceberg.EqualTo(ref("id"), int64(21)), false},
		{"less than lower bound", iceberg.LessThan(ref("id"), int64(10)), false},
		{"at most lower bound", iceberg.LessThanEqual(ref("id"), int64(10)), true},
		{"greater than upper bound", iceberg.GreaterThan(ref("id"), int64(20)), false},
		{"at least upper bound", iceberg.GreaterThanEqual(ref("id"), int64(20)), true},
		{"int literal bound to bigint", iceberg.EqualTo(ref("id"), int32(30)), false},
		{"in, none inside", iceberg.IsIn(ref("id"), int64(1), int64(2), int64(30)), false},
		{"in, one inside", iceberg.IsIn(ref("id"), int64(1), int64(15)), true},
		{"in, on a bound", iceberg.IsIn(ref("id"), int64(1), int64(20)), true},
		{"not in is not judged", iceberg.NotIn(ref("id"), int64(10), int64(15)), true},
		{"not equal is not judged", iceberg.NotEqualTo(ref("id"), int64(15)), true},
		{"not of less than", iceberg.NewNot(iceberg.LessThan(ref("id"), int64(21))), false},
		{"not of greater than", iceberg.NewNot(iceberg.GreaterThan(ref("id"), int64(5))), false},
		{"not of equal", iceberg.NewNot(iceberg.EqualTo(ref("id"), int64(15))), true},
		{"string inside", iceberg.EqualTo(ref("name"), "c"), true},
		{"string on upper bound", iceberg.EqualTo(ref("name"), "d"), true},
		{"string after upper bound", iceberg.GreaterThan(ref("name"), "d"), false},
		{"string prefix of lower bound", iceberg.EqualTo(ref("name"), ""), false},
		{"is null with nulls", iceberg.IsNull(ref("name")), true},
		{"is null without nulls", iceberg.IsNull(ref("id")), false},
		{"not null with values", iceberg.NotNull(ref("name")), true},
		{"all NULL: equal", iceberg.EqualTo(ref("gone"), int32(1)), false},
		{"all NULL: range", iceberg.LessThan(ref("gone"), int32(1)), false},
		{"all NULL: in", iceberg.IsIn(ref("gone"), int32(1), int32(2)), false},
		{"all NULL: is null", iceberg.IsNull(ref("gone")), true},
		{"all NULL: not null", iceberg.NotNull(ref("gone")), false},
		{"all NULL: not equal", iceberg.NotEqualTo(ref("gone"), int32(1)), true},
		{"double outside bounds is not judged", iceberg.GreaterThan(ref("f"), 100.0), true},
		{"NaN test is not judged", iceberg.IsNaN(ref("f")), true},
		{"no statistics: equal", iceberg.EqualTo(ref("k"), int32(1)), true},
		{"no statistics: is null", iceberg.IsNull(ref("k")), true},
		{"no statistics: not null", iceberg.NotNull(ref("k")), true},
		{"bounds of another type", iceberg.EqualTo(ref("old"), int64(99)), true},
		{"or, one side matches", iceberg.NewOr(iceberg.EqualTo(ref("id"), int64(5)), iceberg.EqualTo(ref("name"), "c")), true},
		{"or, neither matches", iceberg.NewOr(iceberg.EqualTo(ref("id"), int64(5)), iceberg.EqualTo(ref("id"), int64(30))), false},
		{"and, one side fails", iceberg.NewAnd(iceberg.EqualTo(ref("id"), int64(15)), iceberg.EqualTo(ref("name"), "z")), false},
		{"timestamp inside", iceberg.EqualTo(ref("at"), iceberg.Timestamp(1500)), true},
		{"timestamp after upper bound", iceberg.GreaterThan(ref("at"), iceberg.Timestamp(2000)), false},
		{"timestamp before lower bound", iceberg.LessThan(ref("at"), iceberg.Timestamp(1000)), false},
		{"decimal inside", iceberg.EqualTo(ref("amount"), iceberg.Decimal{Val: decimal128.FromI64(1500), Scale: 2}), true},
		{"decimal above", iceberg.EqualTo(ref("amount"), iceberg.Decimal{Val: decimal128.FromI64(2001), Scale: 2}), false},
		{"decimal in list, none inside", iceberg.IsIn(ref("amount"), iceberg.Decimal{Val: decimal128.FromI64(1), Scale: 2},
			iceberg.Decimal{Val: decimal128.FromI64(3000), Scale: 2}), false},
		{"true", iceberg.AlwaysTrue{}, true},
		{"false", iceberg.AlwaysFalse{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rewritten, err := iceberg.RewriteNotExpr(tc.expr)
			if err != nil {
				t.Fatal(err)
			}
			bound, err := iceberg.BindExpr(schema, rewritten, true)
			if err != nil {
				t.Fatal(err)
			}
			got, err := iceberg.VisitExprEvaluator(bound, &rowGroupMatch{group: &group})
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%s: match = %v, want %v", tc.expr, got, tc.want)
			}
		})
	}
}
