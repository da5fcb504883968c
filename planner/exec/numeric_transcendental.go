package exec

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

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
// gives it (16 significant digits), rounded half away from zero, then held
// at the column's scale. The work is in big floats of powerPrec bits, far
// beyond decimal128's 38 digits.
func numericTranscendentalKernel(name string, args []arrow.Array, res types.T) (arrow.Array, error) {
	in, ok := args[0].(*array.Decimal128)
	if !ok {
		return nil, errNumericPowerArgs(args)
	}
	scale := decimalScale(in)
	ln2 := ln2Float()
	var ln10 *big.Float
	if name == "log" {
		ln10 = lnFloat(new(big.Float).SetPrec(powerPrec).SetInt64(10), ln2)
	}
	out := make([]decimal128.Num, in.Len())
	validity, nulls := validity1(in)
	for i := range out {
		if !validAt(validity, i) {
			continue
		}
		v, err := transcendental(name, in.Value(i), scale, res.Scale, ln2, ln10)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

// transcendental is one value of numericTranscendentalKernel.
func transcendental(name string, n decimal128.Num, scale, out int32, ln2, ln10 *big.Float) (decimal128.Num, error) {
	m := n.BigInt()
	x := decimalFloat(m, scale)
	switch name {
	case "sqrt":
		if m.Sign() < 0 {
			return decimal128.Num{}, pgerror.New(pgerror.InvalidArgumentForPowerFunction, "cannot take square root of a negative number")
		}
		return roundFloat(new(big.Float).SetPrec(powerPrec).Sqrt(x), false, types.NumericSqrtScale(m, scale), out)
	case "exp":
		f := n.ToFloat64(scale)
		if f > numericMaxDisplayScale*3.01 {
			return decimal128.Num{}, errNumericOverflow()
		}
		r := expFloat(x, ln2)
		return roundFloat(r, false, types.NumericExpScale(f, scale), out)
	}
	// ln and log10.
	switch m.Sign() {
	case 0:
		return decimal128.Num{}, pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of zero")
	case -1:
		return decimal128.Num{}, pgerror.New(pgerror.InvalidArgumentForLogarithm, "cannot take logarithm of a negative number")
	}
	r := lnFloat(x, ln2)
	rscale := types.NumericLnScale(m, scale)
	if name == "log" {
		r.Quo(r, ln10)
		rscale = types.NumericLogScale(big.NewInt(10), 0, m, scale)
	}
	neg := r.Sign() < 0
	return roundFloat(r.Abs(r), neg, rscale, out)
}
