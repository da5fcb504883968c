package exec

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// sampleBlockRows is how many consecutive rows SYSTEM keeps or drops
// together: its stand-in for PostgreSQL's page.
const sampleBlockRows = 1024

// sample is TABLESAMPLE over a table's secured relation. The k-th row to
// reach it (counting from 0, over the whole input) is kept when the k-th
// number of a SplitMix64 stream seeded by the sample's seed falls below
// the percentage: BERNOULLI draws per row, SYSTEM per block of
// sampleBlockRows rows (k / sampleBlockRows). The number is computed from
// the seed and k alone, so a row's fate depends neither on batch
// boundaries nor on any row the barrier below hid: the input counts
// only the rows the caller may see. Each batch gets a selection of the
// rows it keeps, in a buffer reused from batch to batch.
type sample struct {
	input  Operator
	node   *planner.Sample
	opened bool
	// seed is the stream's; cut the bound below which a draw's top 53
	// bits keep a row (0 keeps none, 1<<53 every one).
	seed, cut uint64
	// next is the ordinal of the next input row.
	next uint64
	sel  []int32
}

func newSample(in Operator, n *planner.Sample) *sample {
	return &sample{input: in, node: n}
}

// open evaluates the percentage and the seed, with PostgreSQL's errors.
func (s *sample) open(ctx context.Context) error {
	percent, seed, err := SampleArguments(ctx, s.node)
	if err != nil {
		return err
	}
	if s.node.Seed != nil {
		s.seed = splitMix(math.Float64bits(seed))
	} else {
		s.seed = rand.Uint64()
	}
	s.cut = uint64(percent / 100 * (1 << 53))
	return nil
}

// SampleArguments evaluates a sample's percentage and seed (0 without
// REPEATABLE) and checks them as PostgreSQL does, with its errors in its
// order: a NULL percentage, a NULL seed, then a percentage outside 0 to
// 100 (NaN included). The SQL writer checks a sample with it too, so
// that a statement sent elsewhere fails as it fails here.
func SampleArguments(ctx context.Context, n *planner.Sample) (percent, seed float64, err error) {
	percent, null, err := sampleArgument(ctx, n.Percent)
	if err != nil {
		return 0, 0, err
	}
	if null {
		return 0, 0, pgerror.New(pgerror.InvalidTablesampleArgument, "TABLESAMPLE parameter cannot be null")
	}
	if n.Seed != nil {
		if seed, null, err = sampleArgument(ctx, n.Seed); err != nil {
			return 0, 0, err
		}
		if null {
			return 0, 0, pgerror.New(pgerror.InvalidTablesampleRepeat, "TABLESAMPLE REPEATABLE parameter cannot be null")
		}
	}
	if !(percent >= 0 && percent <= 100) {
		return 0, 0, pgerror.New(pgerror.InvalidTablesampleArgument, "sample percentage must be between 0 and 100")
	}
	return percent, seed, nil
}

func (s *sample) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.opened {
		if err := s.open(ctx); err != nil {
			return nil, err
		}
		s.opened = true
	}
	for {
		b, err := s.input.Next(ctx)
		if b == nil || err != nil {
			return nil, err
		}
		n := int(b.NumRows())
		sel := s.keep(n)
		s.next += uint64(n)
		switch len(sel) {
		case 0:
			b.Release()
			continue
		case n:
			return b, nil
		}
		out, err := takeBatch(ctx, b, sel)
		b.Release()
		return out, err
	}
}

// keep selects which of the next n input rows the sample keeps.
func (s *sample) keep(n int) []int32 {
	s.sel = s.sel[:0]
	for i := 0; i < n; i++ {
		k := s.next + uint64(i)
		if s.node.Method == planner.SampleSystem {
			k /= sampleBlockRows
		}
		if splitMix(s.seed+k*splitMixGamma)>>11 < s.cut {
			s.sel = append(s.sel, int32(i))
		}
	}
	return s.sel
}

func (s *sample) Close() { s.input.Close() }

// splitMixGamma is SplitMix64's increment: the k-th number of the stream
// seeded by seed is splitMix(seed + k*splitMixGamma).
const splitMixGamma = 0x9e3779b97f4a7c15

// splitMix is SplitMix64's output function, a bijection that spreads
// neighbouring inputs over all 64 bits.
func splitMix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// sampleArgument evaluates an expression over no columns to a float; null
// reports NULL.
func sampleArgument(ctx context.Context, e planner.Expr) (float64, bool, error) {
	return constantOf[float64](ctx, e, "sample argument")
}
