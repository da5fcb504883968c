package exec

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestMaskASCIIStringsMatchesGeneralPath checks the in-place ASCII path
// against the character-by-character one, value by value, for every mask
// function and a spread of settings, over ASCII values with NULLs.
func TestMaskASCIIStringsMatchesGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const alphabet = "abcXYZ019-@. _"
	vals := make([]any, 500)
	for i := range vals {
		if i%17 == 3 {
			continue // NULL
		}
		b := make([]byte, rng.IntN(14))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		vals[i] = string(b)
	}
	in := stringArray(t, vals).(*array.String)
	defer in.Release()
	settings := []maskSettings{
		defaultMaskSettings(),
		{count: 4, upper: 'x', lower: 'x', digit: 'x', other: keep},
		{count: 0, upper: keep, lower: '*', digit: keep, other: '#'},
		{count: 20, upper: 'U', lower: keep, digit: 'd', other: 'o'},
	}
	for _, f := range []maskFunc{maskAll, maskFirstN, maskLastN, maskShowFirstN, maskShowLastN} {
		for si, s := range settings {
			out, ok := maskASCIIStrings(f, in, &s)
			if !ok {
				t.Fatalf("mask %d settings %d: ASCII path refused ASCII input", f, si)
			}
			got := out.(*array.String)
			for i := 0; i < in.Len(); i++ {
				if in.IsNull(i) != got.IsNull(i) {
					t.Fatalf("mask %d settings %d row %d: null %v, want %v", f, si, i, got.IsNull(i), in.IsNull(i))
				}
				if in.IsNull(i) {
					continue
				}
				want := string(appendMaskedRunes(nil, f, in.Value(i), &s))
				if got.Value(i) != want {
					t.Fatalf("mask %d settings %d: %q masked to %q, want %q", f, si, in.Value(i), got.Value(i), want)
				}
			}
			out.Release()
		}
	}
}

// TestMaskASCIIStringsDeclines checks the cases the ASCII path leaves to
// the general one: non-ASCII text, a non-ASCII replacement and a sliced
// array.
func TestMaskASCIIStringsDeclines(t *testing.T) {
	ascii := stringArray(t, []any{"abc-123", "x"}).(*array.String)
	defer ascii.Release()
	accented := stringArray(t, []any{"abc", "é"}).(*array.String)
	defer accented.Release()
	sliced := array.NewSlice(ascii, 1, 2).(*array.String)
	defer sliced.Release()
	def := defaultMaskSettings()
	star := maskSettings{count: 4, upper: '★', lower: 'x', digit: 'n', other: keep}
	tests := []struct {
		name string
		in   *array.String
		s    maskSettings
	}{
		{"non-ASCII text", accented, def},
		{"non-ASCII replacement", ascii, star},
		{"sliced array", sliced, def},
	}
	for _, tt := range tests {
		if out, ok := maskASCIIStrings(maskAll, tt.in, &tt.s); ok {
			out.Release()
			t.Errorf("%s: ASCII path took it", tt.name)
		}
	}
}
