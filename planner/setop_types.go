package planner

import "github.com/sqe-db/sqe/sql/types"

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
	return commonType(l, r)
}
