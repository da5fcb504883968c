package types

import (
	"bytes"
	"encoding/binary"

	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Arithmetic, comparison and grouping of general numerics with
// PostgreSQL's result scales (numeric.c): a sum or difference has the
// larger of the operands' scales, a product their sum, a quotient the
// scale select_div_scale picks (16 significant digits, never fewer
// decimals than either operand), a remainder the larger scale. Results
// are exact; only a quotient is rounded, half away from zero.

// numericRank orders the forms: -Infinity, finite, +Infinity, NaN.
func numericRank(d *apd.Decimal) int {
	switch d.Form {
	case apd.Infinite:
		if d.Negative {
			return 0
		}
		return 2
	case apd.NaN, apd.NaNSignaling:
		return 3
	}
	return 1
}

// NumericCmp compares as PostgreSQL orders numerics: NaN equals itself
// and sorts above every other value, 1.0 equals 1.00.
func NumericCmp(a, b *apd.Decimal) int {
	ra, rb := numericRank(a), numericRank(b)
	if ra != rb || ra != 1 {
		switch {
		case ra < rb:
			return -1
		case ra > rb:
			return 1
		}
		return 0
	}
	return a.Cmp(b)
}

// CompareNumericBytes compares two encodings as NumericCmp does.
func CompareNumericBytes(a, b []byte) int {
	if a[0] <= numericFormNeg && b[0] <= numericFormNeg && bytes.Equal(a[1:3], b[1:3]) {
		// Finite, one scale: sign, then magnitude (minimal big-endian
		// bytes, so a longer one is larger).
		switch {
		case a[0] != b[0] && !(len(a) == 3 && len(b) == 3):
			if a[0] == numericFormNeg {
				return -1
			}
			return 1
		}
		c := len(a) - len(b)
		if c == 0 {
			c = bytes.Compare(a[3:], b[3:])
		}
		if c < 0 {
			c = -1
		} else if c > 0 {
			c = 1
		}
		if a[0] == numericFormNeg {
			return -c
		}
		return c
	}
	var x, y apd.Decimal
	DecodeNumeric(a, &x)
	DecodeNumeric(b, &y)
	return NumericCmp(&x, &y)
}

// AppendNumericKey appends an encoding with trailing fractional zeros
// removed, so values PostgreSQL calls equal (1.0 and 1.00) have one key.
func AppendNumericKey(dst, b []byte) []byte {
	if b[0] > numericFormNeg {
		return append(dst, b[0])
	}
	scale := binary.BigEndian.Uint16(b[1:3])
	mag := b[3:]
	if len(mag) == 0 {
		return append(dst, numericFormPos, 0, 0)
	}
	if len(mag) <= 8 {
		var u uint64
		for _, c := range mag {
			u = u<<8 | uint64(c)
		}
		for scale > 0 && u%10 == 0 {
			u /= 10
			scale--
		}
		dst = append(dst, b[0], byte(scale>>8), byte(scale))
		return appendUint64Magnitude(dst, u)
	}
	var d apd.Decimal
	DecodeNumeric(b, &d)
	var q, r apd.BigInt
	ten := apd.NewBigInt(10)
	for d.Exponent < 0 {
		q.QuoRem(&d.Coeff, ten, &r)
		if r.Sign() != 0 {
			break
		}
		d.Coeff.Set(&q)
		d.Exponent++
	}
	return AppendNumeric(dst, &d)
}

// signedCoeff sets z to d's coefficient with d's sign.
func signedCoeff(z *apd.BigInt, d *apd.Decimal) *apd.BigInt {
	z.Set(&d.Coeff)
	if d.Negative {
		z.Neg(z)
	}
	return z
}

// setSigned sets d to v×10^-scale.
func setSigned(d *apd.Decimal, v *apd.BigInt, scale int32) {
	d.Form = apd.Finite
	d.Negative = v.Sign() < 0
	d.Coeff.Abs(v)
	d.Exponent = -scale
}

// alignedCoeffs gives x's and y's signed coefficients at the larger of
// their scales, and that scale.
func alignedCoeffs(a, b *apd.BigInt, x, y *apd.Decimal) int32 {
	xs, ys := NumericDisplayScale(x), NumericDisplayScale(y)
	signedCoeff(a, x)
	signedCoeff(b, y)
	if x.Exponent > 0 {
		a.Mul(a, Pow10Apd(x.Exponent))
	}
	if y.Exponent > 0 {
		b.Mul(b, Pow10Apd(y.Exponent))
	}
	switch {
	case xs < ys:
		a.Mul(a, Pow10Apd(ys-xs))
		return ys
	case ys < xs:
		b.Mul(b, Pow10Apd(xs-ys))
	}
	return xs
}

func isNaN(d *apd.Decimal) bool { return d.Form == apd.NaN || d.Form == apd.NaNSignaling }

// NumericAdd sets d to x+y (x-y when sub).
func NumericAdd(d, x, y *apd.Decimal, sub bool) {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		yneg := y.Negative != sub
		switch {
		case isNaN(x) || isNaN(y):
			d.Set(NumericNaN())
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			if x.Negative != yneg {
				d.Set(NumericNaN())
			} else {
				d.Set(x)
			}
		case x.Form == apd.Infinite:
			d.Set(x)
		default:
			d.Set(NumericInf(yneg))
		}
		return
	}
	var a, b apd.BigInt
	scale := alignedCoeffs(&a, &b, x, y)
	if sub {
		a.Sub(&a, &b)
	} else {
		a.Add(&a, &b)
	}
	setSigned(d, &a, scale)
}

// NumericMul sets d to x×y.
func NumericMul(d, x, y *apd.Decimal) {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case isNaN(x) || isNaN(y):
			d.Set(NumericNaN())
		case x.Form == apd.Finite && x.Coeff.Sign() == 0, y.Form == apd.Finite && y.Coeff.Sign() == 0:
			d.Set(NumericNaN()) // Infinity × 0
		default:
			d.Set(NumericInf(x.Negative != y.Negative))
		}
		return
	}
	var a, b apd.BigInt
	signedCoeff(&a, x)
	signedCoeff(&b, y)
	a.Mul(&a, &b)
	scale := -(x.Exponent + y.Exponent)
	if scale < 0 {
		a.Mul(&a, Pow10Apd(-scale))
		scale = 0
	}
	setSigned(d, &a, scale)
	if scale > NumericMaxDisplayScaleStored {
		NumericRound(d, d, NumericMaxDisplayScaleStored)
	}
}

// errDivisionByZero is PostgreSQL's division by zero error.
func errDivisionByZero() error {
	return pgerror.New(pgerror.DivisionByZero, "division by zero")
}

// NumericDivScale picks a quotient's scale as select_div_scale does.
func NumericDivScaleOf(x, y *apd.Decimal) int32 {
	w1, f1 := numericLeadingGroup(x)
	w2, f2 := numericLeadingGroup(y)
	qweight := w1 - w2
	if f1 <= f2 {
		qweight--
	}
	return clampScale(int32(NumericMinSigDigits-qweight*numericDecDigits), max(NumericDisplayScale(x), NumericDisplayScale(y)))
}

// numericLeadingGroup gives the base-10000 weight and first base-10000
// digit of a finite value, as PostgreSQL's normalized NumericVar holds
// them (0, 0 for zero).
func numericLeadingGroup(d *apd.Decimal) (weight int, first int64) {
	if d.Coeff.Sign() == 0 {
		return 0, 0
	}
	nd := int(apd.NumDigits(&d.Coeff))
	e10 := nd - 1 + int(d.Exponent) // decimal exponent of the leading digit
	weight = e10 / numericDecDigits
	if e10 < 0 && e10%numericDecDigits != 0 {
		weight--
	}
	// The leading group holds the digits from 10^e10 down to
	// 10^(4×weight): e10-4×weight+1 of them.
	keep := e10 - weight*numericDecDigits + 1
	if nd <= keep {
		v := d.Coeff.Uint64()
		for i := nd; i < keep; i++ {
			v *= 10
		}
		return weight, int64(v)
	}
	var q apd.BigInt
	q.Quo(&d.Coeff, Pow10Apd(int32(nd-keep)))
	return weight, int64(q.Uint64())
}

// NumericDiv sets d to x/y at select_div_scale's scale.
func NumericDiv(d, x, y *apd.Decimal) error {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case isNaN(x) || isNaN(y):
			d.Set(NumericNaN())
		case x.Form == apd.Infinite && y.Form == apd.Infinite:
			d.Set(NumericNaN())
		case x.Form == apd.Infinite:
			if y.Coeff.Sign() == 0 {
				return errDivisionByZero()
			}
			d.Set(NumericInf(x.Negative != y.Negative))
		default:
			d.Set(&apd.Decimal{})
		}
		return nil
	}
	if y.Coeff.Sign() == 0 {
		return errDivisionByZero()
	}
	NumericDivRound(d, x, y, NumericDivScaleOf(x, y))
	return nil
}

// NumericDivRound sets d to x/y (finite, y ≠ 0) rounded half away from
// zero to rscale decimals.
func NumericDivRound(d, x, y *apd.Decimal, rscale int32) {
	// q = x.coeff×10^(rscale+x.exp-y.exp) / y.coeff, as integers.
	var num, den, q, r apd.BigInt
	num.Set(&x.Coeff)
	den.Set(&y.Coeff)
	if shift := rscale + x.Exponent - y.Exponent; shift >= 0 {
		num.Mul(&num, Pow10Apd(shift))
	} else {
		den.Mul(&den, Pow10Apd(-shift))
	}
	q.QuoRem(&num, &den, &r)
	r.Add(&r, &r)
	if r.Cmp(&den) >= 0 {
		q.Add(&q, apd.NewBigInt(1))
	}
	d.Form, d.Negative, d.Exponent = apd.Finite, x.Negative != y.Negative && q.Sign() != 0, -rscale
	d.Coeff.Set(&q)
}

// NumericMod sets d to x mod y (the sign of x, the larger scale).
func NumericMod(d, x, y *apd.Decimal) error {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		switch {
		case isNaN(x) || isNaN(y):
			d.Set(NumericNaN())
		case x.Form == apd.Infinite:
			if y.Form == apd.Finite && y.Coeff.Sign() == 0 {
				return errDivisionByZero()
			}
			d.Set(NumericNaN())
		default:
			d.Set(x)
		}
		return nil
	}
	if y.Coeff.Sign() == 0 {
		return errDivisionByZero()
	}
	var a, b apd.BigInt
	scale := alignedCoeffs(&a, &b, x, y)
	a.Rem(&a, &b)
	setSigned(d, &a, scale)
	return nil
}

// NumericRound sets d to x rounded half away from zero to scale decimals
// (negative: to tens, hundreds...), with display scale max(scale, 0), as
// round(numeric, int) does; trunc truncates instead.
func NumericRound(d, x *apd.Decimal, scale int32) { numericRescale(d, x, scale, true) }

// NumericTrunc is NumericRound truncating toward zero.
func NumericTrunc(d, x *apd.Decimal, scale int32) { numericRescale(d, x, scale, false) }

func numericRescale(d, x *apd.Decimal, scale int32, round bool) {
	if x.Form != apd.Finite {
		d.Set(x)
		return
	}
	var c apd.BigInt
	c.Set(&x.Coeff)
	exp := x.Exponent
	if exp > 0 {
		c.Mul(&c, Pow10Apd(exp))
		exp = 0
	}
	if cur := -exp; scale >= cur {
		c.Mul(&c, Pow10Apd(scale-cur))
	} else {
		var q, r apd.BigInt
		p := Pow10Apd(cur - scale)
		q.QuoRem(&c, p, &r)
		if round {
			r.Add(&r, &r)
			if r.Cmp(p) >= 0 {
				q.Add(&q, apd.NewBigInt(1))
			}
		}
		c.Set(&q)
	}
	outScale := scale
	if scale < 0 {
		c.Mul(&c, Pow10Apd(-scale))
		outScale = 0
	}
	d.Form, d.Exponent = apd.Finite, -outScale
	d.Negative = x.Negative && c.Sign() != 0
	d.Coeff.Set(&c)
}

// NumericCeilFloor sets d to ceil(x) or floor(x), at scale 0.
func NumericCeilFloor(d, x *apd.Decimal, ceil bool) {
	if x.Form != apd.Finite {
		d.Set(x)
		return
	}
	var t apd.Decimal
	NumericTrunc(&t, x, 0)
	if t.Cmp(x) != 0 && ceil != x.Negative {
		one := apd.New(1, 0)
		if ceil {
			NumericAdd(&t, &t, one, false)
		} else {
			NumericAdd(&t, &t, one, true)
		}
	}
	d.Set(&t)
}

// NumericMinScale is min_scale: the fewest decimals that hold x exactly.
func NumericMinScale(x *apd.Decimal) int32 {
	if x.Form != apd.Finite || x.Coeff.Sign() == 0 {
		return 0
	}
	var r apd.Decimal
	r.Reduce(x)
	if r.Exponent >= 0 {
		return 0
	}
	return -r.Exponent
}

// NumericTrimScale is trim_scale: x at its minimum scale.
func NumericTrimScale(d, x *apd.Decimal) {
	if x.Form != apd.Finite {
		d.Set(x)
		return
	}
	NumericTrunc(d, x, NumericMinScale(x))
}

// NumericDivTrunc is div(x, y): the quotient truncated toward zero, at
// scale 0.
func NumericDivTrunc(d, x, y *apd.Decimal) error {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		return NumericDiv(d, x, y)
	}
	if y.Coeff.Sign() == 0 {
		return errDivisionByZero()
	}
	var a, b apd.BigInt
	alignedCoeffs(&a, &b, x, y)
	a.Quo(&a, &b)
	setSigned(d, &a, 0)
	return nil
}

// NumericGCD sets d to gcd(x, y) (lcm when lcm), at the larger scale, as
// numeric_gcd and numeric_lcm do; NaN when either is NaN or infinite.
func NumericGCD(d, x, y *apd.Decimal, lcm bool) {
	if x.Form != apd.Finite || y.Form != apd.Finite {
		d.Set(NumericNaN())
		return
	}
	var a, b, g apd.BigInt
	scale := alignedCoeffs(&a, &b, x, y)
	a.Abs(&a)
	b.Abs(&b)
	switch {
	case lcm && (a.Sign() == 0 || b.Sign() == 0):
		g.SetInt64(0)
	case lcm:
		var p apd.BigInt
		g.GCD(nil, nil, &a, &b)
		p.Mul(&a, &b)
		g.Quo(&p, &g)
	case a.Sign() == 0:
		g.Set(&b)
	case b.Sign() == 0:
		g.Set(&a)
	default:
		g.GCD(nil, nil, &a, &b)
	}
	// Both are integers at one scale, so their gcd and lcm are too.
	setSigned(d, &g, scale)
}
