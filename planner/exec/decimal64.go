package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// A numeric of precision 18 or less is held as Arrow's decimal64 (its
// unscaled value in an int64), a wider one as decimal128
// (types.DecimalArrowType). Table columns arrive as decimal64 from the
// scan, so the kernels that see most rows (comparisons, gathers, keys,
// sorts, sums, and the operands of + - *) read 64-bit values in place.
// Kernels whose cost is elsewhere (division, rounding, text) read either
// width through decimalValues and write through newDecimal, in 128 bits.

// isDecimal reports whether id is one of the two fixed decimal widths.
func isDecimal(id arrow.Type) bool { return id == arrow.DECIMAL64 || id == arrow.DECIMAL128 }

// decimalScale is the scale of a, a decimal array of either width.
func decimalScale(a arrow.Array) int32 { return a.DataType().(arrow.DecimalType).GetScale() }

// decimalValues returns a's values as 128-bit numbers: a decimal128
// array's own values, or a decimal64 array's widened into a new slice.
func decimalValues(a arrow.Array) []decimal128.Num {
	switch a.DataType().ID() {
	case arrow.DECIMAL128:
		return values[decimal128.Num](a)
	case arrow.DECIMAL64:
		in := values[int64](a)
		out := make([]decimal128.Num, len(in))
		for i, v := range in {
			out[i] = decimal128.FromI64(v)
		}
		return out
	}
	panic(fmt.Sprintf("decimal values of %s", a.DataType()))
}

// newDecimal wraps vals (and an optional validity bitmap) as an array of
// dt, a decimal type of either width. Values for a decimal64 type are
// narrowed: they were computed at or checked against its precision, so
// they fit; a NULL row's value may be anything and is written as 0.
func newDecimal(dt arrow.DataType, vals []decimal128.Num, validity []byte, nulls int) arrow.Array {
	if dt.ID() == arrow.DECIMAL128 {
		return newFixed(dt, vals, validity, nulls)
	}
	out := make([]int64, len(vals))
	for i, v := range vals {
		out[i] = int64(v.LowBits())
	}
	return newFixed(dt, out, validity, nulls)
}
