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

// isTimestampLike accepts the types PostgreSQL converts implicitly to
// timestamp: dates, timestamps and untyped literals.
func isTimestampLike(t types.T) bool {
	return t.Family() == types.FamilyTimestamp || t.Family() == types.FamilyDate || t.OID == types.OIDUnknown
}

// ageArgs accepts age(timestamp, timestamp) and age(timestamptz,
// timestamptz); the one-argument form is rewritten by the binder.
func ageArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || !isTimestampLike(args[0]) || !isTimestampLike(args[1]) {
		return nil, types.T{}, false
	}
	t := types.Timestamp
	if args[0].OID == types.OIDTimestampTZ || args[1].OID == types.OIDTimestampTZ {
		t = types.TimestampTZ
	}
	return []types.T{t, t}, types.Interval, true
}

// numericArgs accepts n arguments convertible to the given types (ints
// widen to bigint, anything numeric to double precision).
func numericArgs(result types.T, want ...types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) > len(want) {
			return nil, types.T{}, false
		}
		for i, a := range args {
			switch {
			case a.OID == types.OIDUnknown:
			case want[i].Family() == types.FamilyInt && a.Family() == types.FamilyInt:
			case want[i].Family() == types.FamilyFloat && a.IsNumeric():
			default:
				return nil, types.T{}, false
			}
		}
		return want[:len(args)], result, true
	}
}

// makeTimestampArgs is make_timestamp(year, month, day, hour, min, sec).
func makeTimestampArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 6 {
		return nil, types.T{}, false
	}
	return numericArgs(types.Timestamp, types.Int8, types.Int8, types.Int8, types.Int8, types.Int8, types.Float8)(args)
}

// makeTimestampTZArgs is make_timestamptz(year, month, day, hour, min,
// sec [, zone]): the wall clock read in zone, or in the session's.
func makeTimestampTZArgs(args []types.T) ([]types.T, types.T, bool) {
	switch len(args) {
	case 6:
		return numericArgs(types.TimestampTZ, types.Int8, types.Int8, types.Int8, types.Int8, types.Int8, types.Float8)(args)
	case 7:
		in, _, ok := numericArgs(types.TimestampTZ, types.Int8, types.Int8, types.Int8, types.Int8, types.Int8, types.Float8)(args[:6])
		if !ok || (args[6].Family() != types.FamilyString && args[6].Family() != types.FamilyUnknown) {
			return nil, types.T{}, false
		}
		return append(in, types.Text), types.TimestampTZ, true
	}
	return nil, types.T{}, false
}

// makeTimeArgs is make_time(hour, min, sec).
func makeTimeArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 3 {
		return nil, types.T{}, false
	}
	return numericArgs(types.Time, types.Int8, types.Int8, types.Float8)(args)
}

// makeIntervalArgs is make_interval(years, months, weeks, days, hours,
// mins, secs), every argument optional.
var makeIntervalArgs = numericArgs(types.Interval, types.Int8, types.Int8, types.Int8, types.Int8, types.Int8, types.Int8, types.Float8)

// intervalArg accepts one interval (justify_days and friends).
func intervalArg(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || (args[0].Family() != types.FamilyInterval && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	return []types.T{types.Interval}, types.Interval, true
}

// timezoneArgs is timezone(zone, timestamp) → timestamptz and
// timezone(zone, timestamptz) → timestamp, the function behind
// AT TIME ZONE.
func timezoneArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || (args[0].Family() != types.FamilyString && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	switch {
	case args[1].OID == types.OIDTimestamp:
		return []types.T{types.Text, types.Timestamp}, types.TimestampTZ, true
	case args[1].OID == types.OIDTimestampTZ, args[1].OID == types.OIDUnknown, args[1].OID == types.OIDDate:
		return []types.T{types.Text, types.TimestampTZ}, types.Timestamp, true
	}
	return nil, types.T{}, false
}

// toTimestampArgs is to_timestamp(double precision) (Unix epoch) and
// to_timestamp(text, text).
func toTimestampArgs(args []types.T) ([]types.T, types.T, bool) {
	switch len(args) {
	case 1:
		if args[0].IsNumeric() || args[0].OID == types.OIDUnknown {
			return []types.T{types.Float8}, types.TimestampTZ, true
		}
	case 2:
		return textArgs(2, 2, types.TimestampTZ)(args)
	}
	return nil, types.T{}, false
}

// toCharArgs is to_char(timestamp | timestamptz | date | interval |
// number, text).
func toCharArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 || (args[1].Family() != types.FamilyString && args[1].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	var first types.T
	switch a := args[0]; a.Family() {
	case types.FamilyTimestamp, types.FamilyInterval:
		first = a
	case types.FamilyDate:
		first = types.Timestamp
	case types.FamilyInt:
		first = types.Int8
	case types.FamilyFloat:
		first = a
	case types.FamilyNumeric:
		first = types.T{OID: types.OIDNumeric, Scale: a.Scale}
	default:
		return nil, types.T{}, false
	}
	return []types.T{first, types.Text}, types.Text, true
}
