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
// A correlated subquery (one the optimizer did not turn into a join)
// would need the enclosing row's columns in its scope and is refused, as
// are ARRAY subqueries.
func (w *writer) subquery(x *planner.Subquery, s *scope) (string, error) {
	if len(x.Outer) > 0 {
		return "", pgerror.Unsupported("a correlated subquery cannot be written as SQL")
	}
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
	in, err := w.node(x.Plan, true)
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
