package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// byteaSubstr is substring/substr(bytea, start [, count]): bytes from
// the 1-based start, count of them (to the end without one); positions
// before the first byte count towards count, as for text.
func byteaSubstr(args []arrow.Array, _ types.T) (arrow.Array, error) {
	s := args[0].(*array.Binary)
	start := values[int64](args[1])
	var count []int64
	if len(args) == 3 {
		count = values[int64](args[2])
		for i, c := range count {
			if c < 0 && !anyNull(args, i) {
				return nil, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
			}
		}
	}
	n := s.Len()
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			b.AppendNull()
			continue
		}
		v := s.Value(i)
		from, to := start[i]-1, int64(len(v))
		if count != nil {
			to = min(to, from+count[i])
		}
		from = max(from, 0)
		if from >= to {
			b.Append([]byte{})
			continue
		}
		b.Append(v[from:to])
	}
	return b.NewArray(), nil
}

// isBytea reports a bytea argument, which substring and substr take as
// bytes where text is taken as characters.
func isBytea(a arrow.Array) bool {
	_, ok := a.(*array.Binary)
	return ok
}
