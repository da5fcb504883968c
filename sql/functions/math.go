package functions

import "github.com/sqe-db/sqe/sql/types"

// Mathematical functions. PostgreSQL resolves an integer argument of a
// function that has float8 and numeric variants to float8 (the preferred
// type of the numeric category); a numeric argument keeps numeric where
// the result's scale is knowable (round, trunc, mod, sign, abs) and goes
// through float8 otherwise (sqrt, ln, exp: a documented difference,
// PostgreSQL computes those in numeric). power keeps numeric (see
// PowerArgs).

// floatArgs accepts n numeric arguments, all computed in float8.
func floatArgs(n int) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) != n {
			return nil, types.T{}, false
		}
		out := make([]types.T, n)
		for i, a := range args {
			if !a.IsNumeric() && a.OID != types.OIDUnknown {
				return nil, types.T{}, false
			}
			out[i] = types.Float8
		}
		return out, types.Float8, true
	}
}

// roundArgs is round/trunc(float8), round/trunc(numeric) and
// round/trunc(numeric, int); the binder gives a two-argument call the
// scale of its constant second argument.
func roundArgs(args []types.T) ([]types.T, types.T, bool) {
	switch len(args) {
	case 1:
		switch a := args[0]; {
		case a.Family() == types.FamilyNumeric:
			return []types.T{{OID: types.OIDNumeric, Scale: a.Scale}}, types.T{OID: types.OIDNumeric}, true
		case a.IsNumeric() || a.OID == types.OIDUnknown:
			return []types.T{types.Float8}, types.Float8, true
		}
	case 2:
		if !args[0].IsNumeric() && args[0].OID != types.OIDUnknown || args[1].Family() != types.FamilyInt && args[1].OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
		return []types.T{{OID: types.OIDNumeric, Scale: numericScaleOf(args[0])}, types.Int4}, types.T{OID: types.OIDNumeric}, true
	}
	return nil, types.T{}, false
}

func numericScaleOf(t types.T) int32 {
	if t.OID == types.OIDNumeric {
		return t.Scale
	}
	return 0
}

// modArgs is mod(int, int) (the wider integer) and mod(numeric, numeric).
func modArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 {
		return nil, types.T{}, false
	}
	a, b := args[0], args[1]
	switch {
	case (a.Family() == types.FamilyInt || a.OID == types.OIDUnknown) && (b.Family() == types.FamilyInt || b.OID == types.OIDUnknown):
		t := types.Int4
		if a.OID == types.OIDInt8 || b.OID == types.OIDInt8 {
			t = types.Int8
		}
		if a.OID == types.OIDInt2 && b.OID == types.OIDInt2 {
			t = types.Int2
		}
		return []types.T{t, t}, t, true
	case a.IsNumeric() && b.IsNumeric() && a.Family() != types.FamilyFloat && b.Family() != types.FamilyFloat:
		s := max(numericScaleOf(a), numericScaleOf(b))
		t := types.T{OID: types.OIDNumeric, Scale: s}
		return []types.T{t, t}, t, true
	}
	return nil, types.T{}, false
}

// signArgs is sign(float8) and sign(numeric).
func signArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 {
		return nil, types.T{}, false
	}
	if args[0].Family() == types.FamilyNumeric {
		return []types.T{{OID: types.OIDNumeric, Scale: args[0].Scale}}, types.T{OID: types.OIDNumeric}, true
	}
	return floatArgs(1)(args)
}

// logArgs is log(x) (base 10, float8 for a float8 or integer argument)
// and log(b, x), which PostgreSQL has for numeric only: its result is
// numeric at 16 decimal places (computed in float8 here).
func logArgs(args []types.T) ([]types.T, types.T, bool) {
	switch len(args) {
	case 1:
		return numericOrFloat1(args)
	case 2:
		// log(numeric, numeric): integers and literals are read as
		// numerics, each keeping its scale.
		for _, a := range args {
			if !a.IsNumeric() && a.OID != types.OIDUnknown {
				return nil, types.T{}, false
			}
		}
		return []types.T{{OID: types.OIDNumeric}, {OID: types.OIDNumeric}}, types.NumericGeneral(LogNumericScale), true
	}
	return nil, types.T{}, false
}

// numericOrFloat1 resolves sqrt, exp, ln and log of one argument:
// PostgreSQL has a numeric and a double precision version of each, and
// picks the numeric one for a numeric argument only (an integer or an
// untyped literal goes to double precision, the preferred type). The
// numeric result's scale is fixed when the call is bound.
func numericOrFloat1(args []types.T) ([]types.T, types.T, bool) {
	if len(args) == 1 && args[0].Family() == types.FamilyNumeric {
		return args, types.T{OID: types.OIDNumeric, Scale: LogNumericScale}, true
	}
	return floatArgs(1)(args)
}

// LogNumericScale is the scale of log(numeric, numeric)'s result for
// results below 10 (PostgreSQL's NUMERIC_MIN_SIG_DIGITS).
const LogNumericScale = 16

// widthBucketArgs is width_bucket(operand, low, high, count).
func widthBucketArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 4 || (args[3].Family() != types.FamilyInt && args[3].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	want, _, ok := floatArgs(3)(args[:3])
	if !ok {
		return nil, types.T{}, false
	}
	return append(want, types.Int4), types.Int4, true
}

// noArgs is a function without arguments returning result.
func noArgs(result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		return nil, result, len(args) == 0
	}
}

// dateBinArgs is date_bin(stride interval, source timestamp[tz], origin
// timestamp[tz]).
func dateBinArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 3 || (args[0].Family() != types.FamilyInterval && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	t := types.Timestamp
	if args[1].OID == types.OIDTimestampTZ || args[2].OID == types.OIDTimestampTZ {
		t = types.TimestampTZ
	}
	for _, a := range args[1:] {
		if a.Family() != types.FamilyTimestamp && a.Family() != types.FamilyDate && a.OID != types.OIDUnknown {
			return nil, types.T{}, false
		}
	}
	return []types.T{types.Interval, t, t}, t, true
}

// intPairArgs is div/gcd/lcm over integers (the wider of the two);
// div also takes numerics (an integral numeric result).
func intPairArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 {
		return nil, types.T{}, false
	}
	if args[0].OID == types.OIDNumeric || args[1].OID == types.OIDNumeric {
		if !args[0].IsNumeric() && args[0].OID != types.OIDUnknown || !args[1].IsNumeric() && args[1].OID != types.OIDUnknown ||
			args[0].Family() == types.FamilyFloat || args[1].Family() == types.FamilyFloat {
			return nil, types.T{}, false
		}
		return []types.T{{OID: types.OIDNumeric, Scale: numericScaleOf(args[0])}, {OID: types.OIDNumeric, Scale: numericScaleOf(args[1])}},
			types.T{OID: types.OIDNumeric}, true
	}
	t := types.Int4
	for _, a := range args {
		switch {
		case a.OID == types.OIDInt8:
			t = types.Int8
		case a.Family() == types.FamilyInt, a.OID == types.OIDUnknown:
		default:
			return nil, types.T{}, false
		}
	}
	return []types.T{t, t}, t, true
}

// factorialArgs is factorial(bigint) → numeric.
func factorialArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 1 || (args[0].Family() != types.FamilyInt && args[0].OID != types.OIDUnknown) {
		return nil, types.T{}, false
	}
	return []types.T{types.Int8}, types.T{OID: types.OIDNumeric}, true
}

// PowerArgs resolves power(x, y) and x ^ y as PostgreSQL does between
// its float8 and numeric variants: float8 when either side is a float
// or neither is numeric (integers go to the preferred float8), numeric
// otherwise, at a scale of at least AvgNumericScale decimals (the value
// gets PostgreSQL's per-value scale within it).
func PowerArgs(args []types.T) ([]types.T, types.T, bool) {
	if len(args) != 2 {
		return nil, types.T{}, false
	}
	numeric, float := false, false
	for _, a := range args {
		switch {
		case a.OID == types.OIDUnknown:
		case !a.IsNumeric():
			return nil, types.T{}, false
		case a.Family() == types.FamilyFloat:
			float = true
		case a.Family() == types.FamilyNumeric:
			numeric = true
		}
	}
	if float || !numeric {
		return []types.T{types.Float8, types.Float8}, types.Float8, true
	}
	out := make([]types.T, 2)
	scale := int32(AvgNumericScale)
	for i, a := range args {
		out[i] = types.T{OID: types.OIDNumeric}
		if a.Family() == types.FamilyNumeric {
			out[i].Scale = a.Scale
			scale = max(scale, a.Scale)
		}
	}
	return out, types.T{OID: types.OIDNumeric, Scale: scale}, true
}
