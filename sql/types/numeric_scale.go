package types

import (
	"math"
	"math/big"
)

// PostgreSQL's numeric picks a result's display scale per value from the
// operands' magnitudes. These are its rules (numeric.c), for the places
// where SQE can apply them: a constant expression, whose one value sets
// the column's scale, and each value computed before it is held at its
// column's scale.

// Numeric scale bounds of PostgreSQL's numeric.c.
const (
	NumericMinSigDigits    = 16   // NUMERIC_MIN_SIG_DIGITS
	NumericMaxDisplayScale = 1000 // NUMERIC_MAX_DISPLAY_SCALE
	numericDecDigits       = 4    // DEC_DIGITS: decimal digits per base-10000 digit
)

// NumericWeight gives the base-10000 weight and first base-10000 digit of
// unscaled×10^-scale as PostgreSQL's normalized NumericVar holds them
// (0, 0 for zero). second is the next base-10000 digit (0 if none).
func NumericWeight(unscaled *big.Int, scale int32) (weight int, first, second int64) {
	abs := new(big.Int).Abs(unscaled)
	if abs.Sign() == 0 {
		return 0, 0, 0
	}
	e10 := len(abs.String()) - 1 - int(scale)
	weight = e10 / numericDecDigits
	if e10 < 0 && e10%numericDecDigits != 0 {
		weight--
	}
	// The digits from the leading group on, as an integer of groups.
	shift := int(scale) + (weight-1)*numericDecDigits
	if shift >= 0 {
		abs.Quo(abs, Pow10Big(shift))
	} else {
		abs.Mul(abs, Pow10Big(-shift))
	}
	two := abs.Int64()
	return weight, two / 10000, two % 10000
}

// Pow10Big is 10^n.
func Pow10Big(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

func clampScale(rscale, dscale int32) int32 {
	return min(max(rscale, dscale, 0), NumericMaxDisplayScale)
}

// NumericSqrtScale is numeric_sqrt's result scale.
func NumericSqrtScale(x *big.Int, scale int32) int32 {
	w, _, _ := NumericWeight(x, scale)
	sweight := (w+1)*numericDecDigits/2 - 1
	return clampScale(int32(NumericMinSigDigits-sweight), scale)
}

// NumericExpScale is numeric_exp's result scale: from the result's
// estimated decimal weight, x·log10(e), truncated as C's (int) does.
func NumericExpScale(x float64, scale int32) int32 {
	val := x * 0.434294481903252
	val = max(min(val, 2000), -2000)
	return clampScale(int32(NumericMinSigDigits-int(val)), scale)
}

// NumericLnScale is numeric_ln's result scale.
func NumericLnScale(x *big.Int, scale int32) int32 {
	return clampScale(int32(NumericMinSigDigits-estimateLnDWeight(x, scale)), scale)
}

// NumericLogScale is log_var's result scale for log(base, x).
func NumericLogScale(base *big.Int, bscale int32, x *big.Int, xscale int32) int32 {
	dweight := estimateLnDWeight(x, xscale) - estimateLnDWeight(base, bscale)
	return clampScale(int32(NumericMinSigDigits-dweight), max(bscale, xscale))
}

// estimateLnDWeight is estimate_ln_dweight: the decimal weight of ln(x).
func estimateLnDWeight(x *big.Int, scale int32) int {
	if x.Sign() <= 0 {
		return 0
	}
	v := new(big.Rat).SetFrac(x, Pow10Big(int(scale)))
	if v.Cmp(big.NewRat(9, 10)) >= 0 && v.Cmp(big.NewRat(11, 10)) <= 0 {
		// ln(1+d) ≈ d: the weight of d's leading decimal digit.
		d := new(big.Rat).Sub(v, big.NewRat(1, 1))
		if d.Sign() == 0 {
			return 0
		}
		num := new(big.Int).Mul(d.Num(), Pow10Big(int(scale)))
		num.Quo(num, d.Denom())
		w, first, _ := NumericWeight(num, scale)
		return w*numericDecDigits + int(math.Log10(float64(first)))
	}
	w, first, second := NumericWeight(x, scale)
	digits := float64(first)
	dweight := w * numericDecDigits
	if second != 0 || moreGroups(x, scale, w) {
		digits = digits*10000 + float64(second)
		dweight -= numericDecDigits
	}
	lnv := math.Log(digits) + float64(dweight)*2.302585092994046
	return int(math.Log10(math.Abs(lnv)))
}

// moreGroups reports whether x has a base-10000 digit after its first,
// as PostgreSQL's ndigits > 1 does (trailing zero groups are stripped).
func moreGroups(x *big.Int, scale int32, weight int) bool {
	shift := int(scale) + weight*numericDecDigits
	abs := new(big.Int).Abs(x)
	if shift <= 0 {
		return false
	}
	return new(big.Int).Rem(abs, Pow10Big(shift)).Sign() != 0
}
