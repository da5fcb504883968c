package exec

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// The trigonometric functions in degrees, computed as PostgreSQL's
// float.c does so that the angles with exact answers get them: sind(30)
// is 0.5, cosd(60) 0.5, tand(45) 1, asind(0.5) 30. The argument is
// reduced to the first quadrant, where sin and cos are scaled by their
// own values at 30 and 60 degrees, which cancels the rounding of
// radians(x).

// radiansPerDegree is a float64, as PostgreSQL's RADIANS_PER_DEGREE:
// the constants below must be computed exactly as the arguments are, in
// float64 arithmetic, not as exact constant expressions.
const radiansPerDegree float64 = math.Pi / 180

// degreeConstants are PostgreSQL's init_degree_constants values.
type degreeConstants struct {
	sin30, oneMinusCos60, asin05, acos05, atan10, tan45, cot45 float64
}

func newDegreeConstants() degreeConstants {
	thirty, sixty := 30.0, 60.0
	c := degreeConstants{
		sin30:         math.Sin(thirty * radiansPerDegree),
		oneMinusCos60: 1 - math.Cos(sixty*radiansPerDegree),
		asin05:        math.Asin(0.5),
		acos05:        math.Acos(0.5),
		atan10:        math.Atan(1),
	}
	c.tan45 = c.sindQ1(45) / c.cosdQ1(45)
	c.cot45 = c.cosdQ1(45) / c.sindQ1(45)
	return c
}

func (c degreeConstants) sind0To30(x float64) float64 {
	return (math.Sin(x*radiansPerDegree) / c.sin30) / 2
}

func (c degreeConstants) cosd0To60(x float64) float64 {
	return 1 - ((1-math.Cos(x*radiansPerDegree))/c.oneMinusCos60)/2
}

func (c degreeConstants) sindQ1(x float64) float64 {
	if x <= 30 {
		return c.sind0To30(x)
	}
	return c.cosd0To60(90 - x)
}

func (c degreeConstants) cosdQ1(x float64) float64 {
	if x <= 60 {
		return c.cosd0To60(x)
	}
	return c.sind0To30(90 - x)
}

func (c degreeConstants) asindQ1(x float64) float64 {
	if x <= 0.5 {
		return (math.Asin(x) / c.asin05) * 30
	}
	return 90 - (math.Acos(x)/c.acos05)*60
}

func (c degreeConstants) acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - (math.Asin(x)/c.asin05)*30
	}
	return (math.Acos(x) / c.acos05) * 60
}

func errInputOutOfRange() error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "input is out of range")
}

func errFloatOverflow() error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
}

// degreesTrigKernel applies f (sind, cosd, tand, cotd, asind, acosd or
// atand) with PostgreSQL's degree constants to a float8 column.
func degreesTrigKernel(f func(c degreeConstants, x float64) (float64, error)) scalarKernel {
	c := newDegreeConstants()
	return float1(func(x float64) (float64, error) { return f(c, x) })
}

func (c degreeConstants) tand(x float64) (float64, error) { return c.tandCotd(x, false) }

func (c degreeConstants) cotd(x float64) (float64, error) { return c.tandCotd(x, true) }

func (c degreeConstants) atand(x float64) (float64, error) {
	if math.IsNaN(x) {
		return math.NaN(), nil
	}
	return (math.Atan(x) / c.atan10) * 45, nil
}

// atan2dKernel is atan2d(y, x), the angle in degrees.
func atan2dKernel() scalarKernel {
	c := newDegreeConstants()
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		validity, nulls := nullsOf(args)
		ys, xs := values[float64](args[0]), values[float64](args[1])
		out := make([]float64, len(ys))
		for i := range ys {
			if !validAt(validity, i) {
				continue
			}
			if y, x := ys[i], xs[i]; math.IsNaN(y) || math.IsNaN(x) {
				out[i] = math.NaN()
			} else {
				out[i] = (math.Atan2(y, x) / c.atan10) * 45
			}
		}
		return newFixed(arrow.PrimitiveTypes.Float64, out, validity, nulls), nil
	}
}

func (c degreeConstants) sind(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if math.IsInf(x, 0) {
		return 0, errInputOutOfRange()
	}
	sign := 1.0
	x = math.Mod(x, 360)
	if x < 0 {
		x, sign = -x, -sign
	}
	if x > 180 {
		x, sign = 360-x, -sign
	}
	if x > 90 {
		x = 180 - x
	}
	r := sign * c.sindQ1(x)
	if math.IsInf(r, 0) {
		return 0, errFloatOverflow()
	}
	return r, nil
}

func (c degreeConstants) cosd(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if math.IsInf(x, 0) {
		return 0, errInputOutOfRange()
	}
	sign := 1.0
	x = math.Mod(x, 360)
	if x < 0 {
		x = -x
	}
	if x > 180 {
		x = 360 - x
	}
	if x > 90 {
		x, sign = 180-x, -sign
	}
	r := sign * c.cosdQ1(x)
	if math.IsInf(r, 0) {
		return 0, errFloatOverflow()
	}
	return r, nil
}

// tandCotd is tand (cot false) or cotd; tand(90) and cotd(0) are
// infinite, not an error, and a zero result is never negative.
func (c degreeConstants) tandCotd(x float64, cot bool) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if math.IsInf(x, 0) {
		return 0, errInputOutOfRange()
	}
	sign := 1.0
	x = math.Mod(x, 360)
	if x < 0 {
		x, sign = -x, -sign
	}
	if x > 180 {
		x, sign = 360-x, -sign
	}
	if x > 90 {
		x, sign = 180-x, -sign
	}
	var r float64
	if cot {
		r = sign * ((c.cosdQ1(x) / c.sindQ1(x)) / c.cot45)
	} else {
		r = sign * ((c.sindQ1(x) / c.cosdQ1(x)) / c.tan45)
	}
	if r == 0 {
		r = 0
	}
	return r, nil
}

func (c degreeConstants) asind(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x < -1 || x > 1 {
		return 0, errInputOutOfRange()
	}
	if x >= 0 {
		return c.asindQ1(x), nil
	}
	return -c.asindQ1(-x), nil
}

func (c degreeConstants) acosd(x float64) (float64, error) {
	if math.IsNaN(x) {
		return x, nil
	}
	if x < -1 || x > 1 {
		return 0, errInputOutOfRange()
	}
	if x >= 0 {
		return c.acosdQ1(x), nil
	}
	return 90 + c.asindQ1(-x), nil
}
