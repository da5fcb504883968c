package planner

import (
	"github.com/sqe-db/sqe/sql/pgerror"
)

// readOuterFromGroups fixes the correlated subqueries of e, bound in a
// grouped query's select list, HAVING or ORDER BY, to read their outer
// columns from the grouped row: a grouping key's value comes from the
// Aggregate's output column for that key. A subquery reading a column of
// the query's input that is not a grouping key is an error, as in
// PostgreSQL (42803), since a group has no one value for it.
func (b *Binder) readOuterFromGroups(e Expr, g *groupState, loc int32) (Expr, error) {
	input := map[ColumnID]bool{}
	for _, c := range g.input.cols {
		input[c.ID] = true
	}
	keys := map[ColumnID]ColumnID{}
	for i, ge := range g.groups {
		if cr, ok := ge.(*ColRef); ok {
			keys[cr.ID] = g.cols[i].ID
		}
	}
	var err error
	out := mapExpr(e, func(x Expr) Expr {
		sq, ok := x.(*Subquery)
		if !ok || err != nil {
			return x
		}
		from := map[ColumnID]ColumnID{}
		for _, c := range sq.Outer {
			if !input[c.ID] {
				continue // from a query further out
			}
			key, grouped := keys[c.ID]
			if !grouped {
				err = b.errAt(loc, pgerror.GroupingError, "subquery uses ungrouped column \"%s.%s\" from outer query", qualifierOf(g.input, c.ID), c.Name)
				return x
			}
			from[c.ID] = key
		}
		if len(from) == 0 {
			return x
		}
		c := *sq
		c.OuterFrom = from
		return &c
	})
	return out, err
}
