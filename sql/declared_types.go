package sql

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// narrowToInt2 converts a stored integer column of a smallint column to
// smallint. Values written through SQE fit; one that does not (another
// writer) is an error rather than a wrapped number.
func narrowToInt2(a arrow.Array) (arrow.Array, error) {
	in, ok := a.(*array.Int32)
	if !ok {
		return nil, fmt.Errorf("smallint column stored as %s", a.DataType())
	}
	b := array.NewInt16Builder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	for i, v := range in.Int32Values() {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		if v < -32768 || v > 32767 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
		}
		b.UnsafeAppend(int16(v))
	}
	return b.NewArray(), nil
}
