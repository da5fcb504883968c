package exec

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Kernels of the general numeric (types.NumericArray): values with a
// scale each, NaN and ±Infinity, computed with apd at PostgreSQL's result
// scales (sql/types). An operand that is a decimal128 column is read
// value by value in place; a decimal column compared with a general
// value stays in its fixed domain (compareFixedGeneral).

// numericReader reads rows of a numeric operand, decimal128 at its
// column's scale or general, as apd values.
type numericReader struct {
	dec   []decimal128.Num
	scale int32
	bin   *array.Binary
	ints  []int64
}

func newNumericReader(a arrow.Array) (numericReader, error) {
	switch x := a.(type) {
	case *types.NumericArray:
		return numericReader{bin: x.Storage().(*array.Binary)}, nil
	case *array.Decimal128, *array.Decimal64:
		return numericReader{dec: decimalValues(a), scale: decimalScale(a)}, nil
	case *array.Int16, *array.Int32, *array.Int64:
		return numericReader{ints: intsOf(a)}, nil
	}
	return numericReader{}, fmt.Errorf("numeric operand of type %s", a.DataType())
}

func (r *numericReader) read(i int, d *apd.Decimal) {
	switch {
	case r.bin != nil:
		types.DecodeNumeric(r.bin.Value(i), d)
	case r.ints != nil:
		d.SetInt64(r.ints[i])
	default:
		types.SetNumericFromDecimal128(d, r.dec[i], r.scale)
	}
}

// isGeneralArray reports an array of general numerics.
func isGeneralArray(a arrow.Array) bool {
	_, ok := a.(*types.NumericArray)
	return ok
}

// buildGeneral builds n general numerics: fill sets row i's value; rows
// invalid in validity are NULL.
func buildGeneral(n int, validity []byte, fill func(i int, d *apd.Decimal) error) (arrow.Array, error) {
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	bld.Reserve(n)
	var d apd.Decimal
	var buf []byte
	for i := 0; i < n; i++ {
		if !validAt(validity, i) {
			bld.AppendNull()
			continue
		}
		if err := fill(i, &d); err != nil {
			return nil, err
		}
		buf = types.AppendNumeric(buf[:0], &d)
		bld.Append(buf)
	}
	storage := bld.NewArray()
	defer storage.Release()
	return types.NewNumericArray(storage), nil
}

// numericReaders reads the two operands of a binary numeric function,
// with the validity of the rows where both are non-NULL.
func numericReaders(l, r arrow.Array) (lr, rr numericReader, validity []byte, err error) {
	if lr, err = newNumericReader(l); err != nil {
		return lr, rr, nil, err
	}
	if rr, err = newNumericReader(r); err != nil {
		return lr, rr, nil, err
	}
	validity, _ = validity2(l, r)
	return lr, rr, validity, nil
}

// arithGeneral computes l op r into general numerics; either operand may
// be a decimal128 column.
func arithGeneral(op string, l, r arrow.Array) (arrow.Array, error) {
	lr, rr, validity, err := numericReaders(l, r)
	if err != nil {
		return nil, err
	}
	var x, y apd.Decimal
	return buildGeneral(l.Len(), validity, func(i int, d *apd.Decimal) error {
		lr.read(i, &x)
		rr.read(i, &y)
		switch op {
		case "+":
			types.NumericAdd(d, &x, &y, false)
		case "-":
			types.NumericAdd(d, &x, &y, true)
		case "*":
			types.NumericMul(d, &x, &y)
		case "/":
			return types.NumericDiv(d, &x, &y)
		case "%":
			return types.NumericMod(d, &x, &y)
		default:
			return fmt.Errorf("operator %s on numeric is not implemented", op)
		}
		return nil
	})
}

// negateGeneral is -x.
func negateGeneral(a arrow.Array) (arrow.Array, error) {
	rd, err := newNumericReader(a)
	if err != nil {
		return nil, err
	}
	validity, _ := validity1(a)
	return buildGeneral(a.Len(), validity, func(i int, d *apd.Decimal) error {
		rd.read(i, d)
		if d.Form != apd.NaN && !(d.Form == apd.Finite && d.Coeff.Sign() == 0) {
			d.Negative = !d.Negative
		}
		return nil
	})
}

// compareGeneral evaluates l op r where at least one side is general.
func compareGeneral(op string, l, r arrow.Array) (arrow.Array, error) {
	acc, ok := cmpAccept(op)
	if !ok {
		return nil, fmt.Errorf("unknown comparison %q", op)
	}
	n := l.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := validity2(l, r)
	lg, lok := l.(*types.NumericArray)
	rg, rok := r.(*types.NumericArray)
	switch {
	case lok && rok:
		lb, rb := lg.Storage().(*array.Binary), rg.Storage().(*array.Binary)
		for i := 0; i < n; i++ {
			if validAt(validity, i) && acc[types.CompareNumericBytes(lb.Value(i), rb.Value(i))+1] {
				bitutil.SetBit(bits, i)
			}
		}
	case rok:
		if err := compareFixedGeneral(l, rg, validity, bits, acc, false); err != nil {
			return nil, err
		}
	case lok:
		if err := compareFixedGeneral(r, lg, validity, bits, acc, true); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("general numeric comparison of %s and %s", l.DataType(), r.DataType())
	}
	return newBool(n, bits, validity, nulls), nil
}

// generalAtScale is a general numeric y seen from a decimal column of
// scale s: floor(y×10^s) and whether y lies strictly above it, or the
// side y falls on when it has no decimal128 form (±Infinity, NaN, too
// large), so that x cmp y is decided by x and at.
type generalAtScale struct {
	floor   decimal128.Num
	inexact bool
	// outside is -1 when y is below every decimal (-Infinity, a huge
	// negative), 1 when above (+Infinity, NaN, a huge positive), else 0.
	outside int
}

func newGeneralAtScale(b []byte, scale int32) generalAtScale {
	var y apd.Decimal
	types.DecodeNumeric(b, &y)
	switch {
	case y.Form == apd.Infinite && y.Negative:
		return generalAtScale{outside: -1}
	case y.Form != apd.Finite:
		return generalAtScale{outside: 1}
	}
	var t apd.Decimal
	types.NumericTrunc(&t, &y, scale)
	inexact := t.Cmp(&y) != 0
	if inexact && y.Negative {
		// floor, not truncation, for negative values.
		types.NumericAdd(&t, &t, apd.New(1, -scale), true)
	}
	if t.Coeff.BitLen() > 126 {
		if y.Negative {
			return generalAtScale{outside: -1}
		}
		return generalAtScale{outside: 1}
	}
	n, err := types.NumericToFixed(&t, types.Numeric(0, scale))
	if err != nil {
		if y.Negative {
			return generalAtScale{outside: -1}
		}
		return generalAtScale{outside: 1}
	}
	return generalAtScale{floor: n, inexact: inexact}
}

// cmp compares a decimal x (at the scale the value was built for) with y.
func (g generalAtScale) cmp(x decimal128.Num) int {
	if g.outside != 0 {
		return -g.outside
	}
	if c := x.Cmp(g.floor); c != 0 || !g.inexact {
		return c
	}
	return -1 // x = floor(y) < y
}

// selectDecimalGeneral selects the rows of a decimal column of scale
// scale that compare with a general constant k as op asks, in the
// column's fixed domain: k is brought to the scale once, and a k between
// two decimals of the scale (avg's 16 decimals against a price's 2)
// compares as the lower one with the boundary moved. ok is false for the
// cases left to the array comparison: equality with a k that has no
// exact form at the scale, and a k past every decimal (NaN, infinities).
func selectDecimalGeneral(vals []decimal128.Num, scale int32, k *apd.Decimal, op string, bm []byte, off int, rs rowSet, out []int32) ([]int32, bool) {
	var buf [32]byte
	g := newGeneralAtScale(types.AppendNumeric(buf[:0], k), scale)
	if g.outside != 0 {
		return out, false
	}
	if g.inexact {
		// floor(k) < k < floor(k)+1 unit: x > k ⇔ x > floor(k), x < k ⇔
		// x ≤ floor(k).
		switch op {
		case ">", ">=":
			op = ">"
		case "<", "<=":
			op = "<="
		default:
			return out, false
		}
	}
	acc, _ := cmpAccept(op)
	return selectDecimal(vals, g.floor, op, acc, bm, off, rs, out), true
}

// compareFixedGeneral compares a decimal column with general values
// exactly, without converting the column: each general value is brought
// to the column's scale once (and reused while it repeats, as a scalar
// subquery's does). flipped: the general value is the left operand.
func compareFixedGeneral(fixed arrow.Array, gen *types.NumericArray, validity, bits []byte, acc [3]bool, flipped bool) error {
	if !isDecimal(fixed.DataType().ID()) {
		return fmt.Errorf("numeric comparison of %s with a general numeric", fixed.DataType())
	}
	xs := decimalValues(fixed)
	scale := decimalScale(fixed)
	gb := gen.Storage().(*array.Binary)
	var last []byte
	var at generalAtScale
	for i, x := range xs {
		if !validAt(validity, i) {
			continue
		}
		if b := gb.Value(i); last == nil || string(b) != string(last) {
			last, at = b, newGeneralAtScale(b, scale)
		}
		c := at.cmp(x)
		if flipped {
			c = -c
		}
		if acc[c+1] {
			bitutil.SetBit(bits, i)
		}
	}
	return nil
}

// castGeneral converts to or from the general numeric.
func castGeneral(a arrow.Array, from, to types.T) (arrow.Array, error) {
	validity, nulls := validity1(a)
	n := a.Len()
	if to.IsGeneralNumeric() {
		switch from.Family() {
		case types.FamilyNumeric, types.FamilyInt:
			if from.IsGeneralNumeric() {
				a.Retain()
				return a, nil
			}
			rd, err := newNumericReader(a)
			if err != nil {
				return nil, err
			}
			return buildGeneral(n, validity, func(i int, d *apd.Decimal) error {
				rd.read(i, d)
				return nil
			})
		case types.FamilyFloat:
			fs := floatsOf(a)
			float4 := from.OID == types.OIDFloat4
			return buildGeneral(n, validity, func(i int, d *apd.Decimal) error {
				d.Set(types.NumericFromFloat64(fs[i], float4))
				return nil
			})
		case types.FamilyString, types.FamilyJSON, types.FamilyUnknown:
			s := a.(*array.String)
			return buildGeneral(n, validity, func(i int, d *apd.Decimal) error {
				return types.SetNumericText(d, s.Value(i))
			})
		}
		return nil, fmt.Errorf("cast from %s to %s is not implemented", from.Name(), to.Name())
	}
	rd, err := newNumericReader(a)
	if err != nil {
		return nil, err
	}
	var d apd.Decimal
	switch to.Family() {
	case types.FamilyString:
		return castToText(a, to)
	case types.FamilyNumeric:
		out := make([]decimal128.Num, n)
		for i := range out {
			if validAt(validity, i) {
				rd.read(i, &d)
				if out[i], err = types.NumericToFixed(&d, to); err != nil {
					return nil, err
				}
			}
		}
		return newDecimal(to.Arrow(), out, validity, nulls), nil
	case types.FamilyInt:
		ints := make([]int64, n)
		for i := range ints {
			if validAt(validity, i) {
				rd.read(i, &d)
				if ints[i], err = types.NumericToInt64(&d, to); err != nil {
					return nil, err
				}
			}
		}
		return intsTo(ints, to, validity, nulls), nil
	case types.FamilyFloat:
		fs := make([]float64, n)
		for i := range fs {
			if validAt(validity, i) {
				rd.read(i, &d)
				fs[i] = types.NumericToFloat64(&d)
			}
		}
		if to.OID == types.OIDFloat4 {
			f32 := make([]float32, n)
			for i, f := range fs {
				if validAt(validity, i) && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
					return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
				}
				f32[i] = float32(f)
			}
			return newFixed(to.Arrow(), f32, validity, nulls), nil
		}
		return newFixed(to.Arrow(), fs, validity, nulls), nil
	}
	return nil, fmt.Errorf("cast from %s to %s is not implemented", from.Name(), to.Name())
}

// generalUnary applies f to each value of a numeric column, giving
// general numerics.
func generalUnary(a arrow.Array, f func(d, x *apd.Decimal)) (arrow.Array, error) {
	rd, err := newNumericReader(a)
	if err != nil {
		return nil, err
	}
	validity, _ := validity1(a)
	var x apd.Decimal
	return buildGeneral(a.Len(), validity, func(i int, d *apd.Decimal) error {
		rd.read(i, &x)
		f(d, &x)
		return nil
	})
}

// generalNumericKernel is the kernel of a numeric function over general
// numerics, when one of its arguments is general (or, for the functions
// whose result scale PostgreSQL picks per value, its result is).
func generalNumericKernel(name string, argTypes []types.T, res types.T) (scalarKernel, bool) {
	general := res.IsGeneralNumeric()
	for _, t := range argTypes {
		general = general || t.IsGeneralNumeric()
	}
	if !general || len(argTypes) == 0 || argTypes[0].Family() != types.FamilyNumeric {
		return nil, false
	}
	switch name {
	case "abs":
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			return generalUnary(args[0], func(d, x *apd.Decimal) {
				d.Set(x)
				d.Negative = false
			})
		}, true
	case "sign":
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			return generalUnary(args[0], func(d, x *apd.Decimal) {
				switch {
				case x.Form == apd.NaN:
					d.Set(x)
				case x.Form == apd.Finite && x.Coeff.Sign() == 0:
					d.SetInt64(0)
				case x.Negative:
					d.SetInt64(-1)
				default:
					d.SetInt64(1)
				}
			})
		}, true
	case "ceil", "ceiling", "floor":
		ceil := name != "floor"
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			return generalUnary(args[0], func(d, x *apd.Decimal) { types.NumericCeilFloor(d, x, ceil) })
		}, true
	case "trim_scale":
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			return generalUnary(args[0], types.NumericTrimScale)
		}, true
	case "numeric_inc":
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			one := apd.New(1, 0)
			return generalUnary(args[0], func(d, x *apd.Decimal) { types.NumericAdd(d, x, one, false) })
		}, true
	case "round", "trunc":
		round := name == "round"
		return func(args []arrow.Array, res types.T) (arrow.Array, error) {
			if len(args) == 1 {
				return generalUnary(args[0], func(d, x *apd.Decimal) {
					if round {
						types.NumericRound(d, x, 0)
					} else {
						types.NumericTrunc(d, x, 0)
					}
				})
			}
			rd, err := newNumericReader(args[0])
			if err != nil {
				return nil, err
			}
			digits := intsOf(args[1])
			validity, _ := validity2(args[0], args[1])
			var x apd.Decimal
			return buildGeneral(args[0].Len(), validity, func(i int, d *apd.Decimal) error {
				rd.read(i, &x)
				s := int32(max(min(digits[i], types.NumericMaxDisplayScaleStored), -numericMaxResultScale))
				if round {
					types.NumericRound(d, &x, s)
				} else {
					types.NumericTrunc(d, &x, s)
				}
				return nil
			})
		}, true
	case "mod":
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) { return arithGeneral("%", args[0], args[1]) }, true
	case "div", "gcd", "lcm", "log":
		if len(argTypes) != 2 {
			return nil, false
		}
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) { return generalBinary(name, args[0], args[1]) }, true
	case "scale", "min_scale":
		minScale := name == "min_scale"
		return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
			rd, err := newNumericReader(args[0])
			if err != nil {
				return nil, err
			}
			validity, nulls := validity1(args[0])
			out := make([]int32, args[0].Len())
			var x apd.Decimal
			for i := range out {
				if !validAt(validity, i) {
					continue
				}
				rd.read(i, &x)
				if x.Form != apd.Finite {
					// PostgreSQL's scale of NaN and Infinity is NULL.
					validity = allValid(validity, len(out))
					bitutil.ClearBit(validity, i)
					nulls++
					continue
				}
				if minScale {
					out[i] = types.NumericMinScale(&x)
				} else {
					out[i] = types.NumericDisplayScale(&x)
				}
			}
			return newFixed(arrow.PrimitiveTypes.Int32, out, validity, nulls), nil
		}, true
	}
	return nil, false
}

// numericMaxResultScale bounds a negative scale argument of round and
// trunc: past it every value rounds to zero. A positive one is bounded
// by the largest display scale, as PostgreSQL bounds it.
const numericMaxResultScale = 2000

// allValid is a validity bitmap of n valid rows when v is nil.
func allValid(v []byte, n int) []byte {
	if v != nil {
		return v
	}
	v = make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		bitutil.SetBit(v, i)
	}
	return v
}

// powerSpecial is x ^ y when either is NaN or an infinity, by POSIX
// pow()'s rules as numeric_power follows them.
func powerSpecial(d, x, y *apd.Decimal) error {
	one := apd.New(1, 0)
	isOne := func(v *apd.Decimal) bool { return v.Form == apd.Finite && v.Cmp(one) == 0 }
	sign := func(v *apd.Decimal) int {
		switch {
		case v.Form == apd.Finite && v.Coeff.Sign() == 0:
			return 0
		case v.Negative:
			return -1
		}
		return 1
	}
	switch {
	case x.Form == apd.NaN:
		if y.Form == apd.Finite && sign(y) == 0 {
			d.Set(one)
		} else {
			d.Set(types.NumericNaN())
		}
		return nil
	case y.Form == apd.NaN:
		if isOne(x) {
			d.Set(one)
		} else {
			d.Set(types.NumericNaN())
		}
		return nil
	}
	sx, sy := sign(x), sign(y)
	if sx == 0 && sy < 0 {
		return pgerror.New(pgerror.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	}
	// The infinities count as integers here, as numeric_is_integral has it.
	integral := y.Form == apd.Infinite || types.NumericMinScale(y) == 0
	if sx < 0 && !integral {
		return pgerror.New(pgerror.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	}
	if isOne(x) || sy == 0 {
		d.Set(one)
		return nil
	}
	if y.Form == apd.Infinite {
		absGtOne := true
		if x.Form == apd.Finite {
			if x.Negative && x.Cmp(apd.New(-1, 0)) == 0 {
				d.Set(one)
				return nil
			}
			var a apd.Decimal
			a.Abs(x)
			absGtOne = a.Cmp(one) > 0
		}
		if absGtOne == (sy > 0) {
			d.Set(types.NumericInf(false))
		} else {
			d.SetInt64(0)
		}
		return nil
	}
	if !x.Negative { // +Infinity
		if sy > 0 {
			d.Set(types.NumericInf(false))
		} else {
			d.SetInt64(0)
		}
		return nil
	}
	// -Infinity: an odd integer power keeps the sign.
	if sy > 0 {
		var r apd.Decimal
		odd := y.Form == apd.Finite && types.NumericMod(&r, y, apd.New(2, 0)) == nil && r.Coeff.Sign() != 0
		d.Set(types.NumericInf(odd))
		return nil
	}
	d.SetInt64(0)
	return nil
}

// generalBinary computes div, gcd, lcm or log(b, x) of two numeric
// columns into general numerics.
func generalBinary(name string, l, r arrow.Array) (arrow.Array, error) {
	lr, rr, validity, err := numericReaders(l, r)
	if err != nil {
		return nil, err
	}
	var ln2 *big.Float
	if name == "log" {
		ln2 = ln2Float()
	}
	var x, y apd.Decimal
	return buildGeneral(l.Len(), validity, func(i int, d *apd.Decimal) error {
		lr.read(i, &x)
		rr.read(i, &y)
		switch name {
		case "div":
			return types.NumericDivTrunc(d, &x, &y)
		case "gcd", "lcm":
			types.NumericGCD(d, &x, &y, name == "lcm")
			return nil
		}
		return numericLog(d, &x, &y, ln2)
	})
}

// numericLog is log(b, x) as numeric_log computes it: ln(x)/ln(b) at
// log_var's scale.
func numericLog(d, b, x *apd.Decimal, ln2 *big.Float) error {
	if b.Form != apd.Finite || x.Form != apd.Finite {
		switch {
		case b.Form == apd.NaN || x.Form == apd.NaN:
			d.Set(types.NumericNaN())
			return nil
		case b.Negative || x.Negative:
			return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
		case b.Form == apd.Finite && b.Coeff.Sign() == 0, x.Form == apd.Finite && x.Coeff.Sign() == 0:
			return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
		case b.Form == apd.Infinite && x.Form == apd.Infinite:
			d.Set(types.NumericNaN())
		case b.Form == apd.Infinite:
			d.SetInt64(0)
		default:
			d.Set(types.NumericInf(false))
		}
		return nil
	}
	for _, v := range []*apd.Decimal{b, x} {
		switch {
		case v.Coeff.Sign() == 0:
			return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
		case v.Negative:
			return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
		}
	}
	bm, bs := scaledBig(b)
	xm, xs := scaledBig(x)
	lnb := lnFloat(decimalFloat(bm, bs), ln2)
	if lnb.Sign() == 0 {
		return errDivisionByZero()
	}
	r := lnFloat(decimalFloat(xm, xs), ln2)
	r.Quo(r, lnb)
	neg := r.Sign() < 0
	roundFloat(r.Abs(r), neg, types.NumericLogScale(bm, bs, xm, xs)).set(d)
	return nil
}
