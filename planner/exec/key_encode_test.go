package exec

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// TestKeyEncoderMatchesAppendKey: the column-wise encoding of a batch's
// keys is, row by row, the bytes appendKey writes, for every key type,
// with and without NULLs, and for arrays that are slices of others.
func TestKeyEncoderMatchesAppendKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const rows = 300
	gen := map[string]struct {
		typ  types.T
		make func() any
	}{
		"int2":      {types.Int2, func() any { return int64(rng.IntN(7) - 3) }},
		"int4":      {types.Int4, func() any { return int64(rng.Int32()) }},
		"int8":      {types.Int8, func() any { return rng.Int64() - math.MaxInt64/2 }},
		"date":      {types.Date, func() any { return int32(rng.IntN(20000)) }},
		"timestamp": {types.Timestamp, func() any { return rng.Int64() }},
		"numeric":   {numeric382, func() any { return decimal128.New(int64(rng.IntN(3)-1), rng.Uint64()) }},
		"numeric64": {numeric152, func() any { return decimal128.FromI64(rng.Int64()) }},
		"float8":    {types.Float8, func() any { return []float64{0, math.Copysign(0, -1), math.NaN(), 1.5, -2}[rng.IntN(5)] }},
		"float4":    {types.Float4, func() any { return []float64{0, 1.5, math.NaN()}[rng.IntN(3)] }},
		"bool":      {types.Bool, func() any { return rng.IntN(2) == 0 }},
		"text":      {types.Text, func() any { return string(bytes.Repeat([]byte{'a' + byte(rng.IntN(3))}, rng.IntN(200))) }},
		"interval":  {types.Interval, func() any { return types.IntervalValue{Months: int32(rng.IntN(3)), Days: int32(rng.IntN(40))} }},
	}
	for name, g := range gen {
		for _, nullEvery := range []int{0, 3} {
			for _, offset := range []int{0, 7} {
				t.Run(fmt.Sprintf("%s/nulls=%d/offset=%d", name, nullEvery, offset), func(t *testing.T) {
					mk := func(typ types.T, value func() any) arrow.Array {
						vals := make([]any, rows+offset)
						for i := range vals {
							if nullEvery == 0 || i%nullEvery != 0 {
								vals[i] = value()
							}
						}
						a := arrayOf(t, typ, vals)
						defer a.Release()
						return array.NewSlice(a, int64(offset), int64(offset+rows))
					}
					// The column under test between an int and a text key, so
					// the cursors of every row move by different amounts.
					keys := []arrow.Array{mk(gen["int4"].typ, gen["int4"].make), mk(g.typ, g.make), mk(gen["text"].typ, gen["text"].make)}
					defer releaseAll(keys)
					var enc keyEncoder
					for range 2 { // the second pass reuses the buffers
						enc.encode(keys, rows)
						for r := 0; r < rows; r++ {
							var want []byte
							for _, k := range keys {
								want = appendKey(want, k, r)
							}
							if got := enc.buf[enc.offs[r]:enc.offs[r+1]]; !bytes.Equal(got, want) {
								t.Fatalf("row %d: got %x, want %x", r, got, want)
							}
						}
					}
				})
			}
		}
	}
}
