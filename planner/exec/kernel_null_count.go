package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
)

// nullCountKernel is num_nulls (nulls true) or num_nonnulls: how many of
// a row's arguments are NULL, or not. The result is never NULL.
func nullCountKernel(nulls bool) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		n := args[0].Len()
		out := make([]int32, n)
		for _, a := range args {
			if a.NullN() == 0 {
				if !nulls {
					for i := range out {
						out[i]++
					}
				}
				continue
			}
			for i := range out {
				if a.IsNull(i) == nulls {
					out[i]++
				}
			}
		}
		return newFixed(arrow.PrimitiveTypes.Int32, out, nil, 0), nil
	}
}
