package exec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// div, gcd, lcm and factorial: integer functions, with the numeric form
// of div.

// intPairKernel is div, gcd or lcm, by name: of numerics (numericDiv) or
// of integers (intPairFunction).
func intPairKernel(name string) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if res.OID == types.OIDNumeric {
			return numericDiv(args, res)
		}
		return rowKernel(func(v []any) (any, error) {
			r, err := intPairFunction(name, v[0].(int64), v[1].(int64))
			// int4 results come out of int8 arithmetic: gcd(0,
			// INT_MIN) and lcm can leave the int4 range.
			if n, ok := r.(int64); ok && res.OID == types.OIDInt4 && (n > math.MaxInt32 || n < math.MinInt32) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
			}
			return r, err
		})(args, res)
	}
}

// intPairFunction is div (integer quotient, toward zero), gcd and lcm,
// with PostgreSQL's errors.
func intPairFunction(name string, a, b int64) (any, error) {
	switch name {
	case "div":
		if b == 0 {
			return nil, errDivisionByZero()
		}
		if a == math.MinInt64 && b == -1 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
		}
		return a / b, nil
	case "gcd":
		g, ok := gcd(a, b)
		if !ok {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
		}
		return g, nil
	}
	if a == 0 || b == 0 {
		return int64(0), nil
	}
	g, ok := gcd(a, b)
	if !ok {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	l := a / g * b
	if l/b != a/g || l == math.MinInt64 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	if l < 0 {
		l = -l
	}
	return l, nil
}

func gcd(a, b int64) (int64, bool) {
	for b != 0 {
		a, b = b, a%b
	}
	if a == math.MinInt64 {
		return 0, false
	}
	if a < 0 {
		a = -a
	}
	return a, true
}

// numericDiv is div(numeric, numeric): the quotient truncated toward
// zero, as an integral numeric.
func numericDiv(args []arrow.Array, res types.T) (arrow.Array, error) {
	return divideDecimalPairs(args, res, func(q, _ decimal128.Num, _ int32) (decimal128.Num, bool) {
		return types.Rescale(q, 0, res.Scale)
	})
}

// divideDecimalPairs divides two numeric columns row by row, their
// scales aligned, and keeps what pick takes from the integer quotient
// and the remainder (at the aligned scale): div's quotient or mod's
// remainder.
func divideDecimalPairs(args []arrow.Array, res types.T, pick func(q, rem decimal128.Num, scale int32) (decimal128.Num, bool)) (arrow.Array, error) {
	l, r := decimalValues(args[0]), decimalValues(args[1])
	ls, rs := decimalScale(args[0]), decimalScale(args[1])
	validity, nulls := validity2(args[0], args[1])
	out := make([]decimal128.Num, len(l))
	for i := range l {
		if !validAt(validity, i) {
			continue
		}
		a, b := alignDecimal(l[i], ls, r[i], rs)
		if b.Sign() == 0 {
			return nil, errDivisionByZero()
		}
		q, rem := a.Div(b)
		v, ok := pick(q, rem, max(ls, rs))
		if !ok {
			return nil, errNumericOverflow()
		}
		out[i] = v
	}
	return newDecimal(res.Arrow(), out, validity, nulls), nil
}

// factorial is factorial(n) as an integral numeric; past 33! the value
// does not fit SQE's 38-digit numeric.
func factorial(v []any) (any, error) {
	n := v[0].(int64)
	if n < 0 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "factorial of a negative number is undefined")
	}
	f := decimal128.FromI64(1)
	for k := int64(2); k <= n; k++ {
		if k > 33 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		f = f.Mul(decimal128.FromI64(k))
	}
	return f, nil
}
