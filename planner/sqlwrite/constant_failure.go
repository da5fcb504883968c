package sqlwrite

import (
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// PostgreSQL's planner folds a subexpression of constants, and raises its
// error (1/0) while planning, even in a CASE branch no row takes; SQE
// evaluates a branch only for the rows that take it. So a CASE whose
// branch holds a constant subexpression that can fail is not written for
// PostgreSQL: it would fail there and not here. Trino defers such an
// error to the rows that evaluate it, as SQE does.

// refuseFoldedFailure refuses, for PostgreSQL, a conditional branch
// holding a constant subexpression that can raise an error.
func (w *writer) refuseFoldedFailure(branch planner.Expr) error {
	if w.d == PostgreSQL && holdsConstantFailure(branch) {
		return pgerror.Unsupported("a constant expression that can fail in a CASE branch cannot be written for PostgreSQL, which evaluates it when planning")
	}
	return nil
}

// holdsConstantFailure reports whether e holds a subexpression of
// constants only that can raise an error.
func holdsConstantFailure(e planner.Expr) bool {
	if !e.Leakproof() && onlyConstants(e) {
		return true
	}
	for _, c := range exprChildren(e) {
		if holdsConstantFailure(c) {
			return true
		}
	}
	return false
}

// onlyConstants reports whether e reads no column (and nothing the writer
// does not know).
func onlyConstants(e planner.Expr) bool {
	switch e.(type) {
	case *planner.Const:
		return true
	case *planner.ColRef:
		return false
	}
	children := exprChildren(e)
	if children == nil {
		return false
	}
	for _, c := range children {
		if !onlyConstants(c) {
			return false
		}
	}
	return true
}

// exprChildren are the operands of the expressions the writer writes; nil
// for a leaf or an expression it does not write.
func exprChildren(e planner.Expr) []planner.Expr {
	switch x := e.(type) {
	case *planner.BinOp:
		return []planner.Expr{x.L, x.R}
	case *planner.Not:
		return []planner.Expr{x.Arg}
	case *planner.Negate:
		return []planner.Expr{x.Arg}
	case *planner.IsNull:
		return []planner.Expr{x.Arg}
	case *planner.Cast:
		return []planner.Expr{x.Arg}
	case *planner.Func:
		return x.Args
	case *planner.Case:
		var out []planner.Expr
		for _, wh := range x.Whens {
			out = append(out, wh.Cond, wh.Result)
		}
		if x.Else != nil {
			out = append(out, x.Else)
		}
		return out
	}
	return nil
}
