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
// accumulators of the Aggregate operator. Consecutive rows with the same
// frame share one result. When every frame starts at the partition's
// first row (running), frames only grow, so each row is fed once;
// likewise, backwards, when every frame ends at the partition's last row
// and the aggregate does not depend on the order it sees rows in (all but
// float sums); otherwise every distinct frame is a group of its own and
// its rows are fed to it, in order, as PostgreSQL re-aggregates a moving
// frame.
func windowAggregate(ctx context.Context, f *planner.WindowCall, arg arrow.Array, r *windowRows, start, end []int, frame planner.WindowFrame) (arrow.Array, error) {
	if frame.Start.Kind == planner.UnboundedPreceding {
		return runningAggregate(ctx, f, arg, r, end)
	}
	acc, err := newAccumulator(f.Agg)
	if err != nil {
		return nil, err
	}
	if _, floatSum := acc.(*floatSumAcc); !floatSum && frame.End.Kind == planner.UnboundedFollowing {
		return suffixAggregate(ctx, f, arg, r, start)
	}
	frameOf := make([]int32, r.n)
	var idx, groups []int32
	nframes := 0
	flush := func() error {
		if len(idx) == 0 {
			return nil
		}
		var taken arrow.Array
		if arg != nil {
			ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
			t, err := takeArray(ctx, arg, ia)
			ia.Release()
			if err != nil {
				return fmt.Errorf("window: %w", err)
			}
			defer t.Release()
			taken = t
		}
		if err := acc.update(groups, nframes, taken); err != nil {
			return err
		}
		idx, groups = idx[:0], groups[:0]
		return ctx.Err()
	}
	for i := 0; i < r.n; i++ {
		if i > r.partStart[i] && start[i] == start[i-1] && end[i] == end[i-1] {
			frameOf[i] = frameOf[i-1]
			continue
		}
		frameOf[i] = int32(nframes)
		nframes++
		for j := start[i]; j < end[i]; j++ {
			idx = append(idx, int32(j))
			groups = append(groups, frameOf[i])
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
	if r.n == 0 {
		return array.MakeArrayOfNull(memory.DefaultAllocator, f.Out.Type.Arrow(), 0), nil
	}
	fa := newFixed(arrow.PrimitiveTypes.Int32, frameOf, nil, 0)
	defer fa.Release()
	out, err := takeArray(ctx, res, fa)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	return out, nil
}

// runningAggregate feeds each partition's rows to one accumulator as the
// frame end advances and reads the result at every distinct end.
func runningAggregate(ctx context.Context, f *planner.WindowCall, arg arrow.Array, r *windowRows, end []int) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, f.Out.Type.Arrow())
	defer bld.Release()
	zeros := make([]int32, r.n)
	var acc accumulator
	fed := 0
	for i := 0; i < r.n; {
		if i == r.partStart[i] {
			var err error
			if acc, err = newAccumulator(f.Agg); err != nil {
				return nil, err
			}
			fed = i
		}
		if end[i] > fed {
			var part arrow.Array
			if arg != nil {
				part = array.NewSlice(arg, int64(fed), int64(end[i]))
			}
			err := acc.update(zeros[:end[i]-fed], 1, part)
			if part != nil {
				part.Release()
			}
			if err != nil {
				return nil, err
			}
			fed = end[i]
		}
		res, err := acc.result(1)
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
func suffixAggregate(ctx context.Context, f *planner.WindowCall, arg arrow.Array, r *windowRows, start []int) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, f.Out.Type.Arrow())
	defer bld.Release()
	zeros := make([]int32, r.n)
	var acc accumulator
	fed := 0 // rows [fed, partition end) have been fed
	for i := r.n - 1; i >= 0; {
		if i == r.partEnd[i]-1 {
			var err error
			if acc, err = newAccumulator(f.Agg); err != nil {
				return nil, err
			}
			fed = r.partEnd[i]
		}
		if start[i] < fed {
			var part arrow.Array
			if arg != nil {
				part = array.NewSlice(arg, int64(start[i]), int64(fed))
			}
			err := acc.update(zeros[:fed-start[i]], 1, part)
			if part != nil {
				part.Release()
			}
			if err != nil {
				return nil, err
			}
			fed = start[i]
		}
		res, err := acc.result(1)
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
	if r.n == 0 {
		reversed.Retain()
		return reversed, nil
	}
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
