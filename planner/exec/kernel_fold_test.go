package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

func TestCompileFoldsConstantOperators(t *testing.T) {
	numConst := func(v int64, scale int32) *planner.Const {
		return &planner.Const{Typ: types.Numeric(10, scale), Value: decimal128.FromI64(v)}
	}
	arithOp := func(name string) functions.Operator {
		return functions.Operator{Name: name, Kind: functions.Arithmetic, Leakproof: true}
	}
	tests := []struct {
		name     string
		expr     planner.Expr
		wantFold bool
		want     string // the value on a three-row batch
		wantErr  bool
	}{
		{name: "numeric subtraction", wantFold: true, want: "[0.05 0.05 0.05]",
			expr: &planner.BinOp{Op: arithOp("-"), L: numConst(6, 2), R: numConst(1, 2), Typ: types.Numeric(10, 2)}},
		{name: "division by zero is kept for the rows", wantFold: false, wantErr: true,
			expr: &planner.BinOp{Op: arithOp("/"), L: numConst(6, 2), R: numConst(0, 2), Typ: types.Numeric(10, 2)}},
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 3)
	defer one.Release()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev, err := compile(tc.expr, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, folded := ev.(*constEval); folded != tc.wantFold {
				t.Fatalf("folded = %v, want %v", folded, tc.wantFold)
			}
			a, err := ev.eval(context.Background(), one)
			if tc.wantErr {
				if err == nil {
					a.Release()
					t.Fatal("want an error")
				}
				return
			}
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

// TestConstSliceServesShorterBatches checks that a constant built for a
// long batch answers shorter ones with the right length and values.
func TestConstSliceServesShorterBatches(t *testing.T) {
	c := &constEval{typ: types.Int8, value: int64(42)}
	for _, n := range []int{5, 3, 8, 1} {
		a, err := c.constSlice(n)
		if err != nil {
			t.Fatal(err)
		}
		vals := a.(*array.Int64).Int64Values()
		if len(vals) != n {
			t.Fatalf("length %d, want %d", len(vals), n)
		}
		for _, v := range vals {
			if v != 42 {
				t.Fatalf("value %d, want 42", v)
			}
		}
		a.Release()
	}
	c.cache.Release()
}
