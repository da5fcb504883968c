package functions

import "github.com/sqe-db/sqe/sql/types"

// Date/time functions. Their kernels raise errors on bad fields or units,
// so none of them is leakproof.

// makeDateArgs accepts make_date(int, int, int).
func makeDateArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 3 {
		return nil, types.T{}, false
	}
	for _, a := range args {
		if a.Family() != types.FamilyInt && a.OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
	}
	return []types.T{types.Int8, types.Int8, types.Int8}, types.Date, true
}

// dateTruncArgs accepts date_trunc(text, timestamp) and
// date_trunc(text, timestamptz); a date goes through timestamptz, as
// PostgreSQL's implicit cast picks that variant.
func dateTruncArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || (args[0].Family() != types.FamilyString && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	switch {
	case args[1].OID == types.OIDTimestamp:
		return []types.T{types.Text, types.Timestamp}, types.Timestamp, true
	case args[1].OID == types.OIDTimestampTZ, args[1].OID == types.OIDDate, args[1].OID == types.OIDUnknown:
		return []types.T{types.Text, types.TimestampTZ}, types.TimestampTZ, true
	}
	return nil, types.T{}, false
}
