package planner

import "github.com/sqe-db/sqe/sql/types"

// datetimeSeriesType resolves generate_series(start, stop, step) over
// timestamps: start and stop are timestamp, timestamptz, date or untyped
// and step an interval. Like PostgreSQL, which has no date variant,
// dates and untyped literals resolve to timestamptz (the preferred type
// of the category) unless a timestamp without time zone is given. ok is
// false when the arguments are not of this form.
func datetimeSeriesType(args []Expr) (types.T, bool) {
	if len(args) != 3 || args[2].Type().Family() != types.FamilyInterval {
		return types.T{}, false
	}
	sawTZ, sawTS := false, false
	for _, a := range args[:2] {
		t := a.Type()
		switch {
		case t.OID == types.OIDTimestampTZ:
			sawTZ = true
		case t.OID == types.OIDTimestamp:
			sawTS = true
		case t.OID == types.OIDUnknown, t.Family() == types.FamilyDate:
		default:
			return types.T{}, false
		}
	}
	if sawTS && !sawTZ {
		return types.Timestamp, true
	}
	return types.TimestampTZ, true
}
