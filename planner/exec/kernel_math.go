package exec

import (
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// sqrtKernel is sqrt of float8, or of numeric to PostgreSQL's scale.
func sqrtKernel() scalarKernel {
	return numericOrFloat("sqrt", float1(func(x float64) (float64, error) {
		if x < 0 {
			return 0, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return math.Sqrt(x), nil
	}))
}

// expKernel is exp of float8 or numeric.
func expKernel() scalarKernel {
	return numericOrFloat("exp", float1(func(x float64) (float64, error) { return checkFloat(math.Exp(x), x) }))
}

// lnKernel is ln of float8 or numeric.
func lnKernel() scalarKernel {
	return numericOrFloat("ln", float1(func(x float64) (float64, error) {
		if err := logDomain(x); err != nil {
			return 0, err
		}
		return math.Log(x), nil
	}))
}

// floatKernel applies f to a float8 column.
func floatKernel(f func(float64) float64) scalarKernel {
	return float1(func(x float64) (float64, error) { return f(x), nil })
}

// atan2Kernel is atan2(y, x) in radians.
func atan2Kernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return math.Atan2(v[0].(float64), v[1].(float64)), nil })
}

// degreesKernel is degrees(float8), which fails when a finite angle
// overflows.
func degreesKernel() scalarKernel {
	return float1(func(x float64) (float64, error) { return checkFloat(x/radiansPerDegree, x) })
}

// acoshKernel is acosh, defined from 1 on.
func acoshKernel() scalarKernel {
	return float1(func(x float64) (float64, error) {
		if x < 1 {
			return 0, errInputOutOfRange()
		}
		return math.Acosh(x), nil
	})
}

// atanhKernel is atanh, defined on [-1, 1].
func atanhKernel() scalarKernel {
	return float1(func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputOutOfRange()
		}
		return math.Atanh(x), nil
	})
}

// powerKernel is power of numerics (numericPowerKernel) or of float8.
func powerKernel() scalarKernel {
	float := float2(power)
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if res.OID == types.OIDNumeric {
			return numericPowerKernel(args, res)
		}
		return float(args, res)
	}
}

// float1 applies f to each non-null value of a float8 column.
func float1(f func(float64) (float64, error)) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		in := values[float64](args[0])
		validity, nulls := validity1(args[0])
		out := make([]float64, len(in))
		for i, x := range in {
			if !validAt(validity, i) {
				continue
			}
			v, err := f(x)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return newFixed(arrow.PrimitiveTypes.Float64, out, validity, nulls), nil
	}
}

// checkFloat reports a finite input whose result overflowed, as
// PostgreSQL's float8 functions do.
func checkFloat(v, in float64) (float64, error) {
	if math.IsInf(v, 0) && !math.IsInf(in, 0) {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
	}
	return v, nil
}

func logDomain(x float64) error {
	switch {
	case x == 0:
		return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
	case x < 0:
		return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
	}
	return nil
}

// logKernel is log(x) (base 10) and log(b, x).
func logKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if len(args) == 1 {
		return float1(func(x float64) (float64, error) {
			if err := logDomain(x); err != nil {
				return 0, err
			}
			return math.Log10(x), nil
		})(args, res)
	}
	return rowKernel(func(v []any) (any, error) {
		b, x := v[0].(float64), v[1].(float64)
		if err := logDomain(b); err != nil {
			return nil, err
		}
		if err := logDomain(x); err != nil {
			return nil, err
		}
		if b == 1 {
			return nil, pgerror.New(pgerror.DivisionByZero, "division by zero")
		}
		n, err := decimal128.FromFloat64(math.Log(x)/math.Log(b), types.MaxNumericPrecision, res.Scale)
		if err != nil {
			return nil, errNumericOverflow()
		}
		return n, nil
	})(args, res)
}

// power is PostgreSQL's float8 pow with its domain errors.
// power is PostgreSQL's dpow: NaN ^ 0 and 1 ^ NaN are 1, other NaN
// inputs give NaN; a negative base needs an integral exponent (an
// infinite one is); infinities follow POSIX; a finite result out of range
// fails.
func power(x, y float64) (float64, error) {
	switch {
	case math.IsNaN(x):
		if math.IsNaN(y) || y != 0 {
			return math.NaN(), nil
		}
		return 1, nil
	case math.IsNaN(y):
		if x != 1 {
			return math.NaN(), nil
		}
		return 1, nil
	case x == 0 && y < 0:
		return 0, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "zero raised to a negative power is undefined")
	case x < 0 && math.Floor(y) != y:
		return 0, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "a negative number raised to a non-integer power yields a complex result")
	case math.IsInf(y, 0):
		ax := math.Abs(x)
		switch {
		case ax == 1:
			return 1, nil
		case (y > 0) == (ax > 1):
			return math.Inf(1), nil
		}
		return 0, nil
	case math.IsInf(x, 0):
		switch {
		case y == 0:
			return 1, nil
		case x > 0 && y > 0:
			return x, nil
		case x > 0:
			return 0, nil
		}
		odd := math.Floor(y/2) != y/2
		switch {
		case y > 0 && odd:
			return x, nil
		case y > 0:
			return -x, nil
		case odd:
			return math.Copysign(0, -1), nil
		}
		return 0, nil
	}
	v := math.Pow(x, y)
	if math.IsInf(v, 0) {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
	}
	if v == 0 && x != 0 {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
	}
	return v, nil
}

// radians is PostgreSQL's float8_mul(x, RADIANS_PER_DEGREE), with its
// overflow and underflow errors.
func radians(x float64) (float64, error) {
	v := x * radiansPerDegree
	if v == 0 && x != 0 {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
	}
	return checkFloat(v, x)
}

// float2 applies f to each row of two float8 columns where neither is
// NULL.
func float2(f func(x, y float64) (float64, error)) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		xs, ys := values[float64](args[0]), values[float64](args[1])
		validity, nulls := nullsOf(args)
		out := make([]float64, len(xs))
		for i := range xs {
			if !validAt(validity, i) {
				continue
			}
			v, err := f(xs[i], ys[i])
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return newFixed(arrow.PrimitiveTypes.Float64, out, validity, nulls), nil
	}
}

// constKernel is a function without arguments and a fixed value. A
// function without arguments gets one NULL-typed array that gives the
// batch's length (funcEval).
func constKernel(v float64) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		out := make([]float64, args[0].Len())
		for i := range out {
			out[i] = v
		}
		return newFixed(arrow.PrimitiveTypes.Float64, out, nil, 0), nil
	}
}

// randomKernel is random(): a fresh value per call.
func randomKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	out := make([]float64, args[0].Len())
	for i := range out {
		out[i] = rand.Float64()
	}
	return newFixed(arrow.PrimitiveTypes.Float64, out, nil, 0), nil
}

// roundKernel is round/trunc of float8 (to an integer) and of numeric
// (to the result's scale, which the binder took from the second
// argument). As in PostgreSQL, numeric rounds half away from zero and
// float8 half to even (rint).
func roundKernel(round bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if res.OID == types.OIDFloat8 {
			return float1(func(x float64) (float64, error) {
				if round {
					return math.RoundToEven(x), nil
				}
				return math.Trunc(x), nil
			})(args[:1], res)
		}
		in := decimalValues(args[0])
		from := decimalScale(args[0])
		validity, nulls := validity1(args[0])
		if len(args) == 2 {
			validity, nulls = validity2(args[0], args[1])
		}
		out := make([]decimal128.Num, len(in))
		for i, v := range in {
			if !validAt(validity, i) {
				continue
			}
			digits := res.Scale
			if len(args) == 2 {
				digits = int32(max(min(values[int32](args[1])[i], types.MaxNumericPrecision), -types.MaxNumericPrecision))
			}
			r, ok := rescaleRounding(v, from, digits, round)
			if ok && digits < res.Scale {
				r, ok = types.Rescale(r, max(digits, 0), res.Scale)
			}
			if !ok {
				return nil, errNumericOverflow()
			}
			out[i] = r
		}
		return newDecimal(res.Arrow(), out, validity, nulls), nil
	}
}

// rescaleRounding moves v from scale from to scale to, rounding half away
// from zero (round) or truncating toward zero. A negative to rounds to
// tens, hundreds, ... and gives scale 0.
func rescaleRounding(v decimal128.Num, from, to int32, round bool) (decimal128.Num, bool) {
	if to >= from {
		return types.Rescale(v, from, to)
	}
	if to < 0 {
		// Read v as if it had -to more decimals, round to an integer, then
		// scale the integer back up: round(1234.5, -2) = 1200.
		shifted, ok := rescaleRounding(v, from-to, 0, round)
		if !ok {
			return shifted, false
		}
		for k := int32(0); k < -to; k++ {
			shifted = shifted.Mul(decimal128.FromU64(10))
		}
		return shifted, true
	}
	div := decimal128.FromU64(1)
	ten := decimal128.FromU64(10)
	for k := to; k < from; k++ {
		div = div.Mul(ten)
	}
	q, r := v.Div(div)
	if round {
		twice := r.Abs().Mul(decimal128.FromU64(2))
		if twice.Cmp(div) >= 0 {
			if v.Sign() < 0 {
				q = q.Sub(decimal128.FromU64(1))
			} else {
				q = q.Add(decimal128.FromU64(1))
			}
		}
	}
	return q, true
}

// modKernel is mod(a, b) for integers and numerics: the remainder with
// the dividend's sign.
func modKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if res.Family() == types.FamilyInt {
		return rowKernel(func(v []any) (any, error) {
			a, b := v[0].(int64), v[1].(int64)
			if b == 0 {
				return nil, errDivisionByZero()
			}
			if b == -1 {
				return int64(0), nil
			}
			return a % b, nil
		})(args, res)
	}
	return divideDecimalPairs(args, res, func(_, rem decimal128.Num, scale int32) (decimal128.Num, bool) {
		return types.Rescale(rem, scale, res.Scale)
	})
}

// signKernel is sign(x): -1, 0 or 1 at the argument's type.
func signKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if res.OID == types.OIDFloat8 {
		return float1(func(x float64) (float64, error) {
			switch {
			case x > 0:
				return 1, nil
			case x < 0:
				return -1, nil
			}
			return 0, nil // zero and NaN, as PostgreSQL's dsign
		})(args, res)
	}
	in := decimalValues(args[0])
	validity, nulls := validity1(args[0])
	out := make([]decimal128.Num, len(in))
	for i, v := range in {
		s, _ := types.Rescale(decimal128.FromI64(int64(v.Sign())), 0, res.Scale)
		out[i] = s
	}
	return newDecimal(res.Arrow(), out, validity, nulls), nil
}

// widthBucket is width_bucket(operand, low, high, count).
func widthBucket(v []any) (any, error) {
	x, lo, hi, n := v[0].(float64), v[1].(float64), v[2].(float64), v[3].(int64)
	switch {
	case n <= 0:
		return nil, pgerror.New(pgerror.InvalidArgumentForWidthBucket, "count must be greater than zero")
	case lo == hi:
		return nil, pgerror.New(pgerror.InvalidArgumentForWidthBucket, "lower bound cannot equal upper bound")
	case math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi):
		return nil, pgerror.New(pgerror.InvalidArgumentForWidthBucket, "operand, lower bound, and upper bound cannot be NaN")
	}
	var b int64
	if lo < hi {
		switch {
		case x < lo:
			b = 0
		case x >= hi:
			b = n + 1
		default:
			b = int64(float64(n)*((x-lo)/(hi-lo))) + 1
		}
	} else {
		switch {
		case x > lo:
			b = 0
		case x <= hi:
			b = n + 1
		default:
			b = int64(float64(n)*((lo-x)/(lo-hi))) + 1
		}
	}
	if b > math.MaxInt32 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return b, nil
}

// minMaxKernel is GREATEST (greatest true) and LEAST over arguments of
// one type: per row the largest (smallest) non-NULL value.
func minMaxKernel(greatest bool) scalarKernel {
	op := "<"
	if greatest {
		op = ">"
	}
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		cur := args[0]
		cur.Retain()
		for _, next := range args[1:] {
			better, err := compareTyped(op, next, cur, res)
			if err != nil {
				cur.Release()
				return nil, err
			}
			n := cur.Len()
			idx := make([]int32, n)
			bb := better.(*array.Boolean)
			for i := range idx {
				idx[i] = int32(i)
				if next.IsValid(i) && (cur.IsNull(i) || (bb.IsValid(i) && bb.Value(i))) {
					idx[i] = int32(n + i)
				}
			}
			better.Release()
			both, err := concatArrays([]arrow.Array{cur, next})
			cur.Release()
			if err != nil {
				return nil, err
			}
			cur, err = takeIndices(both, idx)
			both.Release()
			if err != nil {
				return nil, err
			}
		}
		return cur, nil
	}
}

// trigFunction is a trigonometric or hyperbolic function, with
// PostgreSQL's domain errors: asin/acos outside [-1, 1], sin, cos, tan
// and cot of an infinity.
func trigFunction(name string) func(float64) (float64, error) {
	outOfRange := func() (float64, error) { return 0, errInputOutOfRange() }
	return func(x float64) (float64, error) {
		switch name {
		case "sin", "cos", "tan", "cot":
			if math.IsInf(x, 0) {
				return outOfRange()
			}
		}
		switch name {
		case "sin":
			return math.Sin(x), nil
		case "cos":
			return math.Cos(x), nil
		case "tan":
			return math.Tan(x), nil
		case "cot":
			return 1 / math.Tan(x), nil
		case "asin":
			if x < -1 || x > 1 {
				return outOfRange()
			}
			return math.Asin(x), nil
		case "acos":
			if x < -1 || x > 1 {
				return outOfRange()
			}
			return math.Acos(x), nil
		case "atan":
			return math.Atan(x), nil
		case "sinh":
			return math.Sinh(x), nil
		case "cosh":
			return math.Cosh(x), nil
		}
		return math.Tanh(x), nil
	}
}

// dateBin is date_bin(stride, source, origin): source moved down to the
// start of its stride-wide bin counted from origin. Strides of months or
// years have no fixed width and are refused, as PostgreSQL does.
func dateBin(v []any) (any, error) {
	stride, src, origin := v[0].(types.IntervalValue), v[1].(int64), v[2].(int64)
	if stride.Months != 0 {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "timestamps cannot be binned into intervals containing months or years")
	}
	width := int64(stride.Days)*types.MicrosPerDay + stride.Micros
	if width <= 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "stride must be greater than zero")
	}
	diff := src - origin
	bin := diff / width * width
	if diff < 0 && diff%width != 0 {
		bin -= width
	}
	return origin + bin, nil
}
