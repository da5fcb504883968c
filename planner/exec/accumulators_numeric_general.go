package exec

import (
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/types"
)

// Aggregates whose result is a general numeric: avg and the variance
// family over integers and numerics (PostgreSQL picks the result's scale
// from its value), and sum, avg, min and max of general numerics.

// resultGeneral is avg's result: each group's exact sum divided by its
// count at select_div_scale's scale, as numeric_avg does.
func (s *decimalSumAcc) resultGeneral(n int) (arrow.Array, error) {
	seen := make([]bool, n)
	for g := 0; g < n; g++ {
		seen[g] = s.counts[g] > 0
	}
	validity, _ := seenBitmap(seen, n)
	var sum, count apd.Decimal
	return buildGeneral(n, validity, func(g int, d *apd.Decimal) error {
		v, err := s.total(int32(g))
		if err != nil {
			return err
		}
		types.SetNumericFromDecimal128(&sum, v, s.scale)
		if !s.avg {
			d.Set(&sum)
			return nil
		}
		count.SetInt64(s.counts[g])
		return types.NumericDiv(d, &sum, &count)
	})
}

// generalSumAcc is sum and avg of general numerics: an exact sum per
// group (NaN and infinities as numeric_add gives them) and a count.
type generalSumAcc struct {
	avg    bool
	sums   []apd.Decimal
	counts []int64
	x      apd.Decimal
}

func (s *generalSumAcc) update(groups []int32, n int, arg arrow.Array) error {
	s.sums, s.counts = grow(s.sums, n), grow(s.counts, n)
	rd, err := newNumericReader(arg)
	if err != nil {
		return err
	}
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		rd.read(i, &s.x)
		if s.counts[g] == 0 {
			s.sums[g].Set(&s.x)
		} else {
			types.NumericAdd(&s.sums[g], &s.sums[g], &s.x, false)
		}
		s.counts[g]++
	}
	return nil
}

func (s *generalSumAcc) memBytes() int64 { return 48*int64(cap(s.sums)) + 8*int64(cap(s.counts)) }

func (s *generalSumAcc) result(n int) (arrow.Array, error) {
	s.sums, s.counts = grow(s.sums, n), grow(s.counts, n)
	seen := make([]bool, n)
	for g := range seen {
		seen[g] = s.counts[g] > 0
	}
	validity, _ := seenBitmap(seen, n)
	var count apd.Decimal
	return buildGeneral(n, validity, func(g int, d *apd.Decimal) error {
		if !s.avg {
			d.Set(&s.sums[g])
			return nil
		}
		count.SetInt64(s.counts[g])
		return types.NumericDiv(d, &s.sums[g], &count)
	})
}

// generalMinMaxAcc keeps the least or greatest general numeric per group
// (NaN above every value, as PostgreSQL orders them).
type generalMinMaxAcc struct {
	max   bool
	best  [][]byte
	bytes int64
}

func (m *generalMinMaxAcc) update(groups []int32, n int, arg arrow.Array) error {
	m.best = grow(m.best, n)
	g8, ok := arg.(*types.NumericArray)
	if !ok {
		return errNotGeneral(arg)
	}
	for i, g := range groups {
		if g8.IsNull(i) {
			continue
		}
		v := g8.Bytes(i)
		if m.best[g] != nil {
			c := types.CompareNumericBytes(v, m.best[g])
			if m.max && c <= 0 || !m.max && c >= 0 {
				continue
			}
		}
		m.bytes += int64(len(v) - len(m.best[g]))
		m.best[g] = append(m.best[g][:0], v...)
	}
	return nil
}

func (m *generalMinMaxAcc) memBytes() int64 { return 24*int64(cap(m.best)) + m.bytes }

func (m *generalMinMaxAcc) result(n int) (arrow.Array, error) {
	m.best = grow(m.best, n)
	bld := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer bld.Release()
	for _, v := range m.best[:n] {
		if v == nil {
			bld.AppendNull()
			continue
		}
		bld.Append(v)
	}
	storage := bld.NewArray()
	defer storage.Release()
	return types.NewNumericArray(storage), nil
}

// resultGeneral is the variance family's result as numeric_stddev_internal
// computes it: (n·Σx² − (Σx)²) / (n·(n−1)) (or n·n for the population
// forms) at select_div_scale's scale, its square root at the same scale
// for the standard deviations, and a bare 0 when the numerator is not
// positive.
func (s *numericStatsAcc) resultGeneral(ng int) (arrow.Array, error) {
	seen := make([]bool, ng)
	for g := range seen {
		seen[g] = s.n[g] > 0 && !(s.kind.sample && s.n[g] == 1)
	}
	validity, _ := seenBitmap(seen, ng)
	var num, den apd.Decimal
	return buildGeneral(ng, validity, func(g int, d *apd.Decimal) error {
		if g < len(s.nonFinite) && s.nonFinite[g] {
			d.Set(types.NumericNaN())
			return nil
		}
		n := s.n[g]
		nb := big.NewInt(n)
		v := new(big.Int).Mul(nb, s.sxx[g])
		v.Sub(v, new(big.Int).Mul(s.sx[g], s.sx[g]))
		if v.Sign() <= 0 {
			d.SetInt64(0)
			return nil
		}
		num.Coeff.SetMathBigInt(v)
		num.Form, num.Negative, num.Exponent = apd.Finite, false, -2*s.scale
		if s.kind.sample {
			den.SetInt64(n * (n - 1))
		} else {
			den.SetInt64(n * n)
		}
		rscale := types.NumericDivScaleOf(&num, &den)
		types.NumericDivRound(d, &num, &den, rscale)
		if s.kind.stddev {
			// The square root of the variance, rounded half up to rscale.
			x := new(big.Int).Mul(d.Coeff.MathBigInt(), types.Pow10(rscale))
			r := new(big.Int).Sqrt(x)
			rem := new(big.Int).Mul(r, r)
			if rem.Sub(x, rem).Cmp(r) > 0 {
				r.Add(r, big.NewInt(1))
			}
			d.Coeff.SetMathBigInt(r)
			d.Exponent = -rscale
		}
		return nil
	})
}

// updateGeneral feeds general numerics to the variance family: the sums
// are held at the largest scale seen so far (PostgreSQL's sum keeps the
// largest display scale too), rescaled when a value brings a larger one.
func (s *numericStatsAcc) updateGeneral(groups []int32, arg arrow.Array) error {
	rd, err := newNumericReader(arg)
	if err != nil {
		return err
	}
	var d apd.Decimal
	for i, g := range groups {
		if arg.IsNull(i) {
			continue
		}
		if s.sx[g] == nil {
			s.sx[g], s.sxx[g] = new(big.Int), new(big.Int)
		}
		s.n[g]++
		rd.read(i, &d)
		if d.Form != apd.Finite {
			s.nonFinite = grow(s.nonFinite, len(s.n))
			s.nonFinite[g] = true
			continue
		}
		m, scale := scaledBig(&d)
		if scale > s.scale {
			up, up2 := pow10Big(scale-s.scale), pow10Big(2*(scale-s.scale))
			for k := range s.sx {
				if s.sx[k] != nil {
					s.sx[k].Mul(s.sx[k], up)
					s.sxx[k].Mul(s.sxx[k], up2)
				}
			}
			s.scale = scale
		}
		m.Mul(m, pow10Big(s.scale-scale))
		s.sx[g].Add(s.sx[g], m)
		s.sxx[g].Add(s.sxx[g], m.Mul(m, m))
	}
	return nil
}

// newGeneralAccumulator is the accumulator of sum, avg, min and max over
// general numerics.
func newGeneralAccumulator(name string, arg types.T) (accumulator, bool) {
	if !arg.IsGeneralNumeric() {
		return nil, false
	}
	switch name {
	case "sum", "avg":
		return &generalSumAcc{avg: name == "avg"}, true
	case "min", "max":
		return &generalMinMaxAcc{max: name == "max"}, true
	}
	return nil, false
}

func errNotGeneral(a arrow.Array) error {
	return fmt.Errorf("general numeric aggregate over %s", a.DataType())
}
