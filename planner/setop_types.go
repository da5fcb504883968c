package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/types"
)

// setOpColumnType is the type of one output column of UNION, INTERSECT or
// EXCEPT. PostgreSQL's select_common_type keeps a string type both sides
// share (name UNION name is name, as catalog queries over pg_tables or
// information_schema expect) and reads an untyped literal as the other
// side's type; only mixed string types resolve to text. Everything else
// resolves as for an operator.
func setOpColumnType(l, r types.T) (types.T, bool) {
	switch {
	case l.Family() == types.FamilyString && r.OID == types.OIDUnknown:
		return l, true
	case r.Family() == types.FamilyString && l.OID == types.OIDUnknown:
		return r, true
	case l.Family() == types.FamilyString && l.OID == r.OID:
		if l.Precision != r.Precision {
			// varchar(3) UNION varchar(5) is varchar without a length.
			return types.T{OID: l.OID}, true
		}
		return l, true
	}
	t, ok := commonType(l, r)
	if ok && t.OID == types.OIDNumeric && !t.General && l.Family() != types.FamilyFloat && r.Family() != types.FamilyFloat &&
		numericScale(l) != numericScale(r) {
		// Each row keeps its own scale: SELECT 1 UNION SELECT 2.5.
		t = types.NumericGeneral(t.Scale)
	}
	return t, ok
}

// A plain SELECT branch of a set operation leaves its untyped literal
// columns (SELECT NULL, SELECT 'x') untyped, and they take the type the
// set operation resolves from its other branches, as PostgreSQL's
// select_common_type does: NULL::int UNION SELECT NULL is integer. A
// branch with DISTINCT, ORDER BY or LIMIT resolves its literals to text
// itself first, as PostgreSQL's does; so does a set operation whose
// branches are all untyped.

// keepsUnknownColumns reports whether the branch s leaves its untyped
// literal columns to the set operation.
func keepsUnknownColumns(s *pg_query.SelectStmt) bool {
	return s.Op == pg_query.SetOperation_SETOP_NONE && len(s.ValuesLists) == 0 && len(s.DistinctClause) == 0 &&
		len(s.SortClause) == 0 && s.LimitCount == nil && s.LimitOffset == nil
}

// isConstant reports whether e is a literal.
func isConstant(e Expr) bool {
	_, ok := e.(*Const)
	return ok
}

// resolveUnknownColumns gives the untyped literal columns of a branch the
// set operation's column types, converting the literals themselves.
func (b *Binder) resolveUnknownColumns(n Node, want []types.T) (Node, error) {
	p, ok := n.(*Project)
	if !ok {
		return n, nil
	}
	var out *Project
	for i, c := range p.Cols {
		if c.Type.OID != types.OIDUnknown {
			continue
		}
		if out == nil {
			cp := *p
			cp.Exprs = append([]Expr(nil), p.Exprs...)
			cp.Cols = append([]Column(nil), p.Cols...)
			out = &cp
		}
		e, err := b.coerceResult(p.Exprs[i], want[i])
		if err != nil {
			return nil, err
		}
		out.Exprs[i] = e
		out.Cols[i].Type = want[i]
	}
	if out == nil {
		return n, nil
	}
	return out, nil
}
