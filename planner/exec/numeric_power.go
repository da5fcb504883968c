package exec

import (
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// numeric ^ numeric (and power(numeric, numeric)) as PostgreSQL 15's
// power_var: an integer exponent gives 16 decimals or the base's scale
// and is computed exactly; another one gives a scale chosen per value so
// the result has at least 16 significant digits and no fewer decimals
// than either input, computed as exp(y * ln(x)) in binary floating point
// far wider than the digits kept. Both round half away from zero, and
// the result is a general numeric at that scale.

const (
	// numericMinSigDigits is PostgreSQL's NUMERIC_MIN_SIG_DIGITS.
	numericMinSigDigits = 16
	// numericMaxDisplayScale is NUMERIC_MAX_DISPLAY_SCALE.
	numericMaxDisplayScale = 1000
	// powerPrec is the working precision in bits of the non-integer
	// path: about 150 decimal digits, against the 38 a decimal128 holds.
	powerPrec = 512
	// exactPowerDigits bounds the size of an integer power computed
	// exactly; larger ones go through the floating path.
	exactPowerDigits = 4000
)

// numericPowerKernel computes power over numeric arguments (decimal or
// general), each result at the scale PostgreSQL gives it.
func numericPowerKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	lr, err := newNumericReader(args[0])
	if err != nil {
		return nil, err
	}
	rr, err := newNumericReader(args[1])
	if err != nil {
		return nil, err
	}
	ln2 := ln2Float() // once per batch: the series is the costly part
	validity, _ := validity2(args[0], args[1])
	var x, y apd.Decimal
	return buildGeneral(args[0].Len(), validity, func(i int, d *apd.Decimal) error {
		lr.read(i, &x)
		rr.read(i, &y)
		if x.Form != apd.Finite || y.Form != apd.Finite {
			return powerSpecial(d, &x, &y)
		}
		bm, bs := scaledBig(&x)
		em, es := scaledBig(&y)
		v, err := powerDecimal(bm, bs, em, es, ln2)
		if err != nil {
			return err
		}
		v.set(d)
		return nil
	})
}

// scaledBig is a finite value as an integer and its scale.
func scaledBig(d *apd.Decimal) (*big.Int, int32) {
	m := d.Coeff.MathBigInt()
	if d.Negative {
		m.Neg(m)
	}
	if d.Exponent > 0 {
		return m.Mul(m, pow10Big(d.Exponent)), 0
	}
	return m, -d.Exponent
}

// powerDecimal is (bm / 10^bs) ^ (em / 10^es) at scale out.
func powerDecimal(bm *big.Int, bs int32, em *big.Int, es int32, ln2 *big.Float) (scaledValue, error) {
	// The decimal display scales PostgreSQL uses are the inputs' scales
	// (SQE keeps a column's scale per value).
	baseSign, expSign := bm.Sign(), em.Sign()
	expInt, expIsInt := integerExponent(em, es)
	if baseSign == 0 && expSign < 0 {
		return scaledValue{}, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	if baseSign < 0 && !expIsInt {
		return scaledValue{}, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	}
	if expIsInt && expInt >= math.MinInt32 && expInt <= math.MaxInt32 {
		return powerInt(bm, bs, expInt, ln2)
	}
	if baseSign == 0 {
		// 0 ^ a positive non-integer: 0 with 16 decimals.
		return zeroAt(numericMinSigDigits), nil
	}
	return powerReal(bm, bs, em, es, ln2)
}

// integerExponent reports whether em / 10^es is an integer that fits an
// int64, and gives it.
func integerExponent(em *big.Int, es int32) (int64, bool) {
	q, rem := new(big.Int).QuoRem(em, pow10Big(es), new(big.Int))
	if rem.Sign() != 0 || !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// pow10Big is 10^n.
func pow10Big(n int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// log10Estimate approximates log10 of bm / 10^bs from its leading
// base-10000 digits, as PostgreSQL's power_var_int does for its early
// overflow and underflow tests.
func log10Estimate(bm *big.Int, bs int32) float64 {
	digits := new(big.Int).Abs(bm).String()
	// Group the digits in fours around the decimal point.
	intLen := len(digits) - int(bs)
	pad := (4 - ((intLen%4)+4)%4) % 4
	digits = stringsRepeat('0', pad) + digits
	intLen += pad
	groups := (len(digits) + 3) / 4
	digits += stringsRepeat('0', groups*4-len(digits))
	// Drop leading zero groups; the weight is that of the first one.
	weight := intLen/4 - 1
	k := 0
	for k < groups && digits[4*k:4*k+4] == "0000" {
		k++
		weight--
	}
	f := 0.0
	p := weight * 4
	for i := 0; k+i < groups && i*4 < 16; i++ {
		g := 0
		for _, c := range digits[4*(k+i) : 4*(k+i)+4] {
			g = g*10 + int(c-'0')
		}
		if i == 0 {
			f = float64(g)
			continue
		}
		f = f*10000 + float64(g)
		p -= 4
	}
	return math.Log10(f) + float64(p)
}

func stringsRepeat(c byte, n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

// chooseScale is power_var's result scale for an estimated decimal weight.
func chooseScale(weight float64, bs, es int32) int32 {
	rscale := int32(numericMinSigDigits - int(weight))
	rscale = max(rscale, bs, es, 0)
	return min(rscale, numericMaxDisplayScale)
}

// powerInt is PostgreSQL 15's power_var_int: base ^ exp for an integer
// exponent, at a scale of 16 decimals or the base's, whichever is more.
func powerInt(bm *big.Int, bs int32, exp int64, ln2 *big.Float) (scaledValue, error) {
	rscale := min(max(numericMinSigDigits, bs), numericMaxDisplayScale)
	f := 0.0
	if bm.Sign() != 0 && exp != 0 {
		f = float64(exp) * log10Estimate(bm, bs)
	}
	if f > 3*math.MaxInt16*4 {
		return scaledValue{}, errNumericOverflow()
	}
	if f+1 < float64(-rscale) {
		return zeroAt(rscale), nil
	}
	switch {
	case exp == 0:
		// 0 ^ 0 is 1, as SQL:2003 and PostgreSQL have it.
		return roundRat(new(big.Rat).SetInt64(1), rscale), nil
	case bm.Sign() == 0:
		return zeroAt(rscale), nil
	}
	abs := exp
	if abs < 0 {
		abs = -abs
	}
	if int64(len(bm.String()))*abs <= exactPowerDigits {
		num := new(big.Int).Exp(bm, big.NewInt(abs), nil)
		den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(bs)*abs), nil)
		if exp < 0 {
			num, den = den, num
		}
		return roundRat(new(big.Rat).SetFrac(num, den), rscale), nil
	}
	x := decimalFloat(bm, bs)
	y := new(big.Float).SetPrec(powerPrec).SetInt64(exp)
	return roundFloat(expFloat(y.Mul(y, lnFloat(new(big.Float).Abs(x), ln2)), ln2), bm.Sign() < 0 && exp%2 != 0, rscale), nil
}

// powerReal is power_var for a non-integer exponent (or one beyond
// int32): exp(e * ln(b)) for a positive base.
func powerReal(bm *big.Int, bs int32, em *big.Int, es int32, ln2 *big.Float) (scaledValue, error) {
	x := decimalFloat(bm, bs)
	y := new(big.Float).SetPrec(powerPrec).Mul(lnFloat(x, ln2), decimalFloat(em, es))
	val, _ := y.Float64()
	if math.Abs(val) > numericMaxDisplayScale*3.01 {
		if val > 0 {
			return scaledValue{}, errNumericOverflow()
		}
		return zeroAt(numericMaxDisplayScale), nil
	}
	rscale := chooseScale(val*0.434294481903252, bs, es)
	return roundFloat(expFloat(y, ln2), false, rscale), nil
}

// decimalFloat is m / 10^s at the working precision.
func decimalFloat(m *big.Int, s int32) *big.Float {
	x := new(big.Float).SetPrec(powerPrec).SetInt(m)
	return x.Quo(x, new(big.Float).SetPrec(powerPrec).SetInt(pow10Big(s)))
}

// scaledValue is a result rounded to the scale PostgreSQL gives it:
// q × 10^-scale.
type scaledValue struct {
	q     *big.Int
	scale int32
}

func zeroAt(scale int32) scaledValue { return scaledValue{q: new(big.Int), scale: scale} }

// set writes v into d.
func (v scaledValue) set(d *apd.Decimal) {
	d.Form, d.Exponent = apd.Finite, -v.scale
	d.Negative = v.q.Sign() < 0
	d.Coeff.SetMathBigInt(new(big.Int).Abs(v.q))
}

// roundRat rounds v half away from zero to rscale decimals.
func roundRat(v *big.Rat, rscale int32) scaledValue {
	scaled := new(big.Rat).Mul(v, new(big.Rat).SetInt(pow10Big(rscale)))
	q, rem := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	// |rem| / denom >= 1/2 rounds away from zero.
	if new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2)).Cmp(scaled.Denom()) >= 0 {
		if scaled.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return scaledValue{q: q, scale: rscale}
}

// roundFloat rounds |v| (negated when neg) half away from zero to rscale
// decimals.
func roundFloat(v *big.Float, neg bool, rscale int32) scaledValue {
	scaled := new(big.Float).SetPrec(powerPrec).Mul(v, new(big.Float).SetPrec(powerPrec).SetInt(pow10Big(rscale)))
	scaled.Add(scaled, big.NewFloat(0.5))
	q, _ := scaled.Int(nil)
	if neg {
		q.Neg(q)
	}
	return scaledValue{q: q, scale: rscale}
}

// lnFloat is the natural logarithm of x > 0: x = m * 2^e with m in
// [0.5, 1), ln x = e ln 2 + 2 atanh((m-1)/(m+1)).
func lnFloat(x, ln2 *big.Float) *big.Float {
	m := new(big.Float).SetPrec(powerPrec)
	e := x.MantExp(m)
	r := atanhSeries(m)
	r.Mul(r, big.NewFloat(2))
	shift := new(big.Float).SetPrec(powerPrec).SetInt64(int64(e))
	return r.Add(r, shift.Mul(shift, ln2))
}

// ln2Float is ln 2 = 2 atanh(1/3).
func ln2Float() *big.Float {
	third := new(big.Float).SetPrec(powerPrec).Quo(big.NewFloat(1), new(big.Float).SetPrec(powerPrec).SetInt64(3))
	z := atanhOf(third)
	return z.Mul(z, big.NewFloat(2))
}

// atanhSeries is atanh((m-1)/(m+1)).
func atanhSeries(m *big.Float) *big.Float {
	num := new(big.Float).SetPrec(powerPrec).Sub(m, big.NewFloat(1))
	den := new(big.Float).SetPrec(powerPrec).Add(m, big.NewFloat(1))
	return atanhOf(num.Quo(num, den))
}

// atanhOf sums z + z^3/3 + z^5/5 + ... for |z| <= 1/3 until the terms
// vanish at the working precision.
func atanhOf(z *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(powerPrec).Set(z)
	z2 := new(big.Float).SetPrec(powerPrec).Mul(z, z)
	pow := new(big.Float).SetPrec(powerPrec).Set(z)
	term := new(big.Float).SetPrec(powerPrec)
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetPrec(powerPrec).SetInt64(k))
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -powerPrec {
			break
		}
		sum.Add(sum, term)
	}
	return sum
}

// expFloat is e^y: y = k ln 2 + r with |r| <= ln 2 / 2, r halved s
// times for the Taylor series, then squared back.
func expFloat(y, ln2 *big.Float) *big.Float {
	kf := new(big.Float).SetPrec(powerPrec).Quo(y, ln2)
	kv, _ := kf.Float64()
	k := int64(math.Round(kv))
	r := new(big.Float).SetPrec(powerPrec).Mul(ln2, new(big.Float).SetPrec(powerPrec).SetInt64(k))
	r.Sub(y, r)
	const halvings = 20
	r.SetMantExp(r, -halvings)
	sum := new(big.Float).SetPrec(powerPrec).SetInt64(1)
	term := new(big.Float).SetPrec(powerPrec).SetInt64(1)
	for n := int64(1); n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(powerPrec).SetInt64(n))
		if term.Sign() == 0 || term.MantExp(nil) < -powerPrec-8 {
			break
		}
		sum.Add(sum, term)
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}
