package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// windowFunction computes a window-only function over sorted rows; args
// are its arguments in sorted order.
func windowFunction(ctx context.Context, name string, args []arrow.Array, frames *windowFrames) (arrow.Array, error) {
	r := frames.r
	switch name {
	case "row_number", "rank", "dense_rank":
		out := make([]int64, r.n)
		dense := int64(0)
		for i := range out {
			switch name {
			case "row_number":
				out[i] = int64(i - r.partStart[i] + 1)
			case "rank":
				out[i] = int64(r.peerStart[i] - r.partStart[i] + 1)
			default:
				if i == r.partStart[i] {
					dense = 0
				}
				if i == r.peerStart[i] {
					dense++
				}
				out[i] = dense
			}
		}
		return newFixed(arrow.PrimitiveTypes.Int64, out, nil, 0), nil
	case "percent_rank", "cume_dist":
		out := make([]float64, r.n)
		for i := range out {
			size := float64(r.partEnd[i] - r.partStart[i])
			if name == "cume_dist" {
				out[i] = float64(r.peerEnd[i]-r.partStart[i]) / size
			} else if size > 1 {
				out[i] = float64(r.peerStart[i]-r.partStart[i]) / (size - 1)
			}
		}
		return newFixed(arrow.PrimitiveTypes.Float64, out, nil, 0), nil
	case "ntile":
		return ntile(args[0], r)
	case "lag", "lead":
		return lagLead(ctx, name == "lag", args, r)
	case "first_value", "last_value", "nth_value":
		return frameValue(ctx, name, args, frames)
	}
	return nil, fmt.Errorf("window function %s cannot be executed", name)
}

// ntile follows PostgreSQL's window_ntile: the bucket count is read at
// the first row of the partition where it is not NULL, and the first
// total%buckets buckets get one row more.
func ntile(arg arrow.Array, r *windowRows) (arrow.Array, error) {
	buckets := intsOf(arg)
	out := make([]int32, r.n)
	valid := make([]byte, bitutil.BytesForBits(int64(r.n)))
	nulls := 0
	var tile, perBucket, boundary, remainder int64
	for i := 0; i < r.n; i++ {
		if i == r.partStart[i] {
			tile = 0
		}
		if tile == 0 {
			if arg.IsNull(i) {
				nulls++
				continue
			}
			nb := buckets[i]
			if nb <= 0 {
				return nil, pgerror.New("22014", "argument of ntile must be greater than zero")
			}
			total := int64(r.partEnd[i] - r.partStart[i])
			tile, perBucket, remainder = 1, 0, 0
			boundary = total / nb
			if boundary <= 0 {
				boundary = 1
			} else {
				remainder = total % nb
				if remainder != 0 {
					boundary++
				}
			}
		}
		perBucket++
		if boundary < perBucket {
			if remainder != 0 && tile == remainder {
				remainder = 0
				boundary--
			}
			tile++
			perBucket = 1
		}
		out[i] = int32(tile)
		bitutil.SetBit(valid, i)
	}
	return newFixed(arrow.PrimitiveTypes.Int32, out, valid, nulls), nil
}

// takeRows builds the result of a value function: row i takes row idx[i]
// of src, or NULL where idx[i] < 0.
func takeRows(ctx context.Context, src arrow.Array, idx []int32) (arrow.Array, error) {
	valid := make([]byte, bitutil.BytesForBits(int64(len(idx))))
	nulls := 0
	for i, v := range idx {
		if v < 0 {
			idx[i] = 0
			nulls++
			continue
		}
		bitutil.SetBit(valid, i)
	}
	if src.Len() == 0 {
		// Only possible with no rows at all.
		return array.MakeArrayOfNull(memory.DefaultAllocator, src.DataType(), len(idx)), nil
	}
	ia := newFixed(arrow.PrimitiveTypes.Int32, idx, valid, nulls)
	defer ia.Release()
	out, err := takeArray(ctx, src, ia)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	return out, nil
}

// lagLead reads the row offset rows before (lag) or after (lead) the
// current one in its partition; outside the partition the default
// (evaluated at the current row) or NULL. A NULL offset gives NULL.
func lagLead(ctx context.Context, lag bool, args []arrow.Array, r *windowRows) (arrow.Array, error) {
	src := args[0]
	idx := make([]int32, r.n)
	var offsets []int64
	if len(args) > 1 {
		offsets = intsOf(args[1])
	}
	if len(args) > 2 {
		both, err := array.Concatenate([]arrow.Array{args[0], args[2]}, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("window: %w", err)
		}
		defer both.Release()
		src = both
	}
	for i := range idx {
		off := int64(1)
		if offsets != nil {
			if args[1].IsNull(i) {
				idx[i] = -1
				continue
			}
			off = offsets[i]
		}
		if lag {
			off = -off
		}
		target := int64(i) + off
		switch {
		case target >= int64(r.partStart[i]) && target < int64(r.partEnd[i]):
			idx[i] = int32(target)
		case len(args) > 2:
			idx[i] = int32(r.n + i)
		default:
			idx[i] = -1
		}
	}
	return takeRows(ctx, src, idx)
}

// frameValue reads the first, last or nth row of each row's frame.
func frameValue(ctx context.Context, name string, args []arrow.Array, frames *windowFrames) (arrow.Array, error) {
	idx := make([]int32, frames.r.n)
	var nth []int64
	if name == "nth_value" {
		nth = intsOf(args[1])
	}
	var runs []span
	for i := range idx {
		runs = frames.spans(i, runs[:0])
		idx[i] = -1
		switch name {
		case "first_value":
			if len(runs) > 0 {
				idx[i] = int32(runs[0].lo)
			}
		case "last_value":
			if len(runs) > 0 {
				idx[i] = int32(runs[len(runs)-1].hi - 1)
			}
		default:
			if args[1].IsNull(i) {
				continue
			}
			if nth[i] <= 0 {
				return nil, pgerror.New("22016", "argument of nth_value must be greater than zero")
			}
			// Count through the frame's runs to the nth row.
			k := nth[i]
			for _, s := range runs {
				if k <= int64(s.hi-s.lo) {
					idx[i] = int32(int64(s.lo) + k - 1)
					break
				}
				k -= int64(s.hi - s.lo)
			}
		}
	}
	return takeRows(ctx, args[0], idx)
}
