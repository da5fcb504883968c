package storage

import (
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// Text columns of few distinct values (flags, modes, regions, names of a
// small table) are written dictionary encoded, every page an index into
// the chunk's dictionary. Decoded as plain text, pqarrow appends each
// value to a builder, one call per value: a fifth of a cold TPC-H Q1. A
// chunk whose every data page is dictionary encoded is therefore read as
// a dictionary array (the indices decode in bulk) and expanded into the
// plain array of the table's type here, in two tight loops. A chunk that
// fell back to plain pages (too many distinct values) is read as before:
// read as a dictionary, its plain pages would each go through a hash
// table.

// dictionaryEncoded reports whether the column chunk's data pages are
// all dictionary encoded, by the encoding statistics its writer kept
// (without them, false).
func dictionaryEncoded(cc *metadata.ColumnChunkMetaData) bool {
	if !cc.HasDictionaryPage() {
		return false
	}
	// Parquet's page types: DATA_PAGE 0, DICTIONARY_PAGE 2, DATA_PAGE_V2 3.
	const dataPage, dataPageV2 = 0, 3
	data := 0
	for _, s := range cc.EncodingStats() {
		if t := int32(s.PageType); t != dataPage && t != dataPageV2 {
			continue
		}
		data++
		if s.Encoding != parquet.Encodings.RLEDict && s.Encoding != parquet.Encodings.PlainDict {
			return false
		}
	}
	return data > 0
}

// readsAsDictionary reports whether leaf, a column of text or bytes, is
// dictionary encoded in every row group of groups.
func readsAsDictionary(rdr *file.Reader, leaf int, groups []int) bool {
	meta := rdr.MetaData()
	if leaf >= meta.Schema.NumColumns() || meta.Schema.Column(leaf).PhysicalType() != parquet.Types.ByteArray {
		return false
	}
	for _, g := range groups {
		cc, err := meta.RowGroup(g).ColumnChunk(leaf)
		if err != nil || !dictionaryEncoded(cc) {
			return false
		}
	}
	return len(groups) > 0
}

// plainFromDictionary expands a dictionary array of text or bytes with
// int32 indices into a plain array of typ (string or binary): the
// offsets summed from the dictionary's lengths, then each value's bytes
// copied, into buffers from mem. An index outside the dictionary (a
// corrupt file) is an error.
func plainFromDictionary(d *array.Dictionary, typ arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	idxArr, ok := d.Indices().(*array.Int32)
	if !ok {
		return nil, fmt.Errorf("dictionary indices of type %s", d.Indices().DataType())
	}
	doffs, dbytes, ok := dictValues(d.Dictionary())
	if !ok {
		return nil, fmt.Errorf("dictionary of type %s", d.Dictionary().DataType())
	}
	n := d.Len()
	idx := idxArr.Int32Values()
	var valid []byte
	if d.NullN() > 0 {
		valid = d.NullBitmapBytes()
	}
	off := d.Data().Offset()
	offBuf := memory.NewResizableBuffer(mem)
	offBuf.Resize(4 * (n + 1))
	offs := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(offBuf.Bytes()))), n+1)
	offs[0] = 0
	if valid == nil {
		if dataBuf, ok := expandShort(idx[:n], doffs, dbytes, offs, mem); ok {
			defer offBuf.Release()
			defer dataBuf.Release()
			out := array.NewData(typ, n, []*memory.Buffer{nil, offBuf, dataBuf}, nil, 0, 0)
			defer out.Release()
			return array.MakeFromData(out), nil
		}
	}
	total := int64(0)
	for i, k := range idx[:n] {
		if valid == nil || bitutil.BitIsSet(valid, off+i) {
			if uint(k) >= uint(len(doffs)-1) {
				offBuf.Release()
				return nil, fmt.Errorf("dictionary index %d past the dictionary's %d values", k, len(doffs)-1)
			}
			total += int64(doffs[k+1] - doffs[k])
		}
		if total > math.MaxInt32 {
			offBuf.Release()
			return nil, fmt.Errorf("decoded text of %d bytes past an array's limit", total)
		}
		offs[i+1] = int32(total)
	}
	dataBuf := memory.NewResizableBuffer(mem)
	dataBuf.Resize(int(total))
	defer dataBuf.Release()
	data := dataBuf.Bytes()
	for i, k := range idx[:n] {
		o, l := offs[i], offs[i+1]-offs[i]
		if l <= 8 {
			// Flags and codes: a call to memmove costs more than the
			// bytes.
			src := dbytes[doffs[k] : doffs[k]+l]
			dst := data[o : o+l]
			for j := range src {
				dst[j] = src[j]
			}
			continue
		}
		copy(data[o:o+l], dbytes[doffs[k]:doffs[k+1]])
	}
	var nullBuf *memory.Buffer
	if valid != nil {
		nullBuf = memory.NewResizableBuffer(mem)
		nullBuf.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(valid, off, n, nullBuf.Bytes(), 0)
		defer nullBuf.Release()
	}
	defer offBuf.Release()
	out := array.NewData(typ, n, []*memory.Buffer{nullBuf, offBuf, dataBuf}, nil, d.NullN(), 0)
	defer out.Release()
	return array.MakeFromData(out), nil
}

// expandShort expands idx, indices of a dictionary whose every value is
// at most 8 bytes (flags, modes, priorities), in one pass without NULLs:
// each row stores its value's 8 bytes as one word and advances by its
// length, filling offs. ok is false for a dictionary with a longer value
// or an index outside it, which the general loops handle (and report).
func expandShort(idx, doffs []int32, dbytes []byte, offs []int32, mem memory.Allocator) (_ *memory.Buffer, ok bool) {
	// The words are made per piece: worth it for a dictionary smaller
	// than the piece.
	values := len(doffs) - 1
	if values <= 0 || values > len(idx) {
		return nil, false
	}
	words := make([]uint64, values)
	lens := make([]int32, values)
	longest := 0
	for j := range values {
		v := dbytes[doffs[j]:doffs[j+1]]
		if len(v) > 8 {
			return nil, false
		}
		var w [8]byte
		copy(w[:], v)
		words[j], lens[j] = binary.LittleEndian.Uint64(w[:]), int32(len(v))
		longest = max(longest, len(v))
	}
	// The text takes at most longest bytes a row; the last row's word
	// may reach 8 bytes past it.
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(len(idx)*longest + 8)
	data := buf.Bytes()
	o := int32(0)
	for i, k := range idx {
		if uint(k) >= uint(values) {
			buf.Release()
			return nil, false
		}
		binary.LittleEndian.PutUint64(data[o:o+8], words[k])
		o += lens[k]
		offs[i+1] = o
	}
	buf.ResizeNoShrink(int(o))
	return buf, true
}

// dictValues is a dictionary's value offsets and the bytes they index
// (pqarrow's dictionaries are of string or binary, with int32 offsets).
func dictValues(dict arrow.Array) (offs []int32, data []byte, ok bool) {
	switch v := dict.(type) {
	case *array.String:
		offs = v.ValueOffsets()
	case *array.Binary:
		offs = v.ValueOffsets()
	default:
		return nil, nil, false
	}
	if b := dict.Data().Buffers()[2]; b != nil {
		data = b.Bytes()
	}
	return offs, data, true
}
