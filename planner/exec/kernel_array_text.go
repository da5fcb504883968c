package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// listToText prints arrays as PostgreSQL's array_out does, for a cast to
// text and the functions that take their arguments as text (concat,
// format, quote_literal): {a,b,NULL}, each element in its type's output
// form (a boolean is t or f), quoted when it needs it.
func listToText(l *array.List, to types.T) (arrow.Array, error) {
	vals := l.ListValues()
	if ts, ok := vals.DataType().(*arrow.TimestampType); ok && ts.TimeZone != "" {
		// The elements would print in UTC, not in the session's zone.
		return nil, pgerror.Unsupported("an array of timestamp with time zone as text is not supported yet")
	}
	var elems arrow.Array
	var err error
	if _, ok := vals.(*array.Boolean); ok {
		elems, err = boolOutKernel([]arrow.Array{vals}, types.Text)
	} else {
		elems, err = castToText(vals, types.Text)
	}
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	text := elems.(*array.String)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(l.Len())
	buf := make([]byte, 0, 64)
	for i := 0; i < l.Len(); i++ {
		if l.IsNull(i) {
			b.AppendNull()
			continue
		}
		start, end := l.ValueOffsets(i)
		buf = append(buf[:0], '{')
		for k := int(start); k < int(end); k++ {
			if k > int(start) {
				buf = append(buf, ',')
			}
			if text.IsNull(k) {
				buf = append(buf, "NULL"...)
				continue
			}
			buf = appendArrayElement(buf, text.Value(k))
		}
		buf = append(buf, '}')
		if to.OID == types.OIDVarchar && to.Precision > 0 {
			buf = truncateRunes(buf, int(to.Precision))
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

// appendArrayElement quotes an element as array_out does: when it is
// empty, is NULL spelled out, or holds a delimiter, brace, quote,
// backslash or white space.
func appendArrayElement(dst []byte, v string) []byte {
	quote := len(v) == 0 || (len(v) == 4 && (v[0]|0x20) == 'n' && (v[1]|0x20) == 'u' && (v[2]|0x20) == 'l' && (v[3]|0x20) == 'l')
	for i := 0; i < len(v) && !quote; i++ {
		switch v[i] {
		case ',', '{', '}', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			quote = true
		}
	}
	if !quote {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, v[i])
	}
	return append(dst, '"')
}
