package types

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Conversions of general numerics to and from the other number types,
// with PostgreSQL's rounding (half away from zero) and errors.

// NumericToFixed converts d to a decimal128 at to's scale, checking to's
// precision (38 digits when none was declared). NaN and infinities have
// no fixed form: a column of a declared numeric(p,s), and every column
// stored in Iceberg, holds finite values only.
func NumericToFixed(d *apd.Decimal, to T) (decimal128.Num, error) {
	if d.Form != apd.Finite {
		p, s := to.Precision, to.Scale
		if p == 0 {
			p = MaxNumericPrecision
		}
		what := "an infinite value"
		if isNaN(d) {
			what = "NaN"
		}
		return decimal128.Num{}, pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d cannot hold %s.", p, s, what)
	}
	var r apd.Decimal
	NumericRound(&r, d, to.Scale)
	if r.Coeff.BitLen() > 127 {
		return decimal128.Num{}, fixedOverflow(to)
	}
	var n decimal128.Num
	if r.Coeff.IsUint64() {
		n = decimal128.FromU64(r.Coeff.Uint64())
	} else {
		n = decimal128.FromBigInt(r.Coeff.MathBigInt())
	}
	if r.Negative {
		n = n.Negate()
	}
	v, err := CheckNumericPrecision(n, to)
	if err != nil {
		return decimal128.Num{}, err
	}
	return v.(decimal128.Num), nil
}

func fixedOverflow(to T) error {
	if to.Precision == 0 {
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	return pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
		WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", to.Precision, to.Scale, to.Precision-to.Scale)
}

// NumericToInt64 rounds d to an integer of type to (smallint, integer or
// bigint), as numeric_int2/4/8 do.
func NumericToInt64(d *apd.Decimal, to T) (int64, error) {
	if d.Form != apd.Finite {
		if isNaN(d) {
			return 0, pgerror.New(pgerror.FeatureNotSupported, "cannot convert NaN to %s", to.Name())
		}
		return 0, pgerror.New(pgerror.FeatureNotSupported, "cannot convert infinity to %s", to.Name())
	}
	var r apd.Decimal
	NumericRound(&r, d, 0)
	if r.Coeff.BitLen() > 64 {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "%s out of range", to.Name())
	}
	var i int64
	switch u := r.Coeff.Uint64(); {
	case !r.Negative && u <= math.MaxInt64:
		i = int64(u)
	case r.Negative && u <= 1<<63:
		i = -int64(u)
	default:
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "%s out of range", to.Name())
	}
	v, err := CheckIntRange(i, to)
	if err != nil {
		return 0, err
	}
	return v.(int64), nil
}

// NumericToFloat64 is d as a double, through its text as numeric_float8
// does; NaN and infinities carry over.
func NumericToFloat64(d *apd.Decimal) float64 {
	switch {
	case isNaN(d):
		return math.NaN()
	case d.Form == apd.Infinite:
		if d.Negative {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	f, _ := strconv.ParseFloat(NumericString(d), 64)
	return f
}

// NumericFromFloat64 converts a double (a real when float4) to numeric
// as float8_numeric does: through its text of 15 (6) significant digits.
func NumericFromFloat64(f float64, float4 bool) *apd.Decimal {
	switch {
	case math.IsNaN(f):
		return NumericNaN()
	case math.IsInf(f, 0):
		return NumericInf(f < 0)
	}
	digits := 15
	if float4 {
		digits = 6
	}
	d, err := ParseNumeric(strconv.FormatFloat(f, 'g', digits, 64))
	if err != nil {
		// Unreachable: FormatFloat writes only what ParseNumeric reads.
		return NumericNaN()
	}
	return d
}
