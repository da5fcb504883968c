package types

import (
	"math"
	"math/bits"
	"strconv"
)

// This file holds the allocation-free formatters of PostgreSQL text output,
// used by pgwire's text encoders and by casts to text:
// each appends PostgreSQL's text output for one value to dst.

// AppendFloat formats f the way PostgreSQL 15 does with the default
// extra_float_digits = 1: the shortest digits that round-trip, in fixed
// notation when the decimal exponent is in [-4, maxFixedExp) and in
// exponent notation ("1e+20", "1.5e-05") otherwise. maxFixedExp is 15 for
// float8 and 6 for float4, matching PostgreSQL's d2s.c and f2s.c.
func AppendFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	maxFixedExp := 15
	if bitSize == 32 {
		maxFixedExp = 6
	}
	// strconv's shortest 'e' form gives the digits and the exponent in one
	// pass (as PostgreSQL's Ryu picks them: ryuShortest); the fixed form
	// is then laid out from those digits.
	var tmp [32]byte
	e := ryuShortest(f, bitSize, strconv.AppendFloat(tmp[:0], f, 'e', -1, bitSize))
	mant, exp := splitExponent(e)
	if exp < -4 || exp >= maxFixedExp {
		return append(dst, e...)
	}
	neg := mant[0] == '-'
	if neg {
		dst = append(dst, '-')
		mant = mant[1:]
	}
	// mant is "d" or "d.ddd"; collect its digits.
	var digitBuf [24]byte
	digits := append(digitBuf[:0], mant[0])
	if len(mant) > 2 {
		digits = append(digits, mant[2:]...)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := 0; i < -exp-1; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	intLen := exp + 1
	if len(digits) <= intLen {
		dst = append(dst, digits...)
		for i := len(digits); i < intLen; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	dst = append(dst, digits[:intLen]...)
	dst = append(dst, '.')
	return append(dst, digits[intLen:]...)
}

// splitExponent splits strconv's "d.ddde±XX" into mantissa and exponent.
func splitExponent(e []byte) (mant []byte, exp int) {
	i := len(e) - 1
	for e[i] != 'e' {
		i--
	}
	mant = e[:i]
	sign := 1
	j := i + 1
	if e[j] == '-' {
		sign = -1
	}
	j++
	for ; j < len(e); j++ {
		exp = exp*10 + int(e[j]-'0')
	}
	return mant, sign * exp
}

// AppendDecimal128 formats the two's-complement 128-bit integer hi:lo scaled
// by 10^-scale exactly, as numeric_out does for a value of that scale
// ("120.50", "-0.05"); a negative scale appends zeros.
func AppendDecimal128(dst []byte, hi int64, lo uint64, scale int32) []byte {
	neg := hi < 0
	uhi := uint64(hi)
	if neg {
		// Negate the 128-bit two's complement value.
		lo = ^lo + 1
		uhi = ^uhi
		if lo == 0 {
			uhi++
		}
	}
	// Decimal digits, least significant first, by dividing by 10^19 (the
	// largest power of ten in a uint64) with 128-by-64-bit division.
	var rev [48]byte
	n := 0
	for uhi != 0 || lo != 0 {
		var rem uint64
		uhi, rem = bits.Div64(0, uhi, 1e19)
		lo, rem = bits.Div64(rem, lo, 1e19)
		for k := 0; k < 19 && (rem != 0 || uhi != 0 || lo != 0); k++ {
			rev[n] = byte('0' + rem%10)
			rem /= 10
			n++
		}
	}
	if neg && n > 0 {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		if n == 0 {
			dst = append(dst, '0')
		}
		for i := n - 1; i >= 0; i-- {
			dst = append(dst, rev[i])
		}
		for i := int32(0); i < -scale && n > 0; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	s := int(scale)
	// Integer part.
	if n <= s {
		dst = append(dst, '0')
	} else {
		for i := n - 1; i >= s; i-- {
			dst = append(dst, rev[i])
		}
	}
	// Fractional part: digits s-1 .. 0, zero-padded on the left.
	dst = append(dst, '.')
	for i := s - 1; i >= 0; i-- {
		if i < n {
			dst = append(dst, rev[i])
		} else {
			dst = append(dst, '0')
		}
	}
	return dst
}

// CivilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// date with astronomical year numbering (year 0 = 1 BC), after Howard
// Hinnant's days_from_civil inverse. It is exact for every int32 day count.
func CivilFromDays(days int64) (year int64, month, day int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097                                  // [0, 146096]
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365 // [0, 399]
	doy := doe - (365*yoe + yoe/4 - yoe/100)               // [0, 365]
	mp := (5*doy + 2) / 153                                // [0, 11]
	day = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		month = int(mp + 3)
	} else {
		month = int(mp - 9)
	}
	year = yoe + era*400
	if month <= 2 {
		year++
	}
	return year, month, day
}

// AppendDate appends YYYY-MM-DD; years before 1 are written as PostgreSQL
// does, with the BC year and a trailing " BC" that the caller adds after
// any time part, so it returns whether the value is BC.
func AppendDate(dst []byte, days int64) ([]byte, bool) {
	if out, inf := appendInfinity(dst, days == int64(DateNegInfinity), days == int64(DatePosInfinity)); inf {
		return out, false
	}
	y, m, d := CivilFromDays(days)
	bc := y <= 0
	if bc {
		y = 1 - y
	}
	if y < 1000 {
		dst = appendPadded(dst, y, 4)
	} else {
		dst = strconv.AppendInt(dst, y, 10)
	}
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(m), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, int64(d), 2)
	return dst, bc
}

const microsPerDay = 86_400_000_000

// AppendTimestamp appends "YYYY-MM-DD HH:MM:SS[.ffffff]" for micros since
// the epoch, with fractional seconds only when nonzero and their trailing
// zeros trimmed, then zone (e.g. "+00", may be empty) and " BC" for years
// before 1.
func AppendTimestamp(dst []byte, micros int64, zone string) []byte {
	if out, inf := appendInfinity(dst, micros == TimestampNegInfinity, micros == TimestampPosInfinity); inf {
		return out
	}
	days := micros / microsPerDay
	rem := micros % microsPerDay
	if rem < 0 {
		rem += microsPerDay
		days--
	}
	dst, bc := AppendDate(dst, days)
	secs := rem / 1_000_000
	frac := rem % 1_000_000
	dst = append(dst, ' ')
	dst = appendPadded(dst, secs/3600, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, secs/60%60, 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, secs%60, 2)
	if frac != 0 {
		width := 6
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		dst = append(dst, '.')
		dst = appendPadded(dst, frac, width)
	}
	dst = append(dst, zone...)
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

// appendPadded appends a non-negative v with at least width digits.
func appendPadded(dst []byte, v int64, width int) []byte {
	var tmp [20]byte
	b := strconv.AppendInt(tmp[:0], v, 10)
	for i := len(b); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, b...)
}
