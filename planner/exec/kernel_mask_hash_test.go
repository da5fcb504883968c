package exec

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

func TestMaskHash(t *testing.T) {
	quick := "The quick brown fox jumps over the lazy dog"
	tests := []struct {
		name string
		key  []byte
		in   []any // string or nil (NULL)
		want []any
	}{
		// The common HMAC-SHA256 example: key "key" over the pangram.
		{"keyed", []byte("key"), []any{quick, nil},
			[]any{"f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8", nil}},
		{"keyed ssn", []byte("k3y"), []any{"111-11-1111"},
			[]any{"46512c010e1f99548d8fb13e6f79813e6a0f07017d8a67ae8ae3028b5768461f"}},
		{"unkeyed is SHA-256", nil, []any{"abc", ""},
			[]any{"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
				"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}},
		{"non-ASCII text hashes its UTF-8 bytes", nil, []any{"Ünï"},
			[]any{"216999f2898ef2f6f5514c9966e633a6224e147925670b4a0461ac6036b37df4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := stringArray(t, tc.in)
			defer in.Release()
			// A slice starting past the first value checks offsets.
			padded := stringArray(t, append([]any{"skipped"}, tc.in...))
			defer padded.Release()
			sliced := array.NewSlice(padded, 1, int64(padded.Len()))
			defer sliced.Release()
			for _, a := range []arrow.Array{in, sliced} {
				out, err := maskHash(tc.key, []arrow.Array{a}, types.Text)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]any, out.Len())
				for i := range got {
					got[i] = valueAt(out, i)
				}
				out.Release()
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("mask_hash(%v) = %v, want %v", tc.in, got, tc.want)
				}
			}
		})
	}
}

// TestMaskKeyContext checks that the key reaches evaluation through the
// context and does not show when the context is printed.
func TestMaskKeyContext(t *testing.T) {
	secret := []byte("s3cret-mask-key")
	tests := []struct {
		name string
		ctx  context.Context
		want []byte
	}{
		{"with a key", WithMaskKey(context.Background(), secret), secret},
		{"an empty key is none", WithMaskKey(context.Background(), nil), nil},
		{"without", context.Background(), nil},
	}
	for _, tc := range tests {
		if got := maskKeyOf(tc.ctx); string(got) != string(tc.want) {
			t.Errorf("%s: key %q, want %q", tc.name, got, tc.want)
		}
		for _, format := range []string{"%v", "%+v", "%s"} {
			if printed := fmt.Sprintf(format, tc.ctx); strings.Contains(printed, string(secret)) {
				t.Errorf("%s: %s of the context shows the key: %s", tc.name, format, printed)
			}
		}
	}
}

func stringArray(t *testing.T, vals []any) arrow.Array {
	t.Helper()
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
			continue
		}
		b.Append(v.(string))
	}
	return b.NewArray()
}
