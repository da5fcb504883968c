package exec

import (
	"context"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/storage/bufferpool"
)

// Gathering rows by index over the typed buffers: what a filter and a
// short-circuit AND / OR do with every batch. Arrow's take kernel goes
// through its generic executor and, for decimals, a fixed-size-binary
// path byte by byte; these loops copy the values directly.

// selection lists the rows where mask is true (not false, not NULL) into
// dst, reusing its capacity.
func selection(dst []int32, mask *array.Boolean) []int32 {
	dst = dst[:0]
	n := mask.Len()
	if mask.NullN() == 0 {
		for i := 0; i < n; i++ {
			if mask.Value(i) {
				dst = append(dst, int32(i))
			}
		}
		return dst
	}
	for i := 0; i < n; i++ {
		if mask.IsValid(i) && mask.Value(i) {
			dst = append(dst, int32(i))
		}
	}
	return dst
}

// gatherColumns gathers rows idx of each column (through takeArray,
// which uses the typed gather where it can).
func gatherColumns(ctx context.Context, cols []arrow.Array, idx []int32) ([]arrow.Array, error) {
	out := make([]arrow.Array, 0, len(cols))
	ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
	defer ia.Release()
	for _, c := range cols {
		a, err := takeArray(ctx, c, ia)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// consecutive reports whether idx, not empty, is a run of rows k, k+1, ...
func consecutive(idx []int32) bool {
	if len(idx) == 0 {
		return false
	}
	first := idx[0]
	for i, r := range idx {
		if r != first+int32(i) {
			return false
		}
	}
	return true
}

// gatherArray gathers rows idx of a, fixed-width values into buffers of
// pool when it is not nil, or returns nil for a type it does not handle
// (the caller then uses Arrow's take).
func gatherArray(a arrow.Array, idx []int32, pool *bufferpool.Pool) arrow.Array {
	switch a.DataType().ID() {
	case arrow.INT16:
		return gatherFixed[int16](a, idx, pool)
	case arrow.INT32, arrow.DATE32:
		return gatherFixed[int32](a, idx, pool)
	case arrow.UINT32:
		return gatherFixed[uint32](a, idx, pool)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		return gatherFixed[int64](a, idx, pool)
	case arrow.FLOAT32:
		return gatherFixed[float32](a, idx, pool)
	case arrow.FLOAT64:
		return gatherFixed[float64](a, idx, pool)
	case arrow.DECIMAL128:
		return gatherFixed[decimal128.Num](a, idx, pool)
	case arrow.DECIMAL64:
		return gatherFixed[int64](a, idx, pool)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		return gatherFixed[arrow.MonthDayNanoInterval](a, idx, pool)
	case arrow.BOOL:
		return gatherBool(a.(*array.Boolean), idx)
	case arrow.STRING:
		return gatherString(a.(*array.String), idx)
	}
	return nil
}

// gatherFixed gathers rows idx of a fixed-width array, into a buffer of
// pool when it is not nil.
func gatherFixed[T arrow.FixedWidthType](a arrow.Array, idx []int32, pool *bufferpool.Pool) arrow.Array {
	in := values[T](a)
	var out []T
	var buf *memory.Buffer
	if pool != nil {
		b := pool.Get(len(idx) * int(unsafe.Sizeof(*new(T))))
		out = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(idx))
		buf = pool.Buffer(b)
	} else {
		out = make([]T, len(idx))
		buf = memory.NewBufferBytes(arrow.GetBytes(out))
	}
	// Copying runs (as gatherString does) measured slower here: moving
	// one value costs no more than testing whether a run goes on.
	for k, i := range idx {
		out[k] = in[i]
	}
	validity, nulls := gatherValidity(a, idx)
	return newFixedOver(a.DataType(), len(idx), buf, validity, nulls)
}

// mostlyRuns reports whether idx (ascending, as a filter's selection is)
// keeps at least half the rows it spans: its rows then come in runs
// long enough that copying each run's bytes beats moving each value's.
func mostlyRuns(idx []int32) bool {
	n := len(idx)
	return n >= 16 && idx[n-1] > idx[0] && int64(idx[n-1]-idx[0]) < 2*int64(n)
}

// runEnd is the end of the run of consecutive rows idx[k], idx[k]+1, ...
// that starts at k.
func runEnd(idx []int32, k int) int {
	j := k + 1
	for j < len(idx) && idx[j] == idx[k]+int32(j-k) {
		j++
	}
	return j
}

func gatherBool(a *array.Boolean, idx []int32) arrow.Array {
	bits := make([]byte, bitutil.BytesForBits(int64(len(idx))))
	for k, i := range idx {
		if a.Value(int(i)) {
			bitutil.SetBit(bits, k)
		}
	}
	validity, nulls := gatherValidity(a, idx)
	return newBool(len(idx), bits, validity, nulls)
}

func gatherString(a *array.String, idx []int32) arrow.Array {
	// Straight from the offsets and bytes: flags and codes of one or two
	// bytes are common, where a call per value would cost more than the
	// copy.
	src, vals := a.ValueOffsets(), a.ValueBytes()
	base := src[0]
	offsets := make([]int32, len(idx)+1)
	size := int32(0)
	for k, i := range idx {
		size += src[i+1] - src[i]
		offsets[k+1] = size
	}
	data := make([]byte, size)
	if mostlyRuns(idx) {
		// A run's bytes are contiguous: one copy each.
		for k := 0; k < len(idx); {
			j := runEnd(idx, k)
			first, last := idx[k], idx[j-1]
			copy(data[offsets[k]:], vals[src[first]-base:src[last+1]-base])
			k = j
		}
	} else {
		for k, i := range idx {
			from, to, at := src[i]-base, src[i+1]-base, offsets[k]
			if to-from <= 8 {
				for ; from < to; from, at = from+1, at+1 {
					data[at] = vals[from]
				}
				continue
			}
			copy(data[at:], vals[from:to])
		}
	}
	validity, nulls := gatherValidity(a, idx)
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	d := array.NewData(a.DataType(), len(idx), []*memory.Buffer{vb,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// gatherValidity is the validity bitmap of rows idx of a, nil when none
// of them is NULL.
func gatherValidity(a arrow.Array, idx []int32) ([]byte, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	bits := make([]byte, bitutil.BytesForBits(int64(len(idx))))
	nulls := 0
	for k, i := range idx {
		if a.IsValid(int(i)) {
			bitutil.SetBit(bits, k)
		} else {
			nulls++
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return bits, nulls
}
