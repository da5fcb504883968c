package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Per-entry overheads charged for Go structures, on top of the bytes they
// point to. They are rough (a Go map entry with a string key costs some
// 40-60 bytes in buckets and headers), and err on the side of too much.
const (
	// hashEntryBytes is one new key in a map[string]T.
	hashEntryBytes = 64
	// anyValueBytes is one boxed value in a []any.
	anyValueBytes = 24
	// cancelCheckRows is how many rows of pure computation may pass
	// between two looks at the context.
	cancelCheckRows = 1 << 16
)

// batchBytes estimates the memory a batch's columns hold.
func batchBytes(b arrow.RecordBatch) int64 {
	if b == nil {
		return 0
	}
	return arraysBytes(b.Columns())
}

func arraysBytes(arrs []arrow.Array) int64 {
	var n int64
	for _, a := range arrs {
		if a != nil {
			n += arrayBytes(a)
		}
	}
	return n
}

// arrayBytes estimates the memory a's rows hold. A slice of a larger
// array is charged for its own rows only, so the slices an aggregate or a
// window hands out are not each charged for the whole buffer.
func arrayBytes(a arrow.Array) int64 {
	n := int64(a.Len())
	if n == 0 {
		return 0
	}
	var size int64
	if bufs := a.Data().Buffers(); len(bufs) > 0 && bufs[0] != nil {
		size += (n + 7) / 8 // validity
	}
	switch x := a.(type) {
	case interface{ ValueOffsets() []int32 }: // String, Binary
		offs := x.ValueOffsets()
		return size + 4*(n+1) + int64(offs[len(offs)-1]-offs[0])
	case *array.List:
		start, _ := x.ValueOffsets(0)
		_, end := x.ValueOffsets(int(n) - 1)
		child := array.NewSlice(x.ListValues(), start, end)
		defer child.Release()
		return size + 4*(n+1) + arrayBytes(child)
	}
	if fw, ok := a.DataType().(arrow.FixedWidthDataType); ok {
		return size + (n*int64(fw.BitWidth())+7)/8
	}
	// Anything else: the whole buffers, and the children's.
	return size + dataBytes(a.Data())
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}
