package exec

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/sql/types"
)

// values returns the fixed-width values of a (offset applied).
func values[T arrow.FixedWidthType](a arrow.Array) []T {
	checkWidth[T](a.DataType())
	return arrow.GetValues[T](a.Data(), 1)
}

// checkWidth panics when values of dt are not T's width: taking a 64-bit
// decimal's values as 128-bit ones would misread memory silently.
func checkWidth[T arrow.FixedWidthType](dt arrow.DataType) {
	if fw, ok := dt.(arrow.FixedWidthDataType); ok {
		if bits := fw.BitWidth(); bits != 1 && bits != int(unsafe.Sizeof(*new(T)))*8 {
			panic(fmt.Sprintf("values of %s taken as %T", dt, *new(T)))
		}
	}
}

// newFixed wraps vals (and an optional validity bitmap) as an array.
func newFixed[T arrow.FixedWidthType](dt arrow.DataType, vals []T, validity []byte, nulls int) arrow.Array {
	checkWidth[T](dt)
	return newFixedOver(dt, len(vals), memory.NewBufferBytes(arrow.GetBytes(vals)), validity, nulls)
}

// newFixedOver wraps n values of type dt in vals (and an optional
// validity bitmap) as an array; it takes over the caller's reference to
// vals.
func newFixedOver(dt arrow.DataType, n int, vals *memory.Buffer, validity []byte, nulls int) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	data := array.NewData(dt, n, []*memory.Buffer{vb, vals}, nil, nulls, 0)
	vals.Release() // the data holds it now
	defer data.Release()
	return array.MakeFromData(data)
}

// newBool wraps a value bitmap (and an optional validity bitmap) as a
// boolean array of n values.
func newBool(n int, bits, validity []byte, nulls int) arrow.Array {
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	data := array.NewData(arrow.FixedWidthTypes.Boolean, n, []*memory.Buffer{vb, memory.NewBufferBytes(bits)}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// validity2 is the validity of a row of a binary operation: valid where
// both inputs are. It returns a nil bitmap when no row is NULL.
func validity2(l, r arrow.Array) ([]byte, int) {
	n := l.Len()
	if l.NullN() == 0 && r.NullN() == 0 {
		return nil, 0
	}
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	for i := 0; i < n; i++ {
		if l.IsValid(i) && r.IsValid(i) {
			bitutil.SetBit(out, i)
		} else {
			nulls++
		}
	}
	return out, nulls
}

// validity1 copies the validity of a unary operation's input.
func validity1(a arrow.Array) ([]byte, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	n := a.Len()
	out := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		if a.IsValid(i) {
			bitutil.SetBit(out, i)
		}
	}
	return out, a.NullN()
}

// validAt reports whether row i is valid in a bitmap from validity1/2.
func validAt(bitmap []byte, i int) bool {
	return bitmap == nil || bitutil.BitIsSet(bitmap, i)
}

// takeArray gathers a's rows at idx (an Int32 or Int64 array, nulls
// giving nulls). Non-null Int32 indices over the common types take the
// typed gather (kernel_gather.go); the rest go to Arrow's take kernel,
// which has no 16-byte fixed-width values, so month_day_nano intervals
// are gathered by takeIntervals.
func takeArray(ctx context.Context, a, idx arrow.Array) (arrow.Array, error) {
	if ix, ok := idx.(*array.Int32); ok && ix.NullN() == 0 {
		if g := gatherArray(a, ix.Int32Values(), batchBuffersFrom(ctx)); g != nil {
			return g, nil
		}
	}
	if iv, ok := a.(*array.MonthDayNanoInterval); ok {
		return takeIntervals(iv, idx)
	}
	if a.DataType().ID() == arrow.DECIMAL64 {
		ints := types.Retyped(a, arrow.PrimitiveTypes.Int64)
		defer ints.Release()
		out, err := compute.TakeArray(ctx, ints, idx)
		if err != nil {
			return nil, err
		}
		defer out.Release()
		return types.Retyped(out, a.DataType()), nil
	}
	return compute.TakeArray(ctx, a, idx)
}

// takeIntervals gathers intervals at idx, which may hold nulls.
func takeIntervals(iv *array.MonthDayNanoInterval, idx arrow.Array) (arrow.Array, error) {
	b := array.NewMonthDayNanoIntervalBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(idx.Len())
	for i := 0; i < idx.Len(); i++ {
		if idx.IsNull(i) {
			b.AppendNull()
			continue
		}
		var k int
		switch x := idx.(type) {
		case *array.Int32:
			k = int(x.Value(i))
		case *array.Int64:
			k = int(x.Value(i))
		case *array.Uint32:
			k = int(x.Value(i))
		case *array.Uint64:
			k = int(x.Value(i))
		default:
			return nil, fmt.Errorf("take with %s indices", idx.DataType())
		}
		if iv.IsNull(k) {
			b.AppendNull()
		} else {
			b.Append(iv.Value(k))
		}
	}
	return b.NewArray(), nil
}
