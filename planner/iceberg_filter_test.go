package planner

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// filterTable has a column of each type toIceberg translates or refuses.
type filterTable struct{}

func (filterTable) QualifiedName() TableName { return TableName{Catalog: "c", Schema: "s", Name: "t"} }
func (filterTable) OID() uint32              { return 1 }
func (filterTable) Columns() []TableColumn {
	return []TableColumn{
		{Name: "id", Type: types.Int8}, {Name: "at", Type: types.Timestamp}, {Name: "atz", Type: types.TimestampTZ},
		{Name: "amount", Type: types.Numeric(12, 2)}, {Name: "loose", Type: types.T{OID: types.OIDNumeric}},
		{Name: "f", Type: types.Float8},
	}
}
func (filterTable) RowEstimate() int64 { return -1 }
func (filterTable) Scan(context.Context, []int, iceberg.BooleanExpression) (RecordStream, error) {
	return nil, nil
}

// TestToIceberg checks which predicates reach the storage layer as an
// Iceberg filter, and as what.
func TestToIceberg(t *testing.T) {
	scan := &Scan{Table: filterTable{}}
	for i, c := range scan.Table.Columns() {
		scan.TableColumns = append(scan.TableColumns, i)
		scan.Cols = append(scan.Cols, Column{ID: ColumnID(i + 1), Name: c.Name, Type: c.Type})
	}
	col := func(i int) *ColRef {
		c := scan.Cols[i]
		return &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
	}
	op := func(name string, l, r Expr) Expr {
		o, ok := functions.LookupOperator(name)
		if !ok {
			t.Fatalf("no operator %s", name)
		}
		return &BinOp{Op: o, L: l, R: r, Typ: types.Bool}
	}
	c := func(typ types.T, v any) *Const { return &Const{Typ: typ, Value: v} }
	amount := decimal128.FromI64(1234) // 12.34
	tests := []struct {
		name string
		expr Expr
		want iceberg.BooleanExpression // nil: not translated
	}{
		{"bigint", op("=", col(0), c(types.Int8, int64(7))), iceberg.EqualTo(iceberg.Reference("id"), int64(7))},
		{"timestamp", op(">=", col(1), c(types.Timestamp, int64(1_700_000_000_000_000))),
			iceberg.GreaterThanEqual(iceberg.Reference("at"), iceberg.Timestamp(1_700_000_000_000_000))},
		{"timestamptz, flipped", op("<", c(types.TimestampTZ, int64(5)), col(2)),
			iceberg.GreaterThan(iceberg.Reference("atz"), iceberg.Timestamp(5))},
		{"numeric of the column's scale", op("=", col(3), c(types.Numeric(12, 2), amount)),
			iceberg.EqualTo(iceberg.Reference("amount"), iceberg.Decimal{Val: amount, Scale: 2})},
		{"IN list", op("OR", op("=", col(0), c(types.Int8, int64(1))), op("=", col(0), c(types.Int8, int64(2)))),
			iceberg.NewOr(iceberg.EqualTo(iceberg.Reference("id"), int64(1)), iceberg.EqualTo(iceberg.Reference("id"), int64(2)))},
		{"OR with an untranslatable side", op("OR", op("=", col(0), c(types.Int8, int64(1))), op("=", col(5), c(types.Float8, 1.5))), nil},
		{"numeric without a declared precision", op("=", col(4), c(types.T{OID: types.OIDNumeric}, amount)), nil},
		{"numeric of another scale", op("=", col(3), c(types.Numeric(12, 3), amount)), nil},
		{"float", op("=", col(5), c(types.Float8, 1.5)), nil},
	}
	for _, tt := range tests {
		got := toIceberg(tt.expr, scan)
		switch {
		case tt.want == nil && got != nil:
			t.Errorf("%s: translated to %v, want none", tt.name, got)
		case tt.want != nil && (got == nil || !got.Equals(tt.want)):
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
