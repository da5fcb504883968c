package sqlwrite

import (
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// subquery writes an uncorrelated scalar, EXISTS or IN subquery as a
// nested statement. Its plan is written as any plan is: the secured
// relations in it keep only their visible rows and guard their own
// expressions, so its rows are the ones SQE reads; it reads no column of
// the enclosing row, so no visibility from outside applies in it. It can
// raise an error (a scalar subquery returning more than one row), so the
// enclosing node guards it as any expression that is not leakproof.
//
// ARRAY subqueries are refused.
func (w *writer) subquery(x *planner.Subquery, s *scope) (string, error) {
	switch x.Kind {
	case planner.ScalarSubquery, planner.ExistsSubquery, planner.InSubquery:
	default:
		return "", pgerror.Unsupported("an ARRAY subquery cannot be written as SQL")
	}
	cols := x.Plan.Columns()
	if x.Kind == planner.InSubquery {
		if len(x.Args) != len(cols) || (len(cols) > 1 && w.d == Trino) {
			return "", pgerror.Unsupported("an IN subquery of %d columns cannot be written as SQL for %s", len(cols), w.d)
		}
		for i, a := range x.Args {
			// IN compares with =, exact for these types when both sides
			// have the same one.
			t := a.Type()
			if t.OID != cols[i].Type.OID || !(isInt(t) || isText(t) || t.OID == types.OIDBool ||
				t.OID == types.OIDDate || t.OID == types.OIDTimestamp || t.OID == types.OIDNumeric) {
				return "", pgerror.Unsupported("IN over %s and %s cannot be written as SQL", t.Name(), cols[i].Type.Name())
			}
		}
	}
	// A correlated subquery reads the enclosing row's columns as the
	// enclosing statement names them: its derived tables are named apart
	// from every other, so the names reach into it unshadowed. The
	// enclosing row's columns are already masked, and the node around
	// the subquery guards it, so it is not evaluated for a hidden row.
	outer := w.outer
	if len(x.Outer) > 0 {
		w.outer = make(map[planner.ColumnID]string, len(outer)+len(x.Outer))
		for id, ref := range outer {
			w.outer[id] = ref
		}
		for _, c := range x.Outer {
			ref, ok := s.cols[x.OuterSource(c.ID)]
			if !ok {
				w.outer = outer
				return "", pgerror.Unsupported("a correlated subquery reading column %s cannot be written as SQL", c.Name)
			}
			w.outer[c.ID] = ref
		}
	}
	in, err := w.node(x.Plan, true)
	w.outer = outer
	if err != nil {
		return "", err
	}
	switch x.Kind {
	case planner.ExistsSubquery:
		return "EXISTS (" + in.sql + ")", nil
	case planner.InSubquery:
		args := make([]string, len(x.Args))
		for i, a := range x.Args {
			if args[i], err = w.expr(a, s); err != nil {
				return "", err
			}
		}
		return "((" + strings.Join(args, ", ") + ") IN (" + in.sql + "))", nil
	}
	return "(" + in.sql + ")", nil
}
