package pgwire

import (
	"encoding/binary"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// This file encodes the catalog types: oid (Arrow uint32) and
// one-dimensional arrays (Arrow lists), in text and binary.

type uint32Text struct{ arrayOf[*array.Uint32] }

func (e *uint32Text) appendText(dst []byte, i int) []byte {
	return strconv.AppendUint(dst, uint64(e.arr.Value(i)), 10)
}

type uint32Binary struct{ arrayOf[*array.Uint32] }

func (e *uint32Binary) appendBinary(dst []byte, i int) []byte {
	return binary.BigEndian.AppendUint32(dst, e.arr.Value(i))
}

// listText prints an array as PostgreSQL's array_out does ({a,b,NULL},
// elements quoted when they need it), or int2vector / oidvector as
// space-separated values.
type listText struct {
	arrayOf[*array.List]
	elem    textEncoder
	vector  bool
	scratch []byte
}

func newListText(t types.T, d *arrow.ListType, loc *time.Location) (textEncoder, types.Family) {
	elemT, _ := t.Elem()
	elem, _ := textEncoderFor(elemT, d.Elem(), loc)
	if elem == nil {
		return nil, types.FamilyUnknown
	}
	return &listText{elem: elem, vector: t.OID == types.OIDInt2Vector || t.OID == types.OIDOidVector}, types.FamilyArray
}

func (e *listText) bind(arr arrow.Array) error {
	if err := e.arrayOf.bind(arr); err != nil {
		return err
	}
	return e.elem.bind(e.arr.ListValues())
}

func (e *listText) appendText(dst []byte, i int) []byte {
	start, end := e.arr.ValueOffsets(i)
	if !e.vector {
		dst = append(dst, '{')
	}
	for k := start; k < end; k++ {
		if k > start {
			if e.vector {
				dst = append(dst, ' ')
			} else {
				dst = append(dst, ',')
			}
		}
		if e.elem.isNull(int(k)) {
			dst = append(dst, "NULL"...)
			continue
		}
		e.scratch = e.elem.appendText(e.scratch[:0], int(k))
		dst = appendArrayElement(dst, e.scratch, e.vector)
	}
	if !e.vector {
		dst = append(dst, '}')
	}
	return dst
}

// appendArrayElement quotes an element as array_out does: when it is
// empty, is NULL spelled out, or holds a delimiter, brace, quote,
// backslash or white space.
func appendArrayElement(dst, v []byte, vector bool) []byte {
	quote := len(v) == 0 || (len(v) == 4 && (v[0]|0x20) == 'n' && (v[1]|0x20) == 'u' && (v[2]|0x20) == 'l' && (v[3]|0x20) == 'l')
	for _, c := range v {
		switch c {
		case ',', '{', '}', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			quote = true
		}
	}
	if !quote || vector {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for _, c := range v {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// listBinary sends an array in array_send's format: dimensions, a NULL
// flag, the element type, the length and lower bound, then each element
// as length + bytes (-1 for NULL).
type listBinary struct {
	arrayOf[*array.List]
	elem    binaryEncoder
	elemOID uint32
}

func newListBinary(t types.T, d *arrow.ListType) (binaryEncoder, types.Family) {
	elemT, _ := t.Elem()
	elem, _ := binaryEncoderFor(elemT, d.Elem())
	if elem == nil {
		return nil, types.FamilyUnknown
	}
	return &listBinary{elem: elem, elemOID: elemT.OID}, types.FamilyArray
}

func (e *listBinary) bind(arr arrow.Array) error {
	if err := e.arrayOf.bind(arr); err != nil {
		return err
	}
	return e.elem.bind(e.arr.ListValues())
}

func (e *listBinary) appendBinary(dst []byte, i int) []byte {
	start, end := e.arr.ValueOffsets(i)
	hasNull := uint32(0)
	for k := start; k < end; k++ {
		if e.elem.isNull(int(k)) {
			hasNull = 1
		}
	}
	if start == end {
		// An empty array has no dimensions.
		dst = binary.BigEndian.AppendUint32(dst, 0)
		dst = binary.BigEndian.AppendUint32(dst, 0)
		return binary.BigEndian.AppendUint32(dst, e.elemOID)
	}
	dst = binary.BigEndian.AppendUint32(dst, 1)
	dst = binary.BigEndian.AppendUint32(dst, hasNull)
	dst = binary.BigEndian.AppendUint32(dst, e.elemOID)
	dst = binary.BigEndian.AppendUint32(dst, uint32(end-start))
	dst = binary.BigEndian.AppendUint32(dst, 1)
	for k := start; k < end; k++ {
		if e.elem.isNull(int(k)) {
			dst = binary.BigEndian.AppendUint32(dst, 0xFFFFFFFF)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = e.elem.appendBinary(dst, int(k))
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}
