package types

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Numeric values are held in decimal128 at a column's scale. These helpers
// change scale and divide exactly, rounding half away from zero as
// PostgreSQL's numeric does, and report a result that does not fit in 128
// bits instead of panicking (decimal128.FromBigInt panics).

// Pow10 is 10^n.
func Pow10(n int32) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// FromBig converts v to decimal128; ok is false when it does not fit.
func FromBig(v *big.Int) (decimal128.Num, bool) {
	if v.BitLen() > 127 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(v), true
}

// DivRound is num/den rounded half away from zero.
func DivRound(num, den *big.Int) (decimal128.Num, bool) {
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	m.Abs(m).Mul(m, big.NewInt(2))
	if m.Cmp(new(big.Int).Abs(den)) >= 0 {
		if (num.Sign() < 0) != (den.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return FromBig(q)
}

// RoundBig converts an exact value at scale from to scale to.
func RoundBig(v *big.Int, from, to int32) (decimal128.Num, bool) {
	if to >= from {
		return FromBig(new(big.Int).Mul(v, Pow10(to-from)))
	}
	return DivRound(v, Pow10(from-to))
}

// Rescale moves v from scale from to scale to.
func Rescale(v decimal128.Num, from, to int32) (decimal128.Num, bool) {
	if to == from {
		return v, true
	}
	return RoundBig(v.BigInt(), from, to)
}
