package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// frameChunkRows bounds how many (frame, row) pairs are gathered before
// they are fed to an accumulator.
const frameChunkRows = 1 << 16

// windowAggregate computes an aggregate over each row's frame with the
// accumulators of the Aggregate operator; inputs are the call's argument,
// delimiter and filter (those it has, in that order) in sorted order.
// Consecutive rows with the same frame share one result. When every frame
// is a run of rows from its partition's first row (frames that only grow)
// each row is fed once, and the result read as the frame grows; likewise,
// backwards, for runs to the partition's last row when the aggregate does
// not depend on the order it sees rows in. Otherwise every distinct frame
// is a group of its own and its rows are fed to it, in order, as
// PostgreSQL re-aggregates a frame that moves or has a hole (EXCLUDE).
func windowAggregate(ctx context.Context, f *planner.WindowCall, inputs []arrow.Array, frames *windowFrames) (arrow.Array, error) {
	acc, err := newAccumulator(f.Agg)
	if err != nil {
		return nil, err
	}
	feed, err := newAggFeed(ctx, f.Agg, inputs, frames.r.n)
	if err != nil {
		return nil, err
	}
	defer feed.release()
	r := frames.r
	if r.n == 0 {
		return array.MakeArrayOfNull(memory.DefaultAllocator, f.Out.Type.Arrow(), 0), nil
	}
	// array_agg's result hands over the rows it kept, so it cannot be
	// read again as a frame grows.
	_, consumes := acc.(*arrayAggAcc)
	if !consumes {
		if ends, ok := frames.prefixes(); ok {
			return runningAggregate(ctx, f, feed, r, ends)
		}
		if starts, ok := frames.suffixes(); ok && orderFree(f.Agg, acc) {
			return suffixAggregate(ctx, f, feed, r, starts)
		}
	}
	feed.acc = acc
	frameOf := make([]int32, r.n)
	var idx, groups []int32
	nframes := 0
	flush := func() error {
		if len(idx) == 0 {
			return nil
		}
		if err := feed.take(ctx, groups, nframes, idx); err != nil {
			return err
		}
		idx, groups = idx[:0], groups[:0]
		return ctx.Err()
	}
	var cur, prev []span
	for i := 0; i < r.n; i++ {
		cur = frames.spans(i, cur[:0])
		if i > r.partStart[i] && sameSpans(cur, prev) {
			frameOf[i] = frameOf[i-1]
			continue
		}
		cur, prev = prev, cur
		frameOf[i] = int32(nframes)
		nframes++
		for _, s := range prev {
			for j, hi := feed.at(s.lo), feed.at(s.hi); j < hi; j++ {
				idx = append(idx, int32(j))
				groups = append(groups, frameOf[i])
			}
		}
		if len(idx) >= frameChunkRows {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	res, err := acc.result(nframes)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	fa := newFixed(arrow.PrimitiveTypes.Int32, frameOf, nil, 0)
	defer fa.Release()
	out, err := takeArray(ctx, res, fa)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	return out, nil
}

func sameSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// orderFree reports whether an aggregate's result does not depend on the
// order it is fed rows in: not for the collecting aggregates, nor for
// float sums and variances, whose rounding does.
func orderFree(a *planner.AggCall, acc accumulator) bool {
	switch acc.(type) {
	case *floatSumAcc, *floatStatsAcc:
		return false
	}
	return !a.Func.OrderSensitive
}

// runningAggregate feeds each partition's rows to one accumulator as the
// frame end advances and reads the result at every distinct end.
func runningAggregate(ctx context.Context, f *planner.WindowCall, feed *aggFeed, r *windowRows, end []int) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, f.Out.Type.Arrow())
	defer bld.Release()
	fed := 0 // kept rows [partition start, fed) have been fed
	for i := 0; i < r.n; {
		if i == r.partStart[i] {
			acc, err := newAccumulator(f.Agg)
			if err != nil {
				return nil, err
			}
			feed.acc = acc
			fed = feed.at(i)
		}
		if e := feed.at(end[i]); e > fed {
			if err := feed.run(fed, e); err != nil {
				return nil, err
			}
			fed = e
		}
		res, err := feed.acc.result(1)
		if err != nil {
			return nil, err
		}
		// Every following row of the partition with the same frame end
		// has the same result.
		j := i
		for ; j < r.partEnd[i] && end[j] == end[i]; j++ {
			appendValue(bld, res, 0)
		}
		res.Release()
		i = j
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// suffixAggregate is runningAggregate backwards, for frames that end at
// the partition's last row: each partition's rows are fed from the end as
// the frame start moves back, and the results, built last row first, are
// reversed.
func suffixAggregate(ctx context.Context, f *planner.WindowCall, feed *aggFeed, r *windowRows, start []int) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, f.Out.Type.Arrow())
	defer bld.Release()
	fed := 0 // kept rows [fed, partition end) have been fed
	for i := r.n - 1; i >= 0; {
		if i == r.partEnd[i]-1 {
			acc, err := newAccumulator(f.Agg)
			if err != nil {
				return nil, err
			}
			feed.acc = acc
			fed = feed.at(r.partEnd[i])
		}
		if s := feed.at(start[i]); s < fed {
			if err := feed.run(s, fed); err != nil {
				return nil, err
			}
			fed = s
		}
		res, err := feed.acc.result(1)
		if err != nil {
			return nil, err
		}
		j := i
		for ; j >= r.partStart[i] && start[j] == start[i]; j-- {
			appendValue(bld, res, 0)
		}
		res.Release()
		i = j
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	reversed := bld.NewArray()
	defer reversed.Release()
	idx := make([]int32, r.n)
	for k := range idx {
		idx[k] = int32(r.n - 1 - k)
	}
	ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
	defer ia.Release()
	out, err := takeArray(ctx, reversed, ia)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	return out, nil
}

// prefixes gives each row's frame end when every frame is one run of
// rows from its partition's first row (or empty) and the ends never move
// back within a partition: frames that only grow.
func (f *windowFrames) prefixes() ([]int, bool) {
	r := f.r
	ends := make([]int, r.n)
	var buf []span
	for i := 0; i < r.n; i++ {
		buf = f.spans(i, buf[:0])
		switch {
		case len(buf) == 0:
			ends[i] = r.partStart[i]
		case len(buf) == 1 && buf[0].lo == r.partStart[i]:
			ends[i] = buf[0].hi
		default:
			return nil, false
		}
		if i > r.partStart[i] && ends[i] < ends[i-1] {
			return nil, false
		}
	}
	return ends, true
}

// suffixes gives each row's frame start when every frame is one run of
// rows to its partition's last row (or empty) and the starts never move
// back within a partition.
func (f *windowFrames) suffixes() ([]int, bool) {
	r := f.r
	starts := make([]int, r.n)
	var buf []span
	for i := 0; i < r.n; i++ {
		buf = f.spans(i, buf[:0])
		switch {
		case len(buf) == 0:
			starts[i] = r.partEnd[i]
		case len(buf) == 1 && buf[0].hi == r.partEnd[i]:
			starts[i] = buf[0].lo
		default:
			return nil, false
		}
		if i > r.partStart[i] && starts[i] < starts[i-1] {
			return nil, false
		}
	}
	return starts, true
}
