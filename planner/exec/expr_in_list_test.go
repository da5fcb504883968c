package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// An OR of equalities between one expression and constants runs as one
// list, with the OR's answer on every row: NULL for a NULL operand, true
// on a match, false otherwise.
func TestInListMatchesTheOrOfEqualities(t *testing.T) {
	eq, _ := functions.LookupOperator("=")
	or, _ := functions.LookupOperator("OR")
	orOf := func(x planner.Expr, consts ...*planner.Const) planner.Expr {
		var e planner.Expr
		for _, c := range consts {
			var cmp planner.Expr = &planner.BinOp{Op: eq, L: x, R: c, Typ: types.Bool}
			if e == nil {
				e = cmp
				continue
			}
			e = &planner.BinOp{Op: or, L: e, R: cmp, Typ: types.Bool}
		}
		return e
	}
	text := func(s string) *planner.Const { return &planner.Const{Typ: types.Text, Value: s} }
	int8c := func(v int64) *planner.Const { return &planner.Const{Typ: types.Int8, Value: v} }
	cols := []planner.Column{{ID: 1, Name: "s", Type: types.Text}, {ID: 2, Name: "i", Type: types.Int8}}
	s := &planner.ColRef{ID: 1, Name: "s", Typ: types.Text}
	i := &planner.ColRef{ID: 2, Name: "i", Typ: types.Int8}
	upper := &planner.Func{Name: "upper", Args: []planner.Expr{s}, Typ: types.Text}

	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"13", "x", "", "31", "ab"}, []bool{true, true, false, true, true})
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues([]int64{7, 0, 9, 3, 14}, []bool{true, false, true, true, true})
	schema := arrow.NewSchema([]arrow.Field{{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	batch := array.NewRecordBatch(schema, []arrow.Array{sb.NewArray(), ib.NewArray()}, 5)
	defer batch.Release()

	for _, tc := range []struct {
		name     string
		expr     planner.Expr
		wantList bool
		want     string
	}{
		{"text column", orOf(s, text("13"), text("31"), text("zz")), true, "[true false (null) true false]"},
		{"an expression over the column", orOf(upper, text("AB"), text("X")), true, "[false true (null) false true]"},
		{"integers", orOf(i, int8c(3), int8c(7)), true, "[true (null) false true false]"},
		{"different operands stay ORs", &planner.BinOp{Op: or,
			L: &planner.BinOp{Op: eq, L: s, R: text("13"), Typ: types.Bool},
			R: &planner.BinOp{Op: eq, L: i, R: int8c(3), Typ: types.Bool}, Typ: types.Bool}, false, "[true (null) (null) true false]"},
		{"a NULL constant stays ORs", orOf(s, text("13"), &planner.Const{Typ: types.Text}), false, "[true (null) (null) (null) (null)]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := compile(tc.expr, cols)
			if err != nil {
				t.Fatal(err)
			}
			if _, list := ev.(*inListEval); list != tc.wantList {
				t.Fatalf("compiled as a list: %v, want %v", list, tc.wantList)
			}
			a, err := ev.eval(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Release()
			if got := a.String(); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRuneSliceMatchesRunes(t *testing.T) {
	for _, s := range []string{"", "abc", "héllo wörld", "日本語テキスト", "a\xffb", "ab\xff"} {
		for from := int64(0); from < 9; from++ {
			for to := from + 1; to < 11; to++ {
				got, ok := runeSlice(s, from, to)
				r := []rune(s)
				want := ""
				if from < int64(len(r)) {
					want = string(r[from:min(to, int64(len(r)))])
				}
				if ok && got != want {
					t.Fatalf("runeSlice(%q, %d, %d) = %q, want %q", s, from, to, got, want)
				}
				if !ok && want == string([]rune(want)) && !containsInvalid(s) {
					t.Fatalf("runeSlice(%q, %d, %d) declined a valid string", s, from, to)
				}
			}
		}
	}
}

func containsInvalid(s string) bool {
	for _, r := range s {
		if r == '\uFFFD' {
			return true
		}
	}
	return false
}
