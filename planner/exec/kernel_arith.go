package exec

import (
	"fmt"
	"math"
	"math/big"

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
			if b == 0 {
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
			if b == 0 {
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
		if f == 0 && a != 0 && b != 0 && op == "*" {
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
func arithDecimal(op string, l, r arrow.Array, validity []byte, nulls int, res types.T) (arrow.Array, error) {
	lv, rv := values[decimal128.Num](l), values[decimal128.Num](r)
	ls, rs := decimalScale(l), decimalScale(r)
	out := make([]decimal128.Num, len(lv))
	for i := range lv {
		if !validAt(validity, i) {
			continue
		}
		var v decimal128.Num
		switch op {
		case "+", "-", "%":
			a, b := alignDecimal(lv[i], ls, rv[i], rs)
			s := max(ls, rs)
			switch op {
			case "+":
				v = a.Add(b)
			case "-":
				v = a.Sub(b)
			case "%":
				if b.Sign() == 0 {
					return nil, errDivisionByZero()
				}
				_, v = a.Div(b)
			}
			var ok bool
			if v, ok = types.Rescale(v, s, res.Scale); !ok {
				return nil, errNumericOverflow()
			}
		case "*":
			p := new(big.Int).Mul(lv[i].BigInt(), rv[i].BigInt())
			var ok bool
			if v, ok = types.RoundBig(p, ls+rs, res.Scale); !ok {
				return nil, errNumericOverflow()
			}
		case "/":
			if rv[i].Sign() == 0 {
				return nil, errDivisionByZero()
			}
			// a/b at scale s: (a * 10^(s - ls + rs)) / b, rounded.
			num := lv[i].BigInt()
			shift := res.Scale - ls + rs
			num.Mul(num, types.Pow10(shift))
			var ok bool
			if v, ok = types.DivRound(num, rv[i].BigInt()); !ok {
				return nil, errNumericOverflow()
			}
		default:
			return nil, fmt.Errorf("unknown operator %q", op)
		}
		if !v.FitsInPrecision(types.MaxNumericPrecision) {
			return nil, errNumericOverflow()
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

// negate evaluates unary minus.
func negate(a arrow.Array, res types.T) (arrow.Array, error) {
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
