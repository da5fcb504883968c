package exec

import (
	"fmt"
	"math"

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
	case arrow.DECIMAL128:
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
	lv, rv := values[decimal128.Num](l), values[decimal128.Num](r)
	ls, rs := decimalScale(l), decimalScale(r)
	var err error
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
	return newFixed(res.Arrow(), out, validity, nulls), nil
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
