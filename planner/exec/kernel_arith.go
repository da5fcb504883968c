package exec

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

func errDivisionByZero() error { return pgerror.New(pgerror.DivisionByZero, "division by zero") }

func errIntOverflow(t types.T) error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "%s out of range", t.Name())
}

// arith evaluates l op r where both have the operator's argument type and
// the result has type res. Errors are raised only for rows where both
// inputs are valid.
func arith(op string, l, r arrow.Array, res types.T) (arrow.Array, error) {
	validity, nulls := validity2(l, r)
	switch l.DataType().ID() {
	case arrow.INT16:
		return arithInt(op, values[int16](l), values[int16](r), validity, nulls, res, math.MinInt16, math.MaxInt16)
	case arrow.INT32:
		return arithInt(op, values[int32](l), values[int32](r), validity, nulls, res, math.MinInt32, math.MaxInt32)
	case arrow.INT64:
		return arithInt64(op, values[int64](l), values[int64](r), validity, nulls, res)
	case arrow.FLOAT32:
		return arithFloat(op, values[float32](l), values[float32](r), validity, nulls, res)
	case arrow.FLOAT64:
		return arithFloat(op, values[float64](l), values[float64](r), validity, nulls, res)
	case arrow.DECIMAL128, arrow.DECIMAL64:
		return arithDecimal(op, l, r, validity, nulls, res)
	}
	return nil, fmt.Errorf("arithmetic on %s is not implemented", l.DataType())
}

// arithInt computes narrow integers in int64 and checks the result's range.
func arithInt[T int16 | int32](op string, l, r []T, validity []byte, nulls int, res types.T, lo, hi int64) (arrow.Array, error) {
	out := make([]T, len(l))
	for i := range l {
		if !validAt(validity, i) {
			continue
		}
		a, b := int64(l[i]), int64(r[i])
		var v int64
		switch op {
		case "+":
			v = a + b
		case "-":
			v = a - b
		case "*":
			v = a * b
		case "/":
			// NaN divided by zero is NaN, as in PostgreSQL's float8_div.
			if b == 0 && a == a {
				return nil, errDivisionByZero()
			}
			v = a / b
		case "%":
			if b == 0 {
				return nil, errDivisionByZero()
			}
			v = a % b
		default:
			return nil, fmt.Errorf("unknown operator %q", op)
		}
		if v < lo || v > hi {
			return nil, errIntOverflow(res)
		}
		out[i] = T(v)
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

func arithInt64(op string, l, r []int64, validity []byte, nulls int, res types.T) (arrow.Array, error) {
	out := make([]int64, len(l))
	for i := range l {
		if !validAt(validity, i) {
			continue
		}
		a, b := l[i], r[i]
		var v int64
		switch op {
		case "+":
			v = a + b
			if (a > 0 && b > 0 && v < 0) || (a < 0 && b < 0 && v >= 0) {
				return nil, errIntOverflow(res)
			}
		case "-":
			v = a - b
			if (a >= 0 && b < 0 && v < 0) || (a < 0 && b > 0 && v >= 0) {
				return nil, errIntOverflow(res)
			}
		case "*":
			v = a * b
			if a != 0 && (v/a != b || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64)) {
				return nil, errIntOverflow(res)
			}
		case "/", "%":
			if b == 0 {
				return nil, errDivisionByZero()
			}
			if b == -1 {
				if op == "%" {
					v = 0
					break
				}
				if a == math.MinInt64 {
					return nil, errIntOverflow(res)
				}
				v = -a
				break
			}
			if op == "/" {
				v = a / b
			} else {
				v = a % b
			}
		default:
			return nil, fmt.Errorf("unknown operator %q", op)
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

func arithFloat[T float32 | float64](op string, l, r []T, validity []byte, nulls int, res types.T) (arrow.Array, error) {
	out := make([]T, len(l))
	for i := range l {
		if !validAt(validity, i) {
			continue
		}
		a, b := l[i], r[i]
		var v T
		switch op {
		case "+":
			v = a + b
		case "-":
			v = a - b
		case "*":
			v = a * b
		case "/":
			// NaN divided by zero is NaN, as in PostgreSQL's float8_div.
			if b == 0 && a == a {
				return nil, errDivisionByZero()
			}
			v = a / b
		case "%":
			return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: %s %% %s", res.Name(), res.Name())
		default:
			return nil, fmt.Errorf("unknown operator %q", op)
		}
		f := float64(v)
		if math.IsInf(f, 0) && !math.IsInf(float64(a), 0) && !math.IsInf(float64(b), 0) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
		}
		if f == 0 && a != 0 && (op == "*" && b != 0 || op == "/" && !math.IsInf(float64(b), 0)) {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

func errNumericOverflow() error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
}

// arithDecimal computes on decimal128 values at the result type's scale.
// The operator is chosen once per batch; each loop works on the values
// in place and allocates only the output.
func arithDecimal(op string, l, r arrow.Array, validity []byte, nulls int, res types.T) (arrow.Array, error) {
	return arithDecimalInto(op, l, r, validity, nulls, res, make([]decimal128.Num, l.Len()))
}

// arithDecimalInto is arithDecimal writing into out (l.Len() values),
// which the result array wraps.
func arithDecimalInto(op string, l, r arrow.Array, validity []byte, nulls int, res types.T, out []decimal128.Num) (arrow.Array, error) {
	ls, rs := decimalScale(l), decimalScale(r)
	if done, err := arithDecimal64(op, l, r, ls, rs, out, validity, res.Scale); done || err != nil {
		if err != nil {
			return nil, err
		}
		return newDecimal(res.Arrow(), out, validity, nulls), nil
	}
	var err error
	lv, rv := decimalValues(l), decimalValues(r)
	switch op {
	case "+", "-":
		err = addDecimals(op == "-", lv, rv, ls, rs, out, validity, res.Scale)
	case "*":
		err = mulDecimals(lv, rv, ls, rs, out, validity, res.Scale)
	case "%":
		err = decimalRows(lv, rv, out, validity, func(a, b decimal128.Num) (decimal128.Num, error) {
			a, b = alignDecimal(a, ls, b, rs)
			if b.Sign() == 0 {
				return decimal128.Num{}, errDivisionByZero()
			}
			v, ok := rescaleDecimal(modDecimal(a, b), max(ls, rs), res.Scale)
			if !ok {
				return v, errNumericOverflow()
			}
			return v, nil
		})
	case "/":
		err = decimalRows(lv, rv, out, validity, func(a, b decimal128.Num) (decimal128.Num, error) {
			if b.Sign() == 0 {
				return decimal128.Num{}, errDivisionByZero()
			}
			// a/b at scale s: (a * 10^(s - ls + rs)) / b, rounded.
			v, ok := divDecimal(a, b, res.Scale-ls+rs)
			if !ok {
				return v, errNumericOverflow()
			}
			return v, nil
		})
	default:
		return nil, fmt.Errorf("unknown operator %q", op)
	}
	if err != nil {
		return nil, err
	}
	return newDecimal(res.Arrow(), out, validity, nulls), nil
}

// arithDecimal64 computes + - * when an operand is a decimal64 column,
// reading its values in place (a decimal128 operand beside it is read as
// it is): done is false for other operators and operand widths, which
// take the 128-bit loops.
func arithDecimal64(op string, l, r arrow.Array, ls, rs int32, out []decimal128.Num, validity []byte, to int32) (done bool, err error) {
	l64, r64 := l.DataType().ID() == arrow.DECIMAL64, r.DataType().ID() == arrow.DECIMAL64
	if (!l64 && !r64) || (op != "+" && op != "-" && op != "*") {
		return false, nil
	}
	switch {
	case l64 && r64 && op == "*":
		return true, mulDecimals64(values[int64](l), values[int64](r), ls, rs, out, validity, to)
	case l64 && r64:
		return true, addDecimals64(op == "-", values[int64](l), values[int64](r), ls, rs, out, validity, to)
	case op == "*" && l64:
		return true, mulDecimalsMixed(values[int64](l), values[decimal128.Num](r), ls, rs, out, validity, to)
	case op == "*":
		return true, mulDecimalsMixed(values[int64](r), values[decimal128.Num](l), rs, ls, out, validity, to)
	case l64:
		return true, addDecimalsMixed(op == "-", false, values[int64](l), values[decimal128.Num](r), ls, rs, out, validity, to)
	}
	return true, addDecimalsMixed(op == "-", true, values[int64](r), values[decimal128.Num](l), rs, ls, out, validity, to)
}

// addDecimals64 is addDecimals of 64-bit operands: a row whose operands
// or sum leave 64 bits at the common scale takes the 128-bit path.
func addDecimals64(sub bool, lv, rv []int64, ls, rs int32, out []decimal128.Num, validity []byte, to int32) error {
	s := max(ls, rs)
	lm, lok := pow10i64(s - ls)
	rm, rok := pow10i64(s - rs)
	fast := lok && rok && to == s
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if v, ok := addScaledInt64(lv[i], rv[i], lm, rm, sub); ok {
				out[i] = decimal128.FromI64(v)
				continue
			}
		}
		if err := addDecimalRow(sub, decimal128.FromI64(lv[i]), decimal128.FromI64(rv[i]), ls, rs, &out[i], to); err != nil {
			return err
		}
	}
	return nil
}

// addDecimalsMixed is addDecimals of a 64-bit operand a (scale as) and a
// 128-bit one b (scale bs): a ± b, or b ± a when swapped.
func addDecimalsMixed(sub, swapped bool, a []int64, b []decimal128.Num, as, bs int32, out []decimal128.Num, validity []byte, to int32) error {
	s := max(as, bs)
	am, aok := pow10i64(s - as)
	bm, bok := pow10i64(s - bs)
	fast := aok && bok && to == s
	for i := range a {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if y, ok := int64Of(b[i]); ok {
				x, xm, ym := a[i], am, bm
				if swapped {
					x, y, xm, ym = y, x, bm, am
				}
				if v, ok := addScaledInt64(x, y, xm, ym, sub); ok {
					out[i] = decimal128.FromI64(v)
					continue
				}
			}
		}
		x, y, xs, ys := decimal128.FromI64(a[i]), b[i], as, bs
		if swapped {
			x, y, xs, ys = y, x, bs, as
		}
		if err := addDecimalRow(sub, x, y, xs, ys, &out[i], to); err != nil {
			return err
		}
	}
	return nil
}

// addDecimalRow is addDecimals of one row, for a row the 64-bit loops
// leave to the 128-bit path.
func addDecimalRow(sub bool, a, b decimal128.Num, as, bs int32, out *decimal128.Num, to int32) error {
	return addDecimals(sub, []decimal128.Num{a}, []decimal128.Num{b}, as, bs, unsafe.Slice(out, 1), nil, to)
}

// mulDecimals64 is mulDecimals of 64-bit operands.
func mulDecimals64(lv, rv []int64, ls, rs int32, out []decimal128.Num, validity []byte, to int32) error {
	fast := to == ls+rs
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if v, ok := mulInt64(lv[i], rv[i]); ok {
				out[i] = decimal128.FromI64(v)
				continue
			}
		}
		if err := mulDecimalRow(decimal128.FromI64(lv[i]), decimal128.FromI64(rv[i]), ls, rs, &out[i], to); err != nil {
			return err
		}
	}
	return nil
}

// mulDecimalsMixed is mulDecimals of a 64-bit operand a (scale as) and a
// 128-bit one b (scale bs), in either order: the product commutes.
func mulDecimalsMixed(a []int64, b []decimal128.Num, as, bs int32, out []decimal128.Num, validity []byte, to int32) error {
	fast := to == as+bs
	for i := range a {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if y, ok := int64Of(b[i]); ok {
				if v, ok := mulInt64(a[i], y); ok {
					out[i] = decimal128.FromI64(v)
					continue
				}
			}
		}
		if err := mulDecimalRow(decimal128.FromI64(a[i]), b[i], as, bs, &out[i], to); err != nil {
			return err
		}
	}
	return nil
}

// mulDecimalRow is one row of mulDecimals' 128-bit path.
func mulDecimalRow(a, b decimal128.Num, as, bs int32, out *decimal128.Num, to int32) error {
	v, ok := mulDecimal(a, b, as, bs, to)
	if !ok || !v.FitsInPrecision(types.MaxNumericPrecision) {
		return errNumericOverflow()
	}
	*out = v
	return nil
}

// addDecimals computes l+r (or l-r) row by row at scale to. Operands
// and sums that fit in 64 bits are computed there (the result scale is
// the operands' larger scale, so no rounding); any other row takes the
// 128-bit path.
func addDecimals(sub bool, lv, rv []decimal128.Num, ls, rs int32, out []decimal128.Num, validity []byte, to int32) error {
	s := max(ls, rs)
	lm, lok := pow10i64(s - ls)
	rm, rok := pow10i64(s - rs)
	fast := lok && rok && to == s
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if v, ok := addScaled64(lv[i], rv[i], lm, rm, sub); ok {
				out[i] = decimal128.FromI64(v)
				continue
			}
		}
		a, aok := rescaleDecimal(lv[i], ls, s)
		b, bok := rescaleDecimal(rv[i], rs, s)
		if sub {
			b = b.Negate()
		}
		v := a.Add(b)
		ok := true
		if !aok || !bok || addOverflowed(a, b, v) {
			// Past 128 bits at the common scale: exactly, through
			// math/big.
			x, y := lv[i].BigInt(), rv[i].BigInt()
			x.Mul(x, types.Pow10(s-ls))
			y.Mul(y, types.Pow10(s-rs))
			if sub {
				x.Sub(x, y)
			} else {
				x.Add(x, y)
			}
			v, ok = types.RoundBig(x, s, to)
		} else {
			v, ok = rescaleDecimal(v, s, to)
		}
		if !ok || !v.FitsInPrecision(types.MaxNumericPrecision) {
			return errNumericOverflow()
		}
		out[i] = v
	}
	return nil
}

// mulDecimals computes l*r row by row at scale to. When to is the sum
// of the scales (the binder's rule, unless capped), a product of 64-bit
// operands that fits in 64 bits needs no rounding and is computed there;
// any other row takes the 128-bit path.
func mulDecimals(lv, rv []decimal128.Num, ls, rs int32, out []decimal128.Num, validity []byte, to int32) error {
	fast := to == ls+rs
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		if fast {
			if v, ok := mul64(lv[i], rv[i]); ok {
				out[i] = decimal128.FromI64(v)
				continue
			}
		}
		v, ok := mulDecimal(lv[i], rv[i], ls, rs, to)
		if !ok || !v.FitsInPrecision(types.MaxNumericPrecision) {
			return errNumericOverflow()
		}
		out[i] = v
	}
	return nil
}

// decimalRows applies fn to each valid row: for the operators (/, %)
// whose cost is the division itself.
func decimalRows(lv, rv, out []decimal128.Num, validity []byte, fn func(a, b decimal128.Num) (decimal128.Num, error)) error {
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		v, err := fn(lv[i], rv[i])
		if err != nil {
			return err
		}
		if !v.FitsInPrecision(types.MaxNumericPrecision) {
			return errNumericOverflow()
		}
		out[i] = v
	}
	return nil
}

// negate evaluates unary minus.
func negate(a arrow.Array, res types.T) (arrow.Array, error) {
	if isGeneralArray(a) {
		return negateGeneral(a)
	}
	validity, nulls := validity1(a)
	switch a.DataType().ID() {
	case arrow.INT16:
		return negInt(values[int16](a), validity, nulls, res, math.MinInt16)
	case arrow.INT32:
		return negInt(values[int32](a), validity, nulls, res, math.MinInt32)
	case arrow.INT64:
		return negInt(values[int64](a), validity, nulls, res, math.MinInt64)
	case arrow.FLOAT32:
		return negFloat(values[float32](a), validity, nulls, res), nil
	case arrow.FLOAT64:
		return negFloat(values[float64](a), validity, nulls, res), nil
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return negateIntervals(a)
	case arrow.DECIMAL128:
		in := values[decimal128.Num](a)
		out := make([]decimal128.Num, len(in))
		for i, v := range in {
			out[i] = v.Negate()
		}
		return newFixed(a.DataType(), out, validity, nulls), nil
	case arrow.DECIMAL64:
		// Precision 18 holds its negation: -(10^18 - 1) is in range.
		in := values[int64](a)
		out := make([]int64, len(in))
		for i, v := range in {
			out[i] = -v
		}
		return newFixed(a.DataType(), out, validity, nulls), nil
	}
	return nil, fmt.Errorf("negation of %s is not implemented", a.DataType())
}

func negInt[T int16 | int32 | int64](in []T, validity []byte, nulls int, res types.T, minVal T) (arrow.Array, error) {
	out := make([]T, len(in))
	for i, v := range in {
		if v == minVal && validAt(validity, i) {
			return nil, errIntOverflow(res)
		}
		out[i] = -v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

func negFloat[T float32 | float64](in []T, validity []byte, nulls int, res types.T) arrow.Array {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = -v
	}
	return newFixed(res.Arrow(), out, validity, nulls)
}

// int4IncKernel is int4inc(integer): the value plus one, failing with
// 22003 past the integer range.
func int4IncKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in := values[int32](args[0])
	validity, nulls := validity1(args[0])
	out := make([]int32, len(in))
	for i, v := range in {
		if !validAt(validity, i) {
			continue
		}
		if v == math.MaxInt32 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
		}
		out[i] = v + 1
	}
	return newFixed(arrow.PrimitiveTypes.Int32, out, validity, nulls), nil
}
