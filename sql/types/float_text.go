package types

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// upperBoundMin is the least magnitude at which a float's upper rounding
// bound (the point halfway to the next float away from zero) can have
// as few decimal digits as a float prints with: below it the bound's
// binary fraction takes more decimal digits than the 17 (float4: 9) that
// always suffice. Both are a little under the true limits.
const (
	upperBoundMin64 = 1 << 50
	upperBoundMin32 = 1 << 20
)

// ryuShortest corrects strconv's shortest digits e of f ("d.ddde±XX") to
// PostgreSQL's. Both print the fewest digits that read back as f and,
// among those, the nearest to f; but PostgreSQL's Ryu (d2s.c and f2s.c,
// built without STRICTLY_SHORTEST) never takes an end of the interval
// that reads back as f (a point halfway to the next float), while
// strconv takes either end when f's mantissa is even, since reading the
// end then rounds to f: 1e23 reads as 99999999999999991611392, the upper
// end of that float's interval, so strconv prints 1e+23 and PostgreSQL
// 9.999999999999999e+22. When e is an end, the digits are found again
// without the ends: at each length from e's, the nearest decimal to f,
// or when that is an end the one beside it inside, if it reads back as
// f. The exact comparisons take math/big, only for floats of at least
// upperBoundMin, below which no end has so few digits.
func ryuShortest(f float64, bitSize int, e []byte) []byte {
	af := math.Abs(f)
	if bitSize == 32 && af < upperBoundMin32 || bitSize != 32 && af < upperBoundMin64 || math.IsInf(af, 0) {
		return e
	}
	var up, down float64
	maxDigits := 17
	if bitSize == 32 {
		up, down = float64(math.Nextafter32(float32(af), float32(math.Inf(1)))), float64(math.Nextafter32(float32(af), 0))
		maxDigits = 9
	} else {
		up, down = math.Nextafter(af, math.Inf(1)), math.Nextafter(af, 0)
	}
	mant, exp := splitExponent(e)
	neg := mant[0] == '-'
	if neg {
		mant = mant[1:]
	}
	if !mayBeEnd(mant, exp, up-af, af-down) {
		return e
	}
	digits := mantissaDigits(mant)
	exact := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	half := big.NewRat(1, 2)
	lo := new(big.Rat).Mul(new(big.Rat).Add(exact(af), exact(down)), half)
	var hi *big.Rat
	if math.IsInf(up, 0) {
		// The largest float: its gap above is the one below.
		hi = new(big.Rat).Sub(new(big.Rat).Add(exact(af), exact(af)), lo)
	} else {
		hi = new(big.Rat).Mul(new(big.Rat).Add(exact(af), exact(up)), half)
	}
	if v := decimalRat(digits, exp); v.Cmp(hi) != 0 && v.Cmp(lo) != 0 {
		return e
	}
	inside := func(v *big.Rat) bool { return v.Cmp(lo) > 0 && v.Cmp(hi) < 0 }
	for n := len(digits); n <= maxDigits; n++ {
		c := strconv.AppendFloat(nil, af, 'e', n-1, bitSize)
		cm, cexp := splitExponent(c)
		cd := mantissaDigits(cm)
		v := decimalRat(cd, cexp)
		switch {
		case inside(v):
		case v.Cmp(hi) == 0:
			// The nearest is the upper end: the decimal of n digits
			// below it.
			cd, cexp = stepDigits(cd, cexp, -1)
		case v.Cmp(lo) == 0:
			cd, cexp = stepDigits(cd, cexp, +1)
		default:
			continue
		}
		if inside(decimalRat(cd, cexp)) {
			return formatExponent(neg, trimZeros(cd), cexp)
		}
	}
	return strconv.AppendFloat(nil, f, 'e', maxDigits-1, bitSize)
}

// mayBeEnd is a cheap test that mant ("d" or "d.ddd") x 10^exp can be
// an end of a float's rounding interval, whose gaps to the next floats
// above and below are gapUp and gapDown (powers of two; gapUp is +Inf
// for the largest float, whose upper end lies half the lower gap up):
// an end is an odd multiple of half a gap, so it is a binary fraction
// (each 10 below the point needs a 5 of the digits) with one factor of
// two fewer than the gap. Most floats fail it and skip math/big.
func mayBeEnd(mant []byte, exp int, gapUp, gapDown float64) bool {
	var d uint64
	n := 0
	for _, c := range mant {
		if c != '.' {
			d = d*10 + uint64(c-'0')
			n++
		}
	}
	x := exp - n + 1 // the value is d x 10^x
	for k := x; k < 0; k++ {
		if d%5 != 0 {
			return false
		}
		d /= 5
	}
	twos := bits.TrailingZeros64(d) + x
	for _, gap := range []float64{gapUp, gapDown} {
		if math.IsInf(gap, 0) {
			continue
		}
		if _, e2 := math.Frexp(gap); twos == e2-2 {
			return true
		}
	}
	return false
}

// mantissaDigits are the digits of strconv's "d" or "d.ddd".
func mantissaDigits(mant []byte) []byte {
	digits := []byte{mant[0]}
	if len(mant) > 2 {
		digits = append(digits, mant[2:]...)
	}
	return digits
}

// decimalRat is d.ddd x 10^exp, exactly.
func decimalRat(digits []byte, exp int) *big.Rat {
	m, _ := new(big.Int).SetString(string(digits), 10)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp-len(digits)+1))), nil)
	if exp-len(digits)+1 >= 0 {
		return new(big.Rat).SetInt(m.Mul(m, p))
	}
	return new(big.Rat).SetFrac(m, p)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// stepDigits is d.ddd x 10^exp moved by one unit in its last digit (by
// is -1 or +1), renormalised when its leading digit falls to zero (1.00
// to 9.9 x 10^(exp-1)) or carries past nine (9.99 to 1.000 x 10^(exp+1)).
func stepDigits(digits []byte, exp, by int) ([]byte, int) {
	d := append([]byte(nil), digits...)
	i := len(d) - 1
	if by < 0 {
		for i > 0 && d[i] == '0' {
			d[i] = '9'
			i--
		}
		d[i]--
		if d[0] == '0' && len(d) > 1 {
			return d[1:], exp - 1
		}
		return d, exp
	}
	for i >= 0 && d[i] == '9' {
		d[i] = '0'
		i--
	}
	if i < 0 {
		return append([]byte{'1'}, d...), exp + 1
	}
	d[i]++
	return d, exp
}

// trimZeros drops trailing zero digits, keeping one.
func trimZeros(digits []byte) []byte {
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return digits
}

// formatExponent writes digits and exp as strconv's shortest 'e' form
// does ("9.999e+22", "1e-05").
func formatExponent(neg bool, digits []byte, exp int) []byte {
	var out []byte
	if neg {
		out = append(out, '-')
	}
	out = append(out, digits[0])
	if len(digits) > 1 {
		out = append(out, '.')
		out = append(out, digits[1:]...)
	}
	out = append(out, 'e')
	if exp < 0 {
		out = append(out, '-')
		exp = -exp
	} else {
		out = append(out, '+')
	}
	if exp < 10 {
		out = append(out, '0')
	}
	return strconv.AppendInt(out, int64(exp), 10)
}
