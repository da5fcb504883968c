package exec

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// mask_hash(value) is the hex HMAC-SHA256 of a string, keyed by the
// server's mask key (policy.mask_key), or its plain SHA-256 without a
// key, as Hive's mask_hash computes. Other types give NULL, as in Hive.
// The key reaches the kernel through the evaluation context (WithMaskKey),
// never through the plan, so no SQL text, EXPLAIN output or error can
// show it.

type maskKeyKey struct{}

// maskKey is the key as a context carries it; its String hides it, should
// the context be printed.
type maskKey []byte

func (maskKey) String() string { return "mask key" }

// WithMaskKey returns a context whose queries compute mask_hash with key.
// Without one (or with an empty key), mask_hash is unkeyed.
func WithMaskKey(ctx context.Context, key []byte) context.Context {
	if len(key) == 0 {
		return ctx
	}
	return context.WithValue(ctx, maskKeyKey{}, maskKey(key))
}

// maskKeyOf is the mask key ctx carries, nil when there is none.
func maskKeyOf(ctx context.Context) []byte {
	k, _ := ctx.Value(maskKeyKey{}).(maskKey)
	return k
}

// keyedKernel is a kernel that needs the server's mask key.
type keyedKernel func(key []byte, args []arrow.Array, res types.T) (arrow.Array, error)

// lookupKeyedKernel returns the keyed form of function name.
func lookupKeyedKernel(name string) (keyedKernel, bool) {
	if name == "mask_hash" {
		return maskHash, true
	}
	return nil, false
}

// maskHash hashes each string of args[0] with key.
func maskHash(key []byte, args []arrow.Array, res types.T) (arrow.Array, error) {
	in, ok := args[0].(*array.String)
	if !ok {
		return array.MakeArrayOfNull(memory.DefaultAllocator, res.Arrow(), args[0].Len()), nil
	}
	var h hash.Hash
	if len(key) > 0 {
		h = hmac.New(sha256.New, key)
	} else {
		h = sha256.New()
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	b.ReserveData(in.Len() * 2 * sha256.Size)
	data, offsets := in.ValueBytes(), in.ValueOffsets()
	var sum [sha256.Size]byte
	var text [2 * sha256.Size]byte
	for i := 0; i < in.Len(); i++ {
		if in.IsNull(i) {
			b.AppendNull()
			continue
		}
		h.Reset()
		h.Write(data[offsets[i]-offsets[0] : offsets[i+1]-offsets[0]])
		hex.Encode(text[:], h.Sum(sum[:0]))
		b.BinaryBuilder.Append(text[:])
	}
	return b.NewArray(), nil
}
