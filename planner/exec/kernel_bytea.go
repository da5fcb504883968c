package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// byteaCat is bytea || bytea (PostgreSQL's byteacat, strict): the bytes
// of both sides, NULL when either is NULL. The output's value buffer is
// sized once from both inputs.
func byteaCat(args []arrow.Array, _ types.T) (arrow.Array, error) {
	l, ok1 := args[0].(*array.Binary)
	r, ok2 := args[1].(*array.Binary)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("bytea concatenation of %s and %s", args[0].DataType(), args[1].DataType())
	}
	n := l.Len()
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	b.Reserve(n)
	b.ReserveData(len(l.ValueBytes()) + len(r.ValueBytes()))
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		if l.IsNull(i) || r.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = append(append(buf[:0], l.Value(i)...), r.Value(i)...)
		b.Append(buf)
	}
	return b.NewArray(), nil
}
