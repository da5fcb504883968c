package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
)

// Aggregate arguments often repeat a computation: TPC-H Q1 sums
// l_extendedprice * (1 - l_discount) and that product times (1 + l_tax).
// The planner keeps each argument whole, so each would compute the
// product over every row again. sharedExprs finds the arithmetic
// subexpressions that occur more than once among a list of expressions
// (by planner.SameExpr: same structure, columns and constants, nothing
// volatile) and compiles each once, as a sharedEval that computes it for
// a batch the first time it is asked and hands out that array after.
//
// Only subexpressions reached through arithmetic operators are shared:
// each is then evaluated over the whole batch wherever it occurs, never
// over the subset of rows a CASE branch or a short-circuit evaluates, so
// computing it once changes no row's result, and an error (overflow) is
// raised by the same rows, only once.
type sharedExprs struct {
	exprs []planner.Expr
	evals []*sharedEval
}

// newSharedExprs lists the arithmetic subexpressions of exprs (nil
// entries allowed) that occur at least twice; nil when none does. The
// operands of a repeated subexpression are counted at its first
// occurrence only: computed once with it, they need no sharing of their
// own.
func newSharedExprs(exprs []planner.Expr) *sharedExprs {
	var seen []planner.Expr
	s := &sharedExprs{}
	var walk func(e planner.Expr)
	walk = func(e planner.Expr) {
		b, ok := e.(*planner.BinOp)
		if !ok || b.Op.Kind != functions.Arithmetic || readsNoColumn(b) {
			return
		}
		for _, x := range seen {
			if planner.SameExpr(x, b) {
				if s.index(b) < 0 {
					s.exprs = append(s.exprs, x)
					s.evals = append(s.evals, nil)
				}
				return
			}
		}
		seen = append(seen, b)
		walk(b.L)
		walk(b.R)
	}
	for _, e := range exprs {
		walk(e)
	}
	if len(s.exprs) == 0 {
		return nil
	}
	return s
}

// readsNoColumn reports an expression of constants only, which compile
// folds; there is nothing to share.
func readsNoColumn(e planner.Expr) bool {
	b, ok := e.(*planner.BinOp)
	if !ok {
		_, isConst := e.(*planner.Const)
		return isConst
	}
	return readsNoColumn(b.L) && readsNoColumn(b.R)
}

func (s *sharedExprs) index(e planner.Expr) int {
	for i, x := range s.exprs {
		if planner.SameExpr(x, e) {
			return i
		}
	}
	return -1
}

// evaluator is the shared evaluator of e, compiled on first use; ok is
// false when e is not one of the shared subexpressions (or s is nil).
func (s *sharedExprs) evaluator(e planner.Expr, input []planner.Column) (_ evaluator, ok bool, err error) {
	if s == nil {
		return nil, false, nil
	}
	i := s.index(e)
	if i < 0 {
		return nil, false, nil
	}
	if s.evals[i] == nil {
		inner, err := compileNode(e, input, s)
		if err != nil {
			return nil, true, err
		}
		s.evals[i] = &sharedEval{inner: inner}
	}
	return s.evals[i], true, nil
}

// forget drops the arrays kept for the last batch: called once a batch's
// expressions are all evaluated, and when the operator closes.
func (s *sharedExprs) forget() {
	if s == nil {
		return
	}
	for _, ev := range s.evals {
		if ev != nil {
			ev.forget()
		}
	}
}

// sharedEval evaluates a shared subexpression once per batch.
type sharedEval struct {
	inner evaluator
	batch arrow.RecordBatch
	out   arrow.Array
}

func (s *sharedEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	if s.out != nil && s.batch == b {
		s.out.Retain()
		return s.out, nil
	}
	s.forget()
	out, err := s.inner.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	out.Retain()
	s.out, s.batch = out, b
	return out, nil
}

func (s *sharedEval) forget() {
	if s.out != nil {
		s.out.Release()
	}
	s.out, s.batch = nil, nil
}
