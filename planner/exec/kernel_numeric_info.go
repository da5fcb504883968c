package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// scale(numeric) and min_scale(numeric): the digits after the decimal
// point a value has, and the fewest that represent it exactly. A numeric
// column holds one scale for all its values, so scale is the column's.

// scaleOf is a value's scale: its column's.
func scaleOf(_ decimal128.Num, scale int32) int32 { return scale }

func numericInfo(f func(v decimal128.Num, scale int32) int32) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		dt, ok := args[0].DataType().(arrow.DecimalType)
		if !ok {
			return nil, fmt.Errorf("scale of %s", args[0].DataType())
		}
		in := decimalValues(args[0])
		validity, nulls := validity1(args[0])
		out := make([]int32, len(in))
		for i, v := range in {
			if validAt(validity, i) {
				out[i] = f(v, dt.GetScale())
			}
		}
		return newFixed(arrow.PrimitiveTypes.Int32, out, validity, nulls), nil
	}
}

// minScale strips the trailing decimal zeros of v's digits after the
// point.
func minScale(v decimal128.Num, scale int32) int32 {
	ten := decimal128.FromU64(10)
	for scale > 0 {
		q, r := v.Div(ten)
		if r != (decimal128.Num{}) {
			break
		}
		v = q
		scale--
	}
	return scale
}
