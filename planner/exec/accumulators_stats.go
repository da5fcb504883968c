package exec

import (
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// newMoreAccumulator builds the accumulators of the aggregates beyond
// count, sum, avg, min, max and string_agg.
func newMoreAccumulator(a *planner.AggCall) (accumulator, error) {
	name := a.Func.Name
	switch name {
	case "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop":
		kind := statsKind{
			sample: name != "stddev_pop" && name != "var_pop",
			stddev: name == "stddev" || name == "stddev_samp" || name == "stddev_pop",
		}
		if a.Arg.Type().Family() == types.FamilyFloat {
			return &floatStatsAcc{kind: kind}, nil
		}
		return &numericStatsAcc{kind: kind, out: a.Out.Type}, nil
	case "bool_and", "every":
		return &boolAcc{and: true}, nil
	case "bool_or":
		return &boolAcc{}, nil
	case "array_agg":
		return &arrayAggAcc{out: a.Out.Type}, nil
	case "json_agg", "jsonb_agg":
		return &jsonAggAcc{in: a.Arg.Type(), jsonb: name == "jsonb_agg"}, nil
	case "bit_and", "bit_or", "bit_xor":
		return newBitAcc(name, a.Arg.Type())
	case "json_object_agg", "jsonb_object_agg":
		if a.Delim == nil {
			return nil, errObjectAggValueMissing
		}
		return &jsonObjectAggAcc{keyType: a.Arg.Type(), valType: a.Delim.Type(), jsonb: name == "jsonb_object_agg"}, nil
	}
	if a.Func.Regression {
		return newRegrAcc(name)
	}
	arg := "*"
	if a.Arg != nil {
		arg = a.Arg.Type().Name()
	}
	return nil, fmt.Errorf("aggregate %s(%s) cannot be executed", name, arg)
}

// statsKind says which of the six variance and standard deviation
// aggregates an accumulator computes.
type statsKind struct {
	sample bool // divide by n-1 (NULL for fewer than two values), else n
	stddev bool // the square root of the variance
}

// floatStatsAcc computes the variance family over real and double
// precision with the Youngs-Cramer running sums PostgreSQL uses
// (float8_accum), so results match to the last bit for the same input
// order.
type floatStatsAcc struct {
	kind       statsKind
	n, sx, sxx []float64
}

func (s *floatStatsAcc) update(groups []int32, ng int, arg arrow.Array) error {
	s.n, s.sx, s.sxx = grow(s.n, ng), grow(s.sx, ng), grow(s.sxx, ng)
	vals := floatsOf(arg)
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		v := vals[i]
		prevN := s.n[g]
		n := prevN + 1
		sx := s.sx[g] + v
		sxx := s.sxx[g]
		if prevN > 0 {
			tmp := v*n - sx
			sxx += tmp * tmp / (n * prevN)
			if math.IsInf(sx, 0) || math.IsInf(sxx, 0) {
				if !math.IsInf(s.sx[g], 0) && !math.IsInf(v, 0) {
					return pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
				}
				sxx = math.NaN()
			}
		} else if math.IsNaN(v) || math.IsInf(v, 0) {
			sxx = math.NaN()
		}
		s.n[g], s.sx[g], s.sxx[g] = n, sx, sxx
	}
	return nil
}

func (s *floatStatsAcc) memBytes() int64 { return 8 * int64(cap(s.n)+cap(s.sx)+cap(s.sxx)) }

func (s *floatStatsAcc) result(ng int) (arrow.Array, error) {
	s.n, s.sxx = grow(s.n, ng), grow(s.sxx, ng)
	out := make([]float64, ng)
	seen := make([]bool, ng)
	for g := 0; g < ng; g++ {
		n := s.n[g]
		div := n
		if s.kind.sample {
			div = n - 1
		}
		if div <= 0 {
			continue
		}
		v := s.sxx[g] / div
		if s.kind.stddev {
			v = math.Sqrt(v)
		}
		out[g], seen[g] = v, true
	}
	bits, nulls := seenBitmap(seen, ng)
	return newFixed(arrow.PrimitiveTypes.Float64, out, bits, nulls), nil
}

// numericStatsAcc computes the variance family over integers and
// numerics exactly: the count, the sum and the sum of squares per group,
// in big integers at the input's scale. As in PostgreSQL, the variance is
// rounded to the result scale first and the standard deviation is the
// rounded square root of that.
type numericStatsAcc struct {
	kind    statsKind
	out     types.T
	scale   int32
	n       []int64
	sx, sxx []*big.Int
	x, lo   big.Int // scratch
	// nonFinite marks the groups that saw NaN or an infinity (general
	// numerics): their variance is NaN.
	nonFinite []bool
}

func (s *numericStatsAcc) update(groups []int32, ng int, arg arrow.Array) error {
	s.n, s.sx, s.sxx = grow(s.n, ng), grow(s.sx, ng), grow(s.sxx, ng)
	var ints []int64
	var decs []decimal128.Num
	if isGeneralArray(arg) {
		return s.updateGeneral(groups, arg)
	}
	if isDecimal(arg.DataType().ID()) {
		s.scale = decimalScale(arg)
		decs = decimalValues(arg)
	} else {
		ints = intsOf(arg)
	}
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		if s.sx[g] == nil {
			s.sx[g], s.sxx[g] = new(big.Int), new(big.Int)
		}
		if decs != nil {
			v := decs[i]
			s.x.SetInt64(v.HighBits())
			s.x.Lsh(&s.x, 64)
			s.x.Add(&s.x, s.lo.SetUint64(v.LowBits()))
		} else {
			s.x.SetInt64(ints[i])
		}
		s.n[g]++
		s.sx[g].Add(s.sx[g], &s.x)
		s.x.Mul(&s.x, &s.x)
		s.sxx[g].Add(s.sxx[g], &s.x)
	}
	return nil
}

func (s *numericStatsAcc) memBytes() int64 {
	// Two big integers a group (header and a few words each).
	return 8*int64(cap(s.n)) + 16*int64(cap(s.sx)) + 2*64*int64(len(s.sx))
}

func (s *numericStatsAcc) result(ng int) (arrow.Array, error) {
	s.n, s.sx, s.sxx = grow(s.n, ng), grow(s.sx, ng), grow(s.sxx, ng)
	if s.out.IsGeneralNumeric() {
		return s.resultGeneral(ng)
	}
	out := make([]decimal128.Num, ng)
	seen := make([]bool, ng)
	rscale := s.out.Scale
	for g := 0; g < ng; g++ {
		n := s.n[g]
		if n == 0 || (s.kind.sample && n == 1) {
			continue
		}
		seen[g] = true
		// n*sxx - sx*sx, at twice the input scale.
		nb := big.NewInt(n)
		num := new(big.Int).Mul(nb, s.sxx[g])
		num.Sub(num, new(big.Int).Mul(s.sx[g], s.sx[g]))
		if num.Sign() <= 0 {
			continue // zero, as out[g] already is
		}
		den := new(big.Int)
		if s.kind.sample {
			den.Mul(nb, big.NewInt(n-1))
		} else {
			den.Mul(nb, nb)
		}
		den.Mul(den, types.Pow10(2*s.scale))
		num.Mul(num, types.Pow10(rscale))
		v, ok := types.DivRound(num, den)
		if !ok {
			return nil, errNumericOverflow()
		}
		if s.kind.stddev {
			v, ok = sqrtRound(v.BigInt(), rscale)
			if !ok {
				return nil, errNumericOverflow()
			}
		}
		if !v.FitsInPrecision(types.MaxNumericPrecision) {
			return nil, errNumericOverflow()
		}
		out[g] = v
	}
	bits, nulls := seenBitmap(seen, ng)
	return newDecimal(s.out.Arrow(), out, bits, nulls), nil
}

// sqrtRound is the square root of v (a non-negative numeric at scale),
// rounded half up to the same scale.
func sqrtRound(v *big.Int, scale int32) (decimal128.Num, bool) {
	x := new(big.Int).Mul(v, types.Pow10(scale))
	r := new(big.Int).Sqrt(x)
	// Round up when x >= (r + 1/2)^2, that is x - r^2 > r.
	rem := new(big.Int).Mul(r, r)
	rem.Sub(x, rem)
	if rem.Cmp(r) > 0 {
		r.Add(r, big.NewInt(1))
	}
	if r.BitLen() > 126 {
		return decimal128.Num{}, false
	}
	return decimal128.FromBigInt(r), true
}
