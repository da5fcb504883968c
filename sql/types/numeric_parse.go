package types

import (
	"strconv"
	"strings"

	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// numericMaxExponent is NUMERIC_MAX_PRECISION, the largest exponent
// numeric_in reads.
const numericMaxExponent = 1000

// ParseNumeric reads text as numeric_in does: surrounding spaces, NaN and
// [+-]Infinity (or inf) in any case, and decimals with an optional
// exponent. The value keeps the scale it was written with (1.50 has two
// decimals; 1.5e-3 has four).
func ParseNumeric(s string) (*apd.Decimal, error) {
	d := new(apd.Decimal)
	if err := SetNumericText(d, s); err != nil {
		return nil, err
	}
	return d, nil
}

// SetNumericText is ParseNumeric into d.
func SetNumericText(d *apd.Decimal, s string) error {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "nan":
		d.Set(NumericNaN())
		return nil
	case "infinity", "+infinity", "inf", "+inf":
		d.Set(NumericInf(false))
		return nil
	case "-infinity", "-inf":
		d.Set(NumericInf(true))
		return nil
	}
	mant, exp := t, 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil || e > numericMaxExponent || e < -numericMaxExponent || strings.HasPrefix(t[i+1:], "+-") {
			return invalidInput("numeric", s)
		}
		mant, exp = t[:i], e
	}
	if !isDecimalMantissa(mant) {
		return invalidInput("numeric", s)
	}
	neg := false
	switch mant[0] {
	case '-':
		neg = true
		mant = mant[1:]
	case '+':
		mant = mant[1:]
	}
	scale := 0
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		scale = len(mant) - i - 1
		digits = mant[:i] + mant[i+1:]
	}
	scale -= exp
	d.Form, d.Negative = apd.Finite, false
	if len(digits) <= 19 {
		u, _ := strconv.ParseUint(digits, 10, 64)
		d.Coeff.SetUint64(u)
	} else if _, ok := d.Coeff.SetString(digits, 10); !ok {
		return invalidInput("numeric", s)
	}
	if scale < 0 {
		d.Coeff.Mul(&d.Coeff, Pow10Apd(int32(-scale)))
		scale = 0
	}
	if scale > NumericMaxDisplayScaleStored {
		return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	d.Exponent = -int32(scale)
	d.Negative = neg && d.Coeff.Sign() != 0
	return nil
}

// AppendNumericParsed appends the encoding of text read as numeric_in
// reads it.
func AppendNumericParsed(dst []byte, s string) ([]byte, error) {
	var d apd.Decimal
	if err := SetNumericText(&d, s); err != nil {
		return dst, err
	}
	return AppendNumeric(dst, &d), nil
}
