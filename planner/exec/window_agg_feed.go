package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// aggFeed hands a window aggregate's rows to its accumulator: runs of
// rows for frames that grow, gathered rows for the others. A FILTER is
// applied once, up front: arg and delim then hold only the rows it
// accepts, and pos maps a row position to the number of accepted rows
// before it, so that a run of rows stays a run of accepted rows.
type aggFeed struct {
	acc        accumulator
	arg, delim arrow.Array // nil when the call has none (count(*))
	pos        []int       // nil when every row is accepted
	rows       int         // the accepted rows
	zeros      []int32     // group 0 for every row of a run
}

// newAggFeed reads the call's inputs over n rows: its argument,
// delimiter and filter, those it has, in that order.
func newAggFeed(ctx context.Context, a *planner.AggCall, inputs []arrow.Array, n int) (*aggFeed, error) {
	f := &aggFeed{rows: n}
	next := func(e planner.Expr) arrow.Array {
		if e == nil || len(inputs) == 0 {
			return nil
		}
		in := inputs[0]
		inputs = inputs[1:]
		return in
	}
	f.arg, f.delim = next(a.Arg), next(a.Delim)
	filter := next(a.Filter)
	for _, in := range []arrow.Array{f.arg, f.delim} {
		if in != nil {
			in.Retain()
		}
	}
	if filter == nil {
		return f, nil
	}
	keep, ok := filter.(*array.Boolean)
	if !ok {
		f.release()
		return nil, fmt.Errorf("window: FILTER of %s is %s", a, filter.DataType())
	}
	f.pos = make([]int, n+1)
	kept := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		f.pos[i] = len(kept)
		if keep.IsValid(i) && keep.Value(i) {
			kept = append(kept, int32(i))
		}
	}
	f.pos[n], f.rows = len(kept), len(kept)
	if len(kept) == n {
		return f, nil
	}
	idx := newFixed(arrow.PrimitiveTypes.Int32, kept, nil, 0)
	defer idx.Release()
	for _, in := range []*arrow.Array{&f.arg, &f.delim} {
		if *in == nil {
			continue
		}
		t, err := takeArray(ctx, *in, idx)
		if err != nil {
			f.release()
			return nil, fmt.Errorf("window filter: %w", err)
		}
		(*in).Release()
		*in = t
	}
	return f, nil
}

// at is the number of accepted rows before row position i.
func (f *aggFeed) at(i int) int {
	if f.pos == nil {
		return i
	}
	return f.pos[i]
}

// run feeds accepted rows [lo, hi) to group 0 of the accumulator.
func (f *aggFeed) run(lo, hi int) error {
	if f.zeros == nil {
		f.zeros = make([]int32, f.rows)
	}
	slice := func(a arrow.Array) arrow.Array {
		if a == nil {
			return nil
		}
		return array.NewSlice(a, int64(lo), int64(hi))
	}
	arg, delim := slice(f.arg), slice(f.delim)
	defer releaseAll([]arrow.Array{arg, delim})
	return f.update(f.zeros[:hi-lo], 1, arg, delim)
}

// take feeds accepted rows idx to groups, of n so far.
func (f *aggFeed) take(ctx context.Context, groups []int32, n int, idx []int32) error {
	ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
	defer ia.Release()
	gather := func(a arrow.Array) (arrow.Array, error) {
		if a == nil {
			return nil, nil
		}
		t, err := takeArray(ctx, a, ia)
		if err != nil {
			return nil, fmt.Errorf("window: %w", err)
		}
		return t, nil
	}
	arg, err := gather(f.arg)
	if err != nil {
		return err
	}
	delim, err := gather(f.delim)
	defer releaseAll([]arrow.Array{arg, delim})
	if err != nil {
		return err
	}
	return f.update(groups, n, arg, delim)
}

func (f *aggFeed) update(groups []int32, n int, arg, delim arrow.Array) error {
	if delim == nil {
		return f.acc.update(groups, n, arg)
	}
	da, ok := f.acc.(delimitedAccumulator)
	if !ok {
		return fmt.Errorf("window: aggregate takes no delimiter")
	}
	return da.updateDelimited(groups, n, arg, delim)
}

func (f *aggFeed) release() {
	releaseAll([]arrow.Array{f.arg, f.delim})
	f.arg, f.delim = nil, nil
}
