package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// bitLengthKernel is bit_length(text | bytea): eight bits per byte.
func bitLengthKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	a, ok := args[0].(array.BinaryLike)
	if !ok {
		return nil, fmt.Errorf("bit_length of %s", args[0].DataType())
	}
	validity, nulls := validity1(args[0])
	out := make([]int32, args[0].Len())
	for i := range out {
		if validAt(validity, i) {
			out[i] = int32(8 * a.ValueLen(i))
		}
	}
	return newFixed(arrow.PrimitiveTypes.Int32, out, validity, nulls), nil
}

// boolOutKernel is a boolean's output text, t or f, as concat and format
// print it (a cast to text says true or false).
func boolOutKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	a := args[0].(*array.Boolean)
	return buildStrings(args, func(i int, buf []byte) []byte {
		if a.Value(i) {
			return append(buf, 't')
		}
		return append(buf, 'f')
	}), nil
}
