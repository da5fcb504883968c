package exec

import (
	"hash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// sha2Kernel is sha224, sha256, sha384 or sha512 of bytea: the digest's
// bytes, as PostgreSQL's cryptohash functions return them.
func sha2Kernel(newHash func() hash.Hash) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		in := args[0].(*array.Binary)
		h := newHash()
		b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
		defer b.Release()
		b.Reserve(in.Len())
		var sum []byte
		for i := range in.Len() {
			if in.IsNull(i) {
				b.AppendNull()
				continue
			}
			h.Reset()
			h.Write(in.Value(i))
			sum = h.Sum(sum[:0])
			b.Append(sum)
		}
		return b.NewArray(), nil
	}
}
