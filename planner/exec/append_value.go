package exec

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// AppendValue appends one constant-representation value of type t (as
// types.ParseText returns it) to a builder of t's Arrow type; nil appends
// NULL. COPY FROM builds its batches with it.
func AppendValue(bld array.Builder, t types.T, v any) error {
	if v == nil {
		bld.AppendNull()
		return nil
	}
	return appendConst(bld, t, v)
}
