package sql

import (
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// copyColumn is one column COPY FROM reads: its type, where its values go
// and how a field's text becomes a value. The common types are parsed
// straight into their Arrow builder, without boxing each value.
type copyColumn struct {
	name     string
	typ      types.T
	nullable bool
	// forceNotNull and forceNull are csv's FORCE_NOT_NULL and FORCE_NULL.
	forceNotNull, forceNull bool

	bld  array.Builder
	zone *time.Location
}

func newCopyColumn(name string, typ types.T, arrowType arrow.DataType, nullable bool, zone *time.Location) *copyColumn {
	return &copyColumn{name: name, typ: typ, nullable: nullable, bld: array.NewBuilder(memory.DefaultAllocator, arrowType), zone: zone}
}

// bytesString views b as a string without copying, for parsers that do
// not keep their input.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// appendText parses a field's text (already unescaped) and appends it.
func (c *copyColumn) appendText(field []byte) error {
	switch b := c.bld.(type) {
	case *array.StringBuilder:
		if c.typ.Precision == 0 && (c.typ.OID == types.OIDText || c.typ.OID == types.OIDVarchar) {
			b.BinaryBuilder.Append(field)
			return nil
		}
	case *array.Int64Builder:
		if v, err := strconv.ParseInt(bytesString(field), 10, 64); err == nil && c.typ.OID == types.OIDInt8 {
			b.Append(v)
			return nil
		}
	case *array.Int32Builder:
		if v, err := strconv.ParseInt(bytesString(field), 10, 32); err == nil && c.typ.OID == types.OIDInt4 {
			b.Append(int32(v))
			return nil
		}
	case *array.Float64Builder:
		if v, err := strconv.ParseFloat(bytesString(field), 64); err == nil && c.typ.OID == types.OIDFloat8 && isPlainNumber(field) {
			b.Append(v)
			return nil
		}
	case *array.Decimal128Builder, *array.Decimal64Builder:
		s := bytesString(field)
		n, scale, err := types.ParseNumericLiteral(strings.TrimSpace(s))
		if err != nil {
			return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", strings.Clone(s))
		}
		v, err := types.RescaleNumeric(n, scale, c.typ)
		if err != nil {
			return err
		}
		return exec.AppendValue(b, c.typ, v)
	}
	// The general path: the type's input function, then its Arrow form.
	s := string(field)
	var v any
	var err error
	if c.typ.OID == types.OIDTimestampTZ {
		v, err = types.ParseTimestampIn(s, c.typ, c.zone)
	} else {
		v, err = types.ParseText(s, c.typ)
	}
	if err != nil {
		return err
	}
	return exec.AppendValue(c.bld, c.typ, v)
}

// appendBinary decodes a field in COPY BINARY form (the type's receive
// function) and appends it.
func (c *copyColumn) appendBinary(field []byte) error {
	v, err := types.DecodeBinary(field, c.typ)
	if err != nil {
		return err
	}
	return exec.AppendValue(c.bld, c.typ, v)
}

// isPlainNumber rules out the spellings strconv accepts and float8in
// does not (hex floats, underscores), so those take the general path.
func isPlainNumber(b []byte) bool {
	for _, c := range b {
		if c == 'x' || c == 'X' || c == '_' || c == 'p' || c == 'P' {
			return false
		}
	}
	return true
}
