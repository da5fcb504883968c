package exec

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// regrAcc computes the regression aggregates (corr, covar_pop,
// covar_samp, regr_*) over double precision pairs (Y, X) with the
// running sums PostgreSQL keeps (float8_regr_accum: N, Sx, Sxx, Sy, Syy,
// Sxy, with the Youngs-Cramer updates), so results agree with
// PostgreSQL's for the same input order. A row with a NULL Y or X is
// skipped.
type regrAcc struct {
	name  string
	final func(s *regrState) (float64, bool)
	// count is regr_count, which returns bigint and never fails.
	count  bool
	states []regrState
}

// regrState is one group's running sums.
type regrState struct{ n, sx, sxx, sy, syy, sxy float64 }

func newRegrAcc(name string) (accumulator, error) {
	if name == "regr_count" {
		return &regrAcc{name: name, count: true}, nil
	}
	final := regrFinal(name)
	if final == nil {
		return nil, fmt.Errorf("aggregate %s cannot be executed", name)
	}
	return &regrAcc{name: name, final: final}, nil
}

// regrFinal is PostgreSQL's final function of a regression aggregate
// (float8_corr, ...): the result, or false for NULL. nil for an unknown
// name.
func regrFinal(name string) func(s *regrState) (float64, bool) {
	switch name {
	case "regr_sxx":
		return func(s *regrState) (float64, bool) { return s.sxx, s.n >= 1 }
	case "regr_syy":
		return func(s *regrState) (float64, bool) { return s.syy, s.n >= 1 }
	case "regr_sxy":
		return func(s *regrState) (float64, bool) { return s.sxy, s.n >= 1 }
	case "regr_avgx":
		return func(s *regrState) (float64, bool) { return s.sx / s.n, s.n >= 1 }
	case "regr_avgy":
		return func(s *regrState) (float64, bool) { return s.sy / s.n, s.n >= 1 }
	case "covar_pop":
		return func(s *regrState) (float64, bool) { return s.sxy / s.n, s.n >= 1 }
	case "covar_samp":
		return func(s *regrState) (float64, bool) { return s.sxy / (s.n - 1), s.n >= 2 }
	case "corr":
		// NULL for horizontal and vertical lines, as the standard says.
		return func(s *regrState) (float64, bool) {
			if s.n < 1 || s.sxx == 0 || s.syy == 0 {
				return 0, false
			}
			return s.sxy / math.Sqrt(s.sxx*s.syy), true
		}
	case "regr_r2":
		// NULL for a vertical line, 1 for a horizontal one.
		return func(s *regrState) (float64, bool) {
			switch {
			case s.n < 1 || s.sxx == 0:
				return 0, false
			case s.syy == 0:
				return 1, true
			}
			return (s.sxy * s.sxy) / (s.sxx * s.syy), true
		}
	case "regr_slope":
		return func(s *regrState) (float64, bool) {
			if s.n < 1 || s.sxx == 0 {
				return 0, false
			}
			return s.sxy / s.sxx, true
		}
	case "regr_intercept":
		return func(s *regrState) (float64, bool) {
			if s.n < 1 || s.sxx == 0 {
				return 0, false
			}
			return (s.sy - s.sx*s.sxy/s.sxx) / s.n, true
		}
	}
	return nil
}

// update is never called: the rows carry Y and X (updateDelimited).
func (r *regrAcc) update([]int32, int, arrow.Array) error {
	return fmt.Errorf("aggregate %s needs two arguments", r.name)
}

func (r *regrAcc) updateDelimited(groups []int32, ng int, ya, xa arrow.Array) error {
	r.states = grow(r.states, ng)
	ys, xs := values[float64](ya), values[float64](xa)
	nulls := ya.NullN() > 0 || xa.NullN() > 0
	for i, g := range groups {
		if nulls && (ya.IsNull(i) || xa.IsNull(i)) {
			continue
		}
		s := &r.states[g]
		if r.count {
			s.n++
			continue
		}
		if err := s.add(ys[i], xs[i]); err != nil {
			return err
		}
	}
	return nil
}

// add is float8_regr_accum: a result that becomes infinite from finite
// values is an overflow error; sums that infinite inputs make infinite
// become NaN.
func (s *regrState) add(y, x float64) error {
	prevN, prevSx, prevSy := s.n, s.sx, s.sy
	n := prevN + 1
	sx, sy := prevSx+x, prevSy+y
	sxx, syy, sxy := s.sxx, s.syy, s.sxy
	if prevN > 0 {
		tmpX := x*n - sx
		tmpY := y*n - sy
		scale := 1.0 / (n * prevN)
		sxx += tmpX * tmpX * scale
		syy += tmpY * tmpY * scale
		sxy += tmpX * tmpY * scale
		inf := func(v float64) bool { return math.IsInf(v, 0) }
		if inf(sx) || inf(sxx) || inf(sy) || inf(syy) || inf(sxy) {
			if ((inf(sx) || inf(sxx)) && !inf(prevSx) && !inf(x)) ||
				((inf(sy) || inf(syy)) && !inf(prevSy) && !inf(y)) ||
				(inf(sxy) && !inf(prevSx) && !inf(x) && !inf(prevSy) && !inf(y)) {
				return pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
			}
			if inf(sxx) {
				sxx = math.NaN()
			}
			if inf(syy) {
				syy = math.NaN()
			}
			if inf(sxy) {
				sxy = math.NaN()
			}
		}
	} else {
		// A first value that is infinite or NaN makes the sums that
		// depend on it NaN, not a false zero variance.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			sxx, sxy = math.NaN(), math.NaN()
		}
		if math.IsNaN(y) || math.IsInf(y, 0) {
			syy, sxy = math.NaN(), math.NaN()
		}
	}
	*s = regrState{n: n, sx: sx, sxx: sxx, sy: sy, syy: syy, sxy: sxy}
	return nil
}

func (r *regrAcc) memBytes() int64 { return 48 * int64(cap(r.states)) }

func (r *regrAcc) result(ng int) (arrow.Array, error) {
	r.states = grow(r.states, ng)
	if r.count {
		counts := make([]int64, ng)
		for g := range counts {
			counts[g] = int64(r.states[g].n)
		}
		return newFixed(arrow.PrimitiveTypes.Int64, counts, nil, 0), nil
	}
	out := make([]float64, ng)
	seen := make([]bool, ng)
	for g := 0; g < ng; g++ {
		out[g], seen[g] = r.final(&r.states[g])
		if !seen[g] {
			out[g] = 0
		}
	}
	bits, nulls := seenBitmap(seen, ng)
	return newFixed(arrow.PrimitiveTypes.Float64, out, bits, nulls), nil
}
