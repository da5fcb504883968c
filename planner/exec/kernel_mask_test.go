package exec

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// TestMaskTextCharacters covers what SQL literals cannot hold: bytes
// that are not UTF-8 (Iceberg files may carry them), and characters
// outside the Basic Multilingual Plane, which count as one character
// (Hive, counting UTF-16 units, sees two).
func TestMaskTextCharacters(t *testing.T) {
	star := defaultMaskSettings()
	star.other = '*'
	tests := []struct {
		name string
		f    maskFunc
		in   string
		s    maskSettings
		want string
	}{
		{"invalid bytes are other characters, kept", maskAll, "A\xff\xfeb", defaultMaskSettings(), "X\xff\xfex"},
		{"invalid bytes are other characters, replaced one each", maskAll, "A\xff\xfeb", star, "X**x"},
		{"a truncated sequence", maskAll, "a\xe2\x82", star, "x**"},
		{"an emoji is one other character", maskAll, "a😀1", star, "x*n"},
		{"an emoji counts once in a span", maskShowLastN, "😀😀abcd", defaultMaskSettings(), "😀😀abcd"},
		{"mathematical capitals are upper case", maskAll, "𝐀𝐚", defaultMaskSettings(), "Xx"},
		{"a title-case letter is other", maskAll, "ǅ", star, "*"},
	}
	for _, tc := range tests {
		if got := string(appendMaskedText(nil, tc.f, tc.in, &tc.s)); got != tc.want {
			t.Errorf("%s: %q masked = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// FuzzMaskText checks, for any text and options, that masking keeps the
// number of characters, leaves those outside the span as they were, and
// yields valid UTF-8 from valid UTF-8.
func FuzzMaskText(f *testing.F) {
	f.Add("111-11-1111", uint8(maskShowLastN), 4, int32('x'))
	f.Add("Ünïcödé ß 中文 ٣", uint8(maskAll), 0, int32(keep))
	f.Add("a\xffb", uint8(maskFirstN), 2, int32('*'))
	f.Add("", uint8(maskLastN), -5, int32(0))
	f.Fuzz(func(t *testing.T, in string, fn uint8, count int, other int32) {
		mf := maskFunc(fn % 5)
		s := defaultMaskSettings()
		s.count = max(0, count)
		if other == keep || (other > 0 && utf8.ValidRune(other)) {
			s.other = other
		}
		out := string(appendMaskedText(nil, mf, in, &s))
		n := utf8.RuneCountInString(in)
		if got := utf8.RuneCountInString(out); got != n {
			t.Fatalf("%q → %q: %d characters, want %d", in, out, got, n)
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("%q → %q: not UTF-8", in, out)
		}
		lo, hi := mf.span(n, s.count)
		ins, outs := []rune(in), []rune(out)
		for i := range ins {
			if (i < lo || i >= hi) && ins[i] != outs[i] {
				t.Fatalf("%q → %q: character %d outside [%d, %d) changed", in, out, i, lo, hi)
			}
		}
	})
}

// FuzzMaskASCII checks that text of ASCII characters masks the same
// byte by byte as character by character, whatever the replacements.
func FuzzMaskASCII(f *testing.F) {
	f.Add("111-11-1111", uint8(maskShowLastN), 4, int32('x'), int32('*'))
	f.Add("Ab1 -", uint8(maskAll), 0, int32('é'), int32(keep))
	f.Add("", uint8(maskFirstN), 3, int32('x'), int32('x'))
	f.Fuzz(func(t *testing.T, in string, fn uint8, count int, upper, other int32) {
		if !isASCII(in) {
			return
		}
		s := defaultMaskSettings()
		s.count = max(0, count)
		for _, opt := range []struct {
			r   int32
			set *rune
		}{{upper, &s.upper}, {other, &s.other}} {
			if opt.r == keep || (opt.r > 0 && utf8.ValidRune(opt.r)) {
				*opt.set = opt.r
			}
		}
		mf := maskFunc(fn % 5)
		if got, want := string(appendMaskedASCII(nil, mf, in, &s)), string(appendMaskedRunes(nil, mf, in, &s)); got != want {
			t.Fatalf("%q: %q byte by byte, %q character by character", in, got, want)
		}
	})
}

// FuzzMaskInteger checks, for any value and options, that the result
// stays in the type's range, keeps the sign, and keeps the digits outside
// the span unless clamped.
func FuzzMaskInteger(f *testing.F) {
	f.Add(int64(1234567), uint8(maskShowLastN), 2, 1, uint8(64))
	f.Add(int64(math.MinInt64), uint8(maskAll), 4, 9, uint8(64))
	f.Add(int64(-128), uint8(maskFirstN), 1, 9, uint8(8))
	f.Add(int64(0), uint8(maskShowLastN), 0, 5, uint8(16))
	f.Add(int64(-113), uint8(maskAll), 0, 0, uint8(5))
	f.Fuzz(func(t *testing.T, v int64, fn uint8, count, number int, bits uint8) {
		width := []int{16, 32, 64}[int(bits)%3]
		lo, hi := int64(math.MinInt64)>>(64-width), int64(math.MaxInt64)>>(64-width)
		v = min(max(v, lo), hi)
		mf := maskFunc(fn % 5)
		s := defaultMaskSettings()
		s.count = max(0, count)
		s.number = ((number % 10) + 10) % 10
		got := maskInteger(mf, v, &s, lo, hi)
		if got < lo || got > hi {
			t.Fatalf("mask %d = %d, outside [%d, %d]", v, got, lo, hi)
		}
		if (v < 0) != (got < 0) && got != 0 {
			t.Fatalf("mask %d = %d: sign changed", v, got)
		}
		if got == lo || got == hi {
			return // clamped
		}
		// Masking leading digits with 0 leaves fewer digits.
		in := strconv.FormatUint(magnitude(v), 10)
		out := fmt.Sprintf("%0*d", len(in), magnitude(got))
		if len(out) != len(in) {
			t.Fatalf("mask %d = %d: %d digits, want %d", v, got, len(out), len(in))
		}
		from, to := mf.span(len(in), s.count)
		for i := range in {
			masked := i >= from && i < to
			if !masked && in[i] != out[i] || masked && int(out[i]-'0') != s.number {
				t.Fatalf("mask %d = %d: digit %d wrong for span [%d, %d)", v, got, i, from, to)
			}
		}
	})
}

func magnitude(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// TestSameInEveryRow covers the check that lets a mask read its options
// once per batch, on text options of equal and unequal lengths, NULLs,
// and a slice that starts past its array's first value.
func TestSameInEveryRow(t *testing.T) {
	tests := []struct {
		name string
		in   []any
		from int // the array is sliced from this row
		want bool
	}{
		{"one value", []any{"x"}, 0, true},
		{"repeated", []any{"x", "x", "x"}, 0, true},
		{"empty strings", []any{"", ""}, 0, true},
		{"empty then not", []any{"", "x"}, 0, false},
		{"same length, other bytes", []any{"ab", "ab", "ac"}, 0, false},
		{"rotated", []any{"ab", "ba"}, 0, false},
		{"same bytes, other lengths", []any{"a", "aa", "a"}, 0, false},
		{"all NULL", []any{nil, nil}, 0, true},
		{"some NULL", []any{"x", nil}, 0, false},
		{"slice of repeats", []any{"y", "x", "x"}, 1, true},
		{"slice with a difference", []any{"x", "x", "y"}, 1, false},
	}
	for _, tc := range tests {
		a := stringArray(t, tc.in)
		s := array.NewSlice(a, int64(tc.from), int64(len(tc.in)))
		if got := sameInEveryRow(s); got != tc.want {
			t.Errorf("%s: sameInEveryRow(%q[%d:]) = %v, want %v", tc.name, tc.in, tc.from, got, tc.want)
		}
		s.Release()
		a.Release()
	}
}
