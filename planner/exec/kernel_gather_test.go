package exec

import (
	"context"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage/bufferpool"
)

// TestGatherMatchesArrowTake checks every type gatherArray handles
// against Arrow's take kernel, with NULLs and on a sliced array.
func TestGatherMatchesArrowTake(t *testing.T) {
	mem := memory.DefaultAllocator
	build := func(dt arrow.DataType, fill func(array.Builder, int)) arrow.Array {
		b := array.NewBuilder(mem, dt)
		defer b.Release()
		for i := 0; i < 40; i++ {
			if i%7 == 3 {
				b.AppendNull()
				continue
			}
			fill(b, i)
		}
		return b.NewArray()
	}
	cols := map[string]arrow.Array{
		"int16":   build(arrow.PrimitiveTypes.Int16, func(b array.Builder, i int) { b.(*array.Int16Builder).Append(int16(i * 3)) }),
		"int32":   build(arrow.PrimitiveTypes.Int32, func(b array.Builder, i int) { b.(*array.Int32Builder).Append(int32(-i)) }),
		"int64":   build(arrow.PrimitiveTypes.Int64, func(b array.Builder, i int) { b.(*array.Int64Builder).Append(int64(i) << 40) }),
		"float64": build(arrow.PrimitiveTypes.Float64, func(b array.Builder, i int) { b.(*array.Float64Builder).Append(float64(i) / 3) }),
		"date32":  build(arrow.FixedWidthTypes.Date32, func(b array.Builder, i int) { b.(*array.Date32Builder).Append(arrow.Date32(i)) }),
		"decimal": build(&arrow.Decimal128Type{Precision: 25, Scale: 2}, func(b array.Builder, i int) {
			b.(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i) * 101))
		}),
		"decimal64": build(&arrow.Decimal64Type{Precision: 15, Scale: 2}, func(b array.Builder, i int) {
			b.(*array.Decimal64Builder).Append(decimal.Decimal64(int64(i) * 101))
		}),
		"bool":   build(arrow.FixedWidthTypes.Boolean, func(b array.Builder, i int) { b.(*array.BooleanBuilder).Append(i%3 == 0) }),
		"string": build(arrow.BinaryTypes.String, func(b array.Builder, i int) { b.(*array.StringBuilder).Append(string(rune('a'+i%26)) + "xy"[:i%3]) }),
	}
	// A few scattered rows, and most rows in runs (as a filter that keeps
	// most rows selects them), a row repeated among them.
	scattered := []int32{0, 3, 4, 4, 9, 10, 17, 24, 31, 32}
	var runs []int32
	for i := int32(0); i < 33; i++ {
		switch i {
		case 11, 20:
		case 25:
			runs = append(runs, i, i)
		default:
			runs = append(runs, i)
		}
	}
	for name, col := range cols {
		for _, tc := range []struct {
			idx    []int32
			sliced bool
			pool   *bufferpool.Pool
		}{{scattered, false, nil}, {scattered, true, nil}, {runs, false, nil}, {runs, true, nil},
			{scattered, false, bufferpool.New()}, {runs, true, bufferpool.New()}} {
			idx, sliced := tc.idx, tc.sliced
			a := col
			if sliced {
				a = array.NewSlice(col, 5, 38)
			}
			got := gatherArray(a, idx, tc.pool)
			ia := newFixed(arrow.PrimitiveTypes.Int32, idx, nil, 0)
			// The reference is Arrow's take kernel (intervals, which it
			// lacks, through takeIntervals), not takeArray, which now
			// gathers through gatherArray itself.
			var want arrow.Array
			var err error
			if iv, ok := a.(*array.MonthDayNanoInterval); ok {
				want, err = takeIntervals(iv, ia)
			} else if a.DataType().ID() == arrow.DECIMAL64 {
				// Arrow has no take of decimal64: its int64 values'.
				ints := types.Retyped(a, arrow.PrimitiveTypes.Int64)
				var took arrow.Array
				if took, err = compute.TakeArray(context.Background(), ints, ia); err == nil {
					want = types.Retyped(took, a.DataType())
					took.Release()
				}
				ints.Release()
			} else {
				want, err = compute.TakeArray(context.Background(), a, ia)
			}
			ia.Release()
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || !array.Equal(got, want) {
				t.Errorf("%s (sliced %v, %d rows): got %v, want %v", name, sliced, len(idx), got, want)
			}
			if got != nil {
				got.Release()
			}
			want.Release()
			if sliced {
				a.Release()
			}
		}
		col.Release()
	}
}

func TestSelectionSkipsFalseAndNull(t *testing.T) {
	b := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]bool{true, false, true, true, false}, []bool{true, true, false, true, true})
	m := b.NewBooleanArray()
	defer m.Release()
	got := selection(nil, m)
	if len(got) != 2 || got[0] != 0 || got[1] != 3 {
		t.Fatalf("selection = %v, want [0 3]", got)
	}
}

// BenchmarkGatherShortStrings: the rows a filter keeping 98% of a batch
// leaves of a one-letter flag column (TPC-H Q1's l_returnflag).
func BenchmarkGatherShortStrings(b *testing.B) {
	const n = 65536
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for i := range n {
		bld.Append(string(rune('A' + i%3)))
	}
	a := bld.NewStringArray()
	defer a.Release()
	var idx []int32
	for i := range int32(n) {
		if i%50 != 0 {
			idx = append(idx, i)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		out := gatherString(a, idx)
		if out.Len() != len(idx) {
			b.Fatalf("%d rows, want %d", out.Len(), len(idx))
		}
		out.Release()
	}
}

func TestConsecutive(t *testing.T) {
	for _, tc := range []struct {
		idx  []int32
		want bool
	}{
		{nil, false},
		{[]int32{4}, true},
		{[]int32{0, 1, 2, 3}, true},
		{[]int32{7, 8, 9}, true},
		{[]int32{0, 2, 3}, false},
		{[]int32{3, 2}, false},
		{[]int32{1, 1}, false},
	} {
		if got := consecutive(tc.idx); got != tc.want {
			t.Errorf("consecutive(%v) = %v, want %v", tc.idx, got, tc.want)
		}
	}
}

// BenchmarkGatherInt64: the rows a filter keeping 98% of a batch
// leaves of an integer column (Q1's quantities and prices).
func BenchmarkGatherInt64(b *testing.B) {
	const n = 65536
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range n {
		bld.Append(int64(i))
	}
	a := bld.NewInt64Array()
	defer a.Release()
	var idx []int32
	for i := range int32(n) {
		if i%50 != 0 {
			idx = append(idx, i)
		}
	}
	pool := bufferpool.New()
	b.ReportAllocs()
	for b.Loop() {
		out := gatherFixed[int64](a, idx, pool)
		if out.Len() != len(idx) {
			b.Fatalf("%d rows, want %d", out.Len(), len(idx))
		}
		out.Release()
	}
}
