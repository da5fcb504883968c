package exec

import (
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// The kernels of Hive's mask functions (mask, mask_first_n, mask_last_n,
// mask_show_first_n, mask_show_last_n), which column-mask policies call.
// They never fail: a mask that errored on some value would turn a hidden
// value into an error message. NULL in gives NULL out.
//
// Strings: each character in the masked span is replaced by the upper,
// lower, digit or other character according to its Unicode category
// (Lu, Ll, Nd, anything else), as Hive's Character.getType does; spans
// count characters (code points), where Hive counts UTF-16 units.
// Integers: the decimal digits of the magnitude are masked as a string
// of digits with the number digit, the sign kept; a result past the
// type's range is clamped to it. Dates: day, month and year are replaced
// (a day past the month's end becomes its last day); timestamps are
// masked as their date, at midnight (timestamptz in the session zone).
// Other types, which Hive does not mask, give NULL.

// maskFunc says which span of a value a mask function replaces.
type maskFunc uint8

const (
	maskAll maskFunc = iota
	maskFirstN
	maskLastN
	maskShowFirstN
	maskShowLastN
)

// maskFuncNamed returns the mask function called name.
func maskFuncNamed(name string) (maskFunc, bool) {
	switch name {
	case "mask":
		return maskAll, true
	case "mask_first_n":
		return maskFirstN, true
	case "mask_last_n":
		return maskLastN, true
	case "mask_show_first_n":
		return maskShowFirstN, true
	case "mask_show_last_n":
		return maskShowLastN, true
	}
	return 0, false
}

// span is the positions [lo, hi) of a value n characters (or digits)
// long that f replaces, given its count.
func (f maskFunc) span(n, count int) (lo, hi int) {
	switch f {
	case maskFirstN:
		return 0, min(count, n)
	case maskLastN:
		return max(0, n-count), n
	case maskShowFirstN:
		return min(count, n), n
	case maskShowLastN:
		return 0, max(0, n-count)
	}
	return 0, n
}

// maskKernel returns the kernel of the mask function called name.
func maskKernel(name string) (scalarKernel, bool) {
	f, ok := maskFuncNamed(name)
	if !ok {
		return nil, false
	}
	return maskFuncKernel(f), true
}

// maskFuncKernel is the kernel of mask function f over strings, integers,
// dates and timestamps; other types mask to NULL.
func maskFuncKernel(f maskFunc) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		opts := newMaskOptions(f, args[1:])
		switch v := args[0].(type) {
		case *array.String:
			return maskStrings(f, v, opts), nil
		case *array.Int16:
			return maskInts(f, v, v.Int16Values(), opts, math.MinInt16, math.MaxInt16), nil
		case *array.Int32:
			return maskInts(f, v, v.Int32Values(), opts, math.MinInt32, math.MaxInt32), nil
		case *array.Int64:
			return maskInts(f, v, v.Int64Values(), opts, math.MinInt64, math.MaxInt64), nil
		case *array.Date32:
			return maskDates(v, opts), nil
		case *array.Timestamp:
			return maskTimestamps(v, opts, nil), nil
		}
		return array.MakeArrayOfNull(memory.DefaultAllocator, res.Arrow(), args[0].Len()), nil
	}
}

// maskStrings masks each string of in.
func maskStrings(f maskFunc, in *array.String, opts *maskOptions) arrow.Array {
	if opts.uniform {
		if out, ok := maskASCIIStrings(f, in, &opts.first); ok {
			return out
		}
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(in.Len())
	b.ReserveData(len(in.ValueBytes()))
	buf := make([]byte, 0, 64)
	nulls := in.NullN() > 0
	for i := 0; i < in.Len(); i++ {
		if nulls && in.IsNull(i) {
			b.AppendNull()
			continue
		}
		s := opts.at(i)
		buf = appendMaskedText(buf[:0], f, in.Value(i), &s)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray()
}

// appendMaskedText appends v with f's span replaced. Bytes that are not
// UTF-8 count as one character each, of the other class.
func appendMaskedText(dst []byte, f maskFunc, v string, s *maskSettings) []byte {
	if isASCII(v) {
		return appendMaskedASCII(dst, f, v, s)
	}
	return appendMaskedRunes(dst, f, v, s)
}

// appendMaskedRunes is appendMaskedText for any text, character by
// character.
func appendMaskedRunes(dst []byte, f maskFunc, v string, s *maskSettings) []byte {
	lo, hi := f.span(utf8.RuneCountInString(v), s.count)
	if lo >= hi {
		return append(dst, v...)
	}
	for i, pos := 0, 0; i < len(v); pos++ {
		r, w := rune(v[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(v[i:])
		}
		rep := rune(keep)
		if pos >= lo && pos < hi {
			rep = s.replacement(r)
		}
		if rep == keep {
			dst = append(dst, v[i:i+w]...)
		} else {
			dst = utf8.AppendRune(dst, rep)
		}
		i += w
	}
	return dst
}

// appendMaskedASCII is appendMaskedText for text of ASCII characters
// only, where characters are bytes: what lies outside the span is copied
// whole.
func appendMaskedASCII(dst []byte, f maskFunc, v string, s *maskSettings) []byte {
	lo, hi := f.span(len(v), s.count)
	if lo >= hi {
		return append(dst, v...)
	}
	dst = append(dst, v[:lo]...)
	for i := lo; i < hi; i++ {
		switch rep := s.replacement(rune(v[i])); {
		case rep == keep:
			dst = append(dst, v[i])
		case rep < utf8.RuneSelf:
			dst = append(dst, byte(rep))
		default:
			dst = utf8.AppendRune(dst, rep)
		}
	}
	return append(dst, v[hi:]...)
}

// isASCII reports whether every byte of v is below 0x80, eight bytes at
// a time.
func isASCII[T string | []byte](v T) bool {
	i := 0
	for ; i+8 <= len(v); i += 8 {
		w := uint64(v[i]) | uint64(v[i+1])<<8 | uint64(v[i+2])<<16 | uint64(v[i+3])<<24 |
			uint64(v[i+4])<<32 | uint64(v[i+5])<<40 | uint64(v[i+6])<<48 | uint64(v[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// replacement is the character that replaces r, or keep.
func (s *maskSettings) replacement(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return s.upper
	case r >= 'a' && r <= 'z':
		return s.lower
	case r >= '0' && r <= '9':
		return s.digit
	case r < utf8.RuneSelf:
		return s.other
	case unicode.IsUpper(r):
		return s.upper
	case unicode.IsLower(r):
		return s.lower
	case unicode.IsDigit(r):
		return s.digit
	}
	return s.other
}

// maskInts masks each integer of vals (the values of a).
func maskInts[T int16 | int32 | int64](f maskFunc, a arrow.Array, vals []T, opts *maskOptions, lo, hi int64) arrow.Array {
	out := make([]T, len(vals))
	validity, nulls := validity1(a)
	for i, v := range vals {
		if validAt(validity, i) {
			s := opts.at(i)
			out[i] = T(maskInteger(f, int64(v), &s, lo, hi))
		}
	}
	return newFixed(a.DataType(), out, validity, nulls)
}

// maskInteger masks f's span of the decimal digits of v's magnitude (0
// is the one digit 0) with the number digit, keeping the sign; a result
// outside [lo, hi] is clamped to it.
func maskInteger(f maskFunc, v int64, s *maskSettings, lo, hi int64) int64 {
	neg := v < 0
	mag := uint64(v)
	if neg {
		mag = -mag
	}
	var digits [20]byte // least significant first
	n := 0
	for {
		digits[n] = byte(mag % 10)
		n++
		if mag /= 10; mag == 0 {
			break
		}
	}
	from, to := f.span(n, s.count)
	var out uint64
	for pos := 0; pos < n; pos++ {
		d := uint64(digits[n-1-pos])
		if pos >= from && pos < to {
			d = uint64(s.number)
		}
		out = out*10 + d
	}
	limit := uint64(hi)
	if neg {
		limit = -uint64(lo)
	}
	out = min(out, limit)
	if neg {
		return int64(-out)
	}
	return int64(out)
}
