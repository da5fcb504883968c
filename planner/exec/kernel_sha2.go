package exec

import (
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// sha2Kernel is sha224, sha256, sha384 or sha512 of bytea: the digest's
// bytes, as PostgreSQL's cryptohash functions return them.
func sha2Kernel(name string) (scalarKernel, bool) {
	var newHash func() hash.Hash
	switch name {
	case "sha224":
		newHash = sha256.New224
	case "sha256":
		newHash = sha256.New
	case "sha384":
		newHash = sha512.New384
	case "sha512":
		newHash = sha512.New
	default:
		return nil, false
	}
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
	}, true
}
