package exec

import (
	"math/big"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// Decimal arithmetic in 128-bit integers. Values of a numeric column
// almost always fit in 64 bits (prices, quantities, rates), so products
// and rescalings are done with bits.Mul64 and bits.Div64; only a value
// past that range takes the exact math/big path, which allocates. Both
// paths round half away from zero, as PostgreSQL's numeric does.

// pow10u64 are the powers of ten that fit in a uint64.
var pow10u64 = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
	1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// int64Of returns n as an int64 when it fits.
func int64Of(n decimal128.Num) (int64, bool) {
	lo, hi := n.LowBits(), n.HighBits()
	if (hi == 0 && lo>>63 == 0) || (hi == -1 && lo>>63 == 1) {
		return int64(lo), true
	}
	return 0, false
}

// absParts splits n into its sign and magnitude (hi, lo). The most
// negative 128-bit value has no magnitude in 127 bits; ok is false.
func absParts(n decimal128.Num) (neg bool, hi, lo uint64, ok bool) {
	if n.Sign() >= 0 {
		return false, uint64(n.HighBits()), n.LowBits(), true
	}
	m := n.Negate()
	if m.Sign() < 0 {
		return true, 0, 0, false
	}
	return true, uint64(m.HighBits()), m.LowBits(), true
}

// fromParts rebuilds a signed value from a magnitude below 2^127.
func fromParts(neg bool, hi, lo uint64) decimal128.Num {
	v := decimal128.New(int64(hi), lo)
	if neg {
		return v.Negate()
	}
	return v
}

// mulDecimal is a*b, a at scale as and b at scale bs, at scale to. ok is
// false when the result does not fit in 128 bits.
func mulDecimal(a, b decimal128.Num, as, bs, to int32) (decimal128.Num, bool) {
	x, xok := int64Of(a)
	y, yok := int64Of(b)
	if !xok || !yok {
		p := new(big.Int).Mul(a.BigInt(), b.BigInt())
		return types.RoundBig(p, as+bs, to)
	}
	neg := (x < 0) != (y < 0)
	hi, lo := bits.Mul64(absU64(x), absU64(y))
	// |x|,|y| <= 2^63, so the product is at most 2^126: it fits.
	return rescaleDecimal(fromParts(neg, hi, lo), as+bs, to)
}

func absU64(x int64) uint64 {
	if x < 0 {
		return uint64(-x) // also right for math.MinInt64
	}
	return uint64(x)
}

// rescaleDecimal moves v from scale from to scale to, rounding half away
// from zero; ok is false when the result does not fit in 128 bits.
func rescaleDecimal(v decimal128.Num, from, to int32) (decimal128.Num, bool) {
	switch d := to - from; {
	case d == 0:
		return v, true
	case d > 0 && d <= 38:
		// |v| < 10^(38-d) keeps |v * 10^d| below 10^38, inside 128 bits.
		if v.FitsInPrecision(38 - d) {
			return v.Mul(decimal128.GetScaleMultiplier(int(d))), true
		}
	case d < 0 && -d < int32(len(pow10u64)):
		neg, hi, lo, ok := absParts(v)
		if !ok {
			break
		}
		div := pow10u64[-d]
		qhi, r := hi/div, hi%div
		qlo, r := bits.Div64(r, lo, div)
		// Half away from zero: bump the magnitude when r >= div/2.
		if r >= div-r {
			var c uint64
			qlo, c = bits.Add64(qlo, 1, 0)
			qhi += c
		}
		return fromParts(neg, qhi, qlo), true
	}
	return types.Rescale(v, from, to)
}

// divDecimal is round(a * 10^shift / b) (b not zero), rounding half away
// from zero; ok is false when the quotient does not fit in 128 bits. When
// both operands fit in 64 bits and shift is small, the numerator is a
// bits.Mul64 product and the division two bits.Div64 steps.
func divDecimal(a, b decimal128.Num, shift int32) (decimal128.Num, bool) {
	x, xok := int64Of(a)
	y, yok := int64Of(b)
	if xok && yok && shift >= 0 && shift < int32(len(pow10u64)) {
		d := absU64(y)
		hi, lo := bits.Mul64(absU64(x), pow10u64[shift])
		qhi, r := hi/d, hi%d
		qlo, r := bits.Div64(r, lo, d)
		if r >= d-r {
			var c uint64
			qlo, c = bits.Add64(qlo, 1, 0)
			qhi += c
		}
		if qhi>>63 == 0 {
			return fromParts((x < 0) != (y < 0), qhi, qlo), true
		}
	}
	num := a.BigInt()
	num.Mul(num, types.Pow10(shift))
	return types.DivRound(num, b.BigInt())
}

// modDecimal is a % b for operands at the same scale (b not zero): the
// remainder of truncating division, with the sign of a.
func modDecimal(a, b decimal128.Num) decimal128.Num {
	x, xok := int64Of(a)
	y, yok := int64Of(b)
	if xok && yok {
		return decimal128.FromI64(x % y)
	}
	_, v := a.Div(b)
	return v
}

// The 64-bit paths below work on the unscaled int64 values of decimals
// that fit in 64 bits (every numeric(18,s) value, so nearly every stored
// one); each reports !ok on overflow, and the caller then takes the
// 128-bit path for that value.

// pow10i64 is 10^d as an int64; ok is false past 10^18.
func pow10i64(d int32) (int64, bool) {
	if d < 0 || d > 18 {
		return 0, false
	}
	return int64(pow10u64[d]), true
}

// mulInt64 is x*y; ok is false when the product leaves int64.
//
// The signed product's high word is the unsigned one less y when x is
// negative and less x when y is: the product fits exactly when that high
// word is the low word's sign: no magnitudes taken and no branch on the
// signs, for a product per row (TPC-H Q1's narrowed operands).
func mulInt64(x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	hi -= uint64(x>>63)&uint64(y) + uint64(y>>63)&uint64(x)
	return int64(lo), hi == uint64(int64(lo)>>63)
}

// addInt64 is x+y; ok is false when the sum leaves int64.
func addInt64(x, y int64) (int64, bool) {
	s := x + y
	return s, (x^s)&(y^s) >= 0
}

// subInt64 is x-y; ok is false when the difference leaves int64.
func subInt64(x, y int64) (int64, bool) {
	d := x - y
	return d, (x^y)&(x^d) >= 0
}

// addScaled64 is a*am ± b*bm (the operands brought to a common scale by
// the multipliers am and bm), when both fit in 64 bits and so does every
// step.
func addScaled64(a, b decimal128.Num, am, bm int64, sub bool) (int64, bool) {
	x, ok := int64Of(a)
	if !ok {
		return 0, false
	}
	y, ok := int64Of(b)
	if !ok {
		return 0, false
	}
	return addScaledInt64(x, y, am, bm, sub)
}

// addScaledInt64 is x*am ± y*bm when every step fits in 64 bits.
func addScaledInt64(x, y, am, bm int64, sub bool) (int64, bool) {
	var ok bool
	if am != 1 {
		if x, ok = mulInt64(x, am); !ok {
			return 0, false
		}
	}
	if bm != 1 {
		if y, ok = mulInt64(y, bm); !ok {
			return 0, false
		}
	}
	if sub {
		return subInt64(x, y)
	}
	return addInt64(x, y)
}

// mul64 is a*b at scale as+bs, when both fit in 64 bits and so does the
// product.
func mul64(a, b decimal128.Num) (int64, bool) {
	x, ok := int64Of(a)
	if !ok {
		return 0, false
	}
	y, ok := int64Of(b)
	if !ok {
		return 0, false
	}
	return mulInt64(x, y)
}
