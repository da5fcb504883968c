package exec

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// BenchmarkMaskShowLast4 runs MASK_SHOW_LAST_4 as a column mask policy
// calls it (mask_show_last_n(ssn, 4, 'x', 'x', 'x', -1, '1'), the options
// constant) over a batch of social security numbers.
func BenchmarkMaskShowLast4(b *testing.B) {
	const n = benchBatchRows
	vals := array.NewStringBuilder(memory.DefaultAllocator)
	defer vals.Release()
	for i := range n {
		v := 100_000_000 + i*7919%900_000_000
		vals.Append(fmt.Sprintf("%03d-%02d-%04d", v/1_000_000, v/10_000%100, v%10_000))
	}
	constInt := func(v int64) arrow.Array {
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		defer bld.Release()
		for range n {
			bld.Append(v)
		}
		return bld.NewArray()
	}
	constText := func(v string) arrow.Array {
		bld := array.NewStringBuilder(memory.DefaultAllocator)
		defer bld.Release()
		for range n {
			bld.Append(v)
		}
		return bld.NewArray()
	}
	args := []arrow.Array{vals.NewArray(), constInt(4), constText("x"), constText("x"), constText("x"), constInt(-1), constText("1")}
	defer func() {
		for _, a := range args {
			a.Release()
		}
	}()
	mask, _ := maskKernel("mask_show_last_n")
	b.SetBytes(int64(len(args[0].(*array.String).ValueBytes())))
	b.ResetTimer()
	for b.Loop() {
		out, err := mask(args, types.Text)
		if err != nil {
			b.Fatal(err)
		}
		if got := out.(*array.String).Value(0); got != "xxx-xx-"+args[0].(*array.String).Value(0)[7:] {
			b.Fatalf("masked %q", got)
		}
		out.Release()
	}
}
