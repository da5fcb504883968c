package exec

import (
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The common case of a string mask is ASCII text (identifiers, numbers,
// e-mail addresses) under the same options on every row, replaced by
// ASCII characters. Then a masked value is exactly as long as the value,
// so the result shares the input's offsets and validity buffers and its
// characters are the input's, copied once and replaced in place through
// a byte table: no builder and no work per row beyond the span.

// asciiMaskTable maps each ASCII byte to what replaces it in a masked
// span.
type asciiMaskTable [utf8.RuneSelf]byte

// newASCIIMaskTable builds the table of s, or reports false when a
// replacement is not an ASCII character (the result would be longer).
func newASCIIMaskTable(s *maskSettings) (*asciiMaskTable, bool) {
	var t asciiMaskTable
	for c := range utf8.RuneSelf {
		rep := s.replacement(rune(c))
		switch {
		case rep == keep:
			t[c] = byte(c)
		case rep >= 0 && rep < utf8.RuneSelf:
			t[c] = byte(rep)
		default:
			return nil, false
		}
	}
	return &t, true
}

// maskASCIIStrings masks in with uniform settings s when in is ASCII
// text whose offsets start at zero; it reports false when the general
// path must run instead.
func maskASCIIStrings(f maskFunc, in *array.String, s *maskSettings) (arrow.Array, bool) {
	data := in.Data()
	offsets := in.ValueOffsets()
	if data.Offset() != 0 || len(offsets) == 0 || offsets[0] != 0 {
		return nil, false
	}
	values := in.ValueBytes()
	if !isASCII(values) {
		return nil, false
	}
	table, ok := newASCIIMaskTable(s)
	if !ok {
		return nil, false
	}
	out := memory.NewResizableBuffer(memory.DefaultAllocator)
	out.Resize(len(values))
	masked := out.Bytes()
	copy(masked, values)
	for i := 0; i < in.Len(); i++ {
		start, end := int(offsets[i]), int(offsets[i+1])
		lo, hi := f.span(end-start, s.count)
		for j := start + lo; j < start+hi; j++ {
			masked[j] = table[masked[j]]
		}
	}
	bufs := data.Buffers()
	res := array.NewData(arrow.BinaryTypes.String, in.Len(), []*memory.Buffer{bufs[0], bufs[1], out}, nil, in.NullN(), 0)
	out.Release()
	defer res.Release()
	return array.NewStringData(res), true
}
