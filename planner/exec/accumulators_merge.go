package exec

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/planner"
)

// A parallel aggregate runs one accumulator per worker over the worker's
// share of the rows, then merges them. An accumulator can be merged when
// combining two partial states gives exactly the state one accumulator
// fed all the rows would hold, whatever the split: counts, exact sums,
// min and max, bool_and and bool_or. Those whose answer depends on the
// order rows arrive in (string_agg, array_agg, json_agg, float sums, whose
// rounding depends on the order of the additions) do not implement it and
// keep the serial plan.

// mergeableAccumulator is an accumulator whose partial states merge.
type mergeableAccumulator interface {
	accumulator
	// merge folds other's group g into this accumulator's group into[g];
	// ngroups is this accumulator's group count after the merge. other is
	// of the same type, built for the same aggregate call, and no longer
	// used afterwards.
	merge(other accumulator, into []int32, ngroups int) error
}

// MergeableAggregate reports whether partial states of the aggregate call
// can be merged, so that it can run in parallel workers.
func MergeableAggregate(a *planner.AggCall) bool {
	if needsCallInputs(a) || a.Delim != nil {
		return false
	}
	acc, err := newAccumulator(a)
	if err != nil {
		return false
	}
	_, ok := acc.(mergeableAccumulator)
	return ok
}

func (c *countAcc) merge(other accumulator, into []int32, n int) error {
	o := other.(*countAcc)
	c.counts = grow(c.counts, n)
	for g, v := range o.counts {
		c.counts[into[g]] += v
	}
	return nil
}

func (s *intSumAcc) merge(other accumulator, into []int32, n int) error {
	o := other.(*intSumAcc)
	s.sums, s.seen = grow(s.sums, n), grow(s.seen, n)
	for g, seen := range o.seen {
		if seen {
			s.sums[into[g]] += o.sums[g]
			s.seen[into[g]] = true
		}
	}
	return nil
}

func (s *decimalSumAcc) merge(other accumulator, into []int32, n int) error {
	o := other.(*decimalSumAcc)
	s.grow(n)
	// The scale is the argument type's; a worker that saw no row never
	// learnt it.
	s.scale = max(s.scale, o.scale)
	for g, cnt := range o.counts {
		if cnt == 0 {
			continue
		}
		sum, err := o.total(int32(g))
		if err != nil {
			return err
		}
		if lo, hi := sum.LowBits(), sum.HighBits(); hi != int64(lo)>>63 || !s.addSmall(into[g], int64(lo)) {
			if err := s.addWideOrSpill(into[g], sum); err != nil {
				return err
			}
		}
		s.counts[into[g]] += cnt
	}
	return nil
}

func (b *boolAcc) merge(other accumulator, into []int32, n int) error {
	o := other.(*boolAcc)
	b.vals, b.seen = grow(b.vals, n), grow(b.seen, n)
	for g, seen := range o.seen {
		if !seen {
			continue
		}
		t, v := into[g], o.vals[g]
		switch {
		case !b.seen[t]:
			b.vals[t], b.seen[t] = v, true
		case b.and:
			b.vals[t] = b.vals[t] && v
		default:
			b.vals[t] = b.vals[t] || v
		}
	}
	return nil
}

func (m *minMaxAcc) merge(other accumulator, into []int32, n int) error {
	o := other.(*minMaxAcc)
	m.seen = grow(m.seen, n)
	// Only the slice of the argument's type is in use; a worker that saw
	// no value has none.
	for g, seen := range o.seen {
		if !seen {
			continue
		}
		t := into[g]
		switch {
		case o.i64 != nil:
			m.i64 = grow(m.i64, n)
			if !m.seen[t] || m.better(cmp.Compare(o.i64[g], m.i64[t])) {
				m.i64[t] = o.i64[g]
			}
		case o.f64 != nil:
			m.f64 = grow(m.f64, n)
			if !m.seen[t] || m.better(floatCmp(o.f64[g], m.f64[t])) {
				m.f64[t] = o.f64[g]
			}
		case o.dec != nil:
			m.dec = grow(m.dec, n)
			if !m.seen[t] || m.better(o.dec[g].Cmp(m.dec[t])) {
				m.dec[t] = o.dec[g]
			}
		case o.str != nil:
			m.str = grow(m.str, n)
			if !m.seen[t] || m.better(strings.Compare(o.str[g], m.str[t])) {
				m.strBytes += int64(len(o.str[g]) - len(m.str[t]))
				m.str[t] = o.str[g]
			}
		case o.bln != nil:
			m.bln = grow(m.bln, n)
			if !m.seen[t] || m.better(boolCmp(o.bln[g], m.bln[t])) {
				m.bln[t] = o.bln[g]
			}
		default:
			return fmt.Errorf("merge min/max: a group seen without a value")
		}
		m.seen[t] = true
	}
	return nil
}
