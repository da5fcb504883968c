package exec

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
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

// maskHash hashes each string of args[0] with key. Every hash is 64
// characters, so the result is written straight into its buffers: the
// input's validity bitmap is shared, and a NULL takes no characters.
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
	const width = 2 * sha256.Size
	n := in.Len()
	offBuf := memory.NewResizableBuffer(memory.DefaultAllocator)
	defer offBuf.Release()
	offBuf.Resize((n + 1) * arrow.Int32SizeBytes)
	offsets := arrow.Int32Traits.CastFromBytes(offBuf.Bytes())
	dataBuf := memory.NewResizableBuffer(memory.DefaultAllocator)
	defer dataBuf.Release()
	dataBuf.Resize((n - in.NullN()) * width)
	text := dataBuf.Bytes()
	var sum [sha256.Size]byte
	values, valueOffsets := in.ValueBytes(), in.ValueOffsets()
	at := 0
	for i := 0; i < n; i++ {
		offsets[i] = int32(at)
		if in.IsNull(i) {
			continue
		}
		h.Reset()
		_, _ = h.Write(values[valueOffsets[i]-valueOffsets[0] : valueOffsets[i+1]-valueOffsets[0]])
		hex.Encode(text[at:at+width], h.Sum(sum[:0]))
		at += width
	}
	offsets[n] = int32(at)
	validity := validityOf(in)
	if validity != nil {
		defer validity.Release()
	}
	data := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{validity, offBuf, dataBuf}, nil, in.NullN(), 0)
	defer data.Release()
	return array.NewStringData(data), nil
}

// validityOf is a's validity bitmap as a buffer starting at its first
// row: shared when a is not a slice, copied bit by bit when it is. It
// is nil when a has no NULL.
func validityOf(a arrow.Array) *memory.Buffer {
	if a.NullN() == 0 {
		return nil
	}
	if a.Data().Offset() == 0 {
		buf := a.Data().Buffers()[0]
		buf.Retain()
		return buf
	}
	buf := memory.NewResizableBuffer(memory.DefaultAllocator)
	buf.Resize(int(bitutil.BytesForBits(int64(a.Len()))))
	bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset(), a.Len(), buf.Bytes(), 0)
	return buf
}
