package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// LIMIT, OFFSET and FETCH FIRST take any expression that reads no column:
// a literal or parameter is read here; anything else (1 + 1, a scalar
// subquery) becomes an expression of the Limit node, computed once when
// the plan runs, where PostgreSQL computes it too (a negative value is
// an error of the execution).

// preparing reports whether the statement is being prepared: its
// parameters have types but no values yet.
func (b *Binder) preparing() bool { return b.params != nil && b.params.preparing() }

// bindLimitValue binds a LIMIT or OFFSET argument: its value when it is a
// constant (isNull for NULL, and for a parameter while preparing), or a
// bigint expression to compute at execution.
func (b *Binder) bindLimitValue(n *pg_query.Node, what string) (v int64, e Expr, isNull bool, err error) {
	e, err = b.bindExpr(n, &exprCtx{scope: &scope{}, clause: what})
	if err != nil {
		return 0, nil, false, err
	}
	if p, ok := e.(*Param); ok {
		// Preparing: the count is known only at execution.
		if _, err := b.coerce(p, types.Int8, 0); err != nil {
			return 0, nil, false, err
		}
		return 0, nil, true, nil
	}
	if c, ok := e.(*Const); ok {
		if c.Value == nil {
			return 0, nil, true, nil
		}
		v, err := convertConst(c.Value, c.Typ, types.Int8)
		if err != nil {
			return 0, nil, false, err
		}
		return v.(int64), nil, false, nil
	}
	if len(exprRefs(e)) > 0 {
		return 0, nil, false, b.errAt(exprLocation(n), pgerror.InvalidColumnReference, "argument of %s must not contain variables", what)
	}
	if e, err = b.coerce(e, types.Int8, exprLocation(n)); err != nil {
		return 0, nil, false, err
	}
	return 0, e, false, nil
}

// withTies makes lim a FETCH FIRST ... WITH TIES over its sorted input.
func withTies(lim *Limit) error {
	srt, ok := lim.Input.(*Sort)
	if !ok {
		return pgerror.New(pgerror.SyntaxError, "WITH TIES cannot be specified without ORDER BY clause")
	}
	lim.WithTies, lim.TieKeys = true, srt.Keys
	return nil
}
