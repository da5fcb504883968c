package exec

import (
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// TestMaskKernelsAllocatePerBatch checks that the mask kernels allocate
// per batch, not per row: a batch of 1000 rows costs no more allocations
// than one of 10.
func TestMaskKernelsAllocatePerBatch(t *testing.T) {
	strs := func(n int) arrow.Array {
		vals := make([]any, n)
		for i := range vals {
			vals[i] = strconv.Itoa(100000000+i) + "-Ab"
		}
		return stringArray(t, vals)
	}
	ints := func(n int) arrow.Array {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		for i := 0; i < n; i++ {
			b.Append(int64(i) * 7919)
		}
		return b.NewArray()
	}
	dates := func(n int) arrow.Array {
		b := array.NewDate32Builder(memory.DefaultAllocator)
		defer b.Release()
		for i := 0; i < n; i++ {
			b.Append(arrow.Date32(i * 13))
		}
		return b.NewArray()
	}
	mask, _ := maskKernel("mask_show_last_n")
	count := func(n int) arrow.Array {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		for i := 0; i < n; i++ {
			b.Append(4)
		}
		return b.NewArray()
	}
	tests := []struct {
		name   string
		values func(int) arrow.Array
		res    types.T
		run    func(args []arrow.Array, res types.T) (arrow.Array, error)
	}{
		{"text", strs, types.Text, mask},
		{"int8", ints, types.Int8, mask},
		{"date", dates, types.Date, mask},
		{"mask_hash keyed", strs, types.Text, func(a []arrow.Array, res types.T) (arrow.Array, error) {
			return maskHash([]byte("key"), a[:1], res)
		}},
	}
	for _, tc := range tests {
		allocs := func(n int) float64 {
			args := []arrow.Array{tc.values(n), count(n)}
			return testing.AllocsPerRun(20, func() {
				out, err := tc.run(args, tc.res)
				if err != nil {
					t.Fatal(err)
				}
				out.Release()
			})
		}
		small, large := allocs(10), allocs(1000)
		t.Logf("%s: %v allocations for 10 rows, %v for 1000", tc.name, small, large)
		if large > small+4 {
			t.Errorf("%s: %v allocations for 10 rows, %v for 1000", tc.name, small, large)
		}
	}
}
