package exec

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// numericOrFloat is the kernel of sqrt, exp, ln and log (base 10): the
// numeric versions when the call was bound to numeric, else float.
func numericOrFloat(name string, float scalarKernel) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if res.OID == types.OIDNumeric && len(args) == 1 {
			return numericTranscendentalKernel(name, args, res)
		}
		return float(args, res)
	}
}

// numericTranscendentalKernel computes sqrt, exp, ln or log10 of numerics
// as PostgreSQL's numeric versions do: each value to the scale PostgreSQL
// gives it (16 significant digits), rounded half away from zero, as a
// general numeric. The work is in big floats of powerPrec bits.
func numericTranscendentalKernel(name string, args []arrow.Array, _ types.T) (arrow.Array, error) {
	rd, err := newNumericReader(args[0])
	if err != nil {
		return nil, err
	}
	ln2 := ln2Float()
	var ln10 *big.Float
	if name == "log" {
		ln10 = lnFloat(new(big.Float).SetPrec(powerPrec).SetInt64(10), ln2)
	}
	validity, _ := validity1(args[0])
	var x apd.Decimal
	return buildGeneral(args[0].Len(), validity, func(i int, d *apd.Decimal) error {
		rd.read(i, &x)
		if x.Form != apd.Finite {
			return transcendentalSpecial(name, d, &x)
		}
		m, scale := scaledBig(&x)
		v, err := transcendental(name, m, scale, ln2, ln10)
		if err != nil {
			return err
		}
		v.set(d)
		return nil
	})
}

// transcendentalSpecial is sqrt, exp, ln or log10 of NaN or an infinity.
func transcendentalSpecial(name string, d, x *apd.Decimal) error {
	switch {
	case x.Form == apd.NaN:
		d.Set(x)
	case !x.Negative:
		d.Set(x) // +Infinity
	case name == "exp":
		d.SetInt64(0)
	case name == "sqrt":
		return pgerror.New(pgerror.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
	default:
		return pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
	}
	return nil
}

// transcendental is one finite value m×10^-scale of
// numericTranscendentalKernel.
func transcendental(name string, m *big.Int, scale int32, ln2, ln10 *big.Float) (scaledValue, error) {
	x := decimalFloat(m, scale)
	switch name {
	case "sqrt":
		if m.Sign() < 0 {
			return scaledValue{}, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return roundFloat(new(big.Float).SetPrec(powerPrec).Sqrt(x), false, types.NumericSqrtScale(m, scale)), nil
	case "exp":
		f, _ := x.Float64()
		if f > numericMaxDisplayScale*3.01 {
			return scaledValue{}, errNumericOverflow()
		}
		rscale := types.NumericExpScale(f, scale)
		if f < -numericMaxDisplayScale*3.01 {
			return zeroAt(rscale), nil
		}
		return roundFloat(expFloat(x, ln2), false, rscale), nil
	}
	// ln and log10.
	switch m.Sign() {
	case 0:
		return scaledValue{}, pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
	case -1:
		return scaledValue{}, pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
	}
	r := lnFloat(x, ln2)
	rscale := types.NumericLnScale(m, scale)
	if name == "log" {
		r.Quo(r, ln10)
		rscale = types.NumericLogScale(big.NewInt(10), 0, m, scale)
	}
	neg := r.Sign() < 0
	return roundFloat(r.Abs(r), neg, rscale), nil
}
