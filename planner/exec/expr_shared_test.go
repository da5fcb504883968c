package exec

import (
	"context"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// TestSharedExprsFindsRepeatedArithmetic: only arithmetic reached through
// arithmetic is shared, once, without the operands of a shared
// subexpression; constants, comparisons and function arguments are not.
func TestSharedExprsFindsRepeatedArithmetic(t *testing.T) {
	x := &planner.ColRef{ID: 1, Name: "x", Typ: numericAt(2)}
	y := &planner.ColRef{ID: 2, Name: "y", Typ: numericAt(2)}
	bin := func(op string, l, r planner.Expr, typ types.T) planner.Expr {
		return &planner.BinOp{Op: benchOp(t, op), L: l, R: r, Typ: typ}
	}
	oneMinusY := func() planner.Expr { return bin("-", numConst(1, 0), y, numericAt(2)) }
	disc := func() planner.Expr { return bin("*", x, oneMinusY(), numericAt(4)) }
	tests := []struct {
		name  string
		exprs []planner.Expr
		want  []planner.Expr
	}{
		{"a product and its multiple (TPC-H Q1)", []planner.Expr{disc(), bin("*", disc(), bin("+", numConst(1, 0), y, numericAt(2)), numericAt(6))}, []planner.Expr{disc()}},
		{"the same product twice", []planner.Expr{bin("*", x, y, numericAt(4)), nil, bin("*", x, y, numericAt(4))}, []planner.Expr{bin("*", x, y, numericAt(4))}},
		{"operands in another order", []planner.Expr{bin("*", x, y, numericAt(4)), bin("*", y, x, numericAt(4))}, nil},
		{"constants only", []planner.Expr{bin("*", numConst(2, 0), numConst(3, 0), numericAt(0)), bin("*", numConst(2, 0), numConst(3, 0), numericAt(0))}, nil},
		{"under a comparison", []planner.Expr{bin(">", bin("*", x, y, numericAt(4)), numConst(1, 0), types.Bool), bin("*", x, y, numericAt(4))}, nil},
		{"no repetition", []planner.Expr{disc(), x, nil}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSharedExprs(tc.exprs)
			var got []planner.Expr
			if s != nil {
				got = s.exprs
			}
			if !slices.EqualFunc(got, tc.want, planner.SameExpr) {
				t.Fatalf("shared %v, want %v", got, tc.want)
			}
		})
	}
}

// countingEval counts its evaluations.
type countingEval struct {
	evaluator
	n int
}

func (c *countingEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	c.n++
	return c.evaluator.eval(ctx, b)
}

// TestSharedEvalComputesOncePerBatch: a shared subexpression is computed
// the first time a batch asks for it, handed out after, and computed
// again for another batch or after forget.
func TestSharedEvalComputesOncePerBatch(t *testing.T) {
	ib := array.NewInt64Builder(memory.DefaultAllocator)
	ib.AppendValues([]int64{1, 2, 3}, nil)
	col := ib.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b1 := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer b1.Release()
	b2 := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer b2.Release()

	inner := &countingEval{evaluator: columnEval(0)}
	s := &sharedEval{inner: inner}
	ctx := t.Context()
	for i, step := range []struct {
		batch  arrow.RecordBatch
		forget bool
		want   int
	}{{b1, false, 1}, {b1, false, 1}, {b2, false, 2}, {b2, true, 2}, {b2, false, 3}} {
		if step.forget {
			s.forget()
			continue
		}
		a, err := s.eval(ctx, step.batch)
		if err != nil {
			t.Fatal(err)
		}
		if !array.Equal(a, col) {
			t.Fatalf("step %d: %v", i, a)
		}
		a.Release()
		if inner.n != step.want {
			t.Fatalf("step %d: %d evaluations, want %d", i, inner.n, step.want)
		}
	}
	s.forget()
	if s.out != nil {
		t.Fatal("forget kept the array")
	}
}
