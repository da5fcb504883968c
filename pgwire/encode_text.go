package pgwire

import (
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// textEncoder appends the PostgreSQL text form of one column's values. It
// is chosen once per result column (newTextEncoder) and re-pointed at each
// batch's array with bind, so the per-value path is a typed array read and
// an append, with no allocation and no type switch.
type textEncoder interface {
	// bind points the encoder at the column's array in the next batch.
	bind(arr arrow.Array) error
	isNull(i int) bool
	// appendText appends row i's value; only called for non-null rows.
	appendText(dst []byte, i int) []byte
}

// newTextEncoder picks the encoder for a column of type col.Type held in
// Arrow arrays of type dt. The Arrow type decides how values are read, the
// PostgreSQL type how they are printed; a pairing that makes no sense is an
// error rather than a guess.
func newTextEncoder(col sql.Column, dt arrow.DataType) (textEncoder, error) {
	return newTextEncoderIn(col, dt, time.UTC)
}

// newTextEncoderIn is newTextEncoder for a session in zone loc, which
// timestamptz values are printed in.
func newTextEncoderIn(col sql.Column, dt arrow.DataType, loc *time.Location) (textEncoder, error) {
	enc, family := textEncoderFor(col.Type, dt, loc)
	if enc == nil {
		return nil, fmt.Errorf("column %q: no text encoding for arrow type %s", col.Name, dt)
	}
	if fam := col.Type.Family(); family != types.FamilyUnknown && fam != types.FamilyUnknown && fam != family {
		return nil, fmt.Errorf("column %q: arrow type %s cannot carry %s", col.Name, dt, col.Type)
	}
	return enc, nil
}

// textEncoderFor returns the encoder for Arrow type dt and the type family
// it prints, or nil when dt has no text encoding.
func textEncoderFor(t types.T, dt arrow.DataType, loc *time.Location) (textEncoder, types.Family) {
	switch d := dt.(type) {
	case *arrow.NullType:
		return &nullText{}, types.FamilyUnknown
	case *arrow.BooleanType:
		return &boolText{}, types.FamilyBool
	case *arrow.Int8Type:
		return &int8Text{}, types.FamilyInt
	case *arrow.Int16Type:
		return &int16Text{}, types.FamilyInt
	case *arrow.Int32Type:
		return &int32Text{}, types.FamilyInt
	case *arrow.Int64Type:
		return &int64Text{}, types.FamilyInt
	case *arrow.Uint32Type:
		return &uint32Text{}, types.FamilyOID
	case *arrow.ListType:
		return newListText(t, d, loc)
	case *arrow.Float32Type:
		return &float32Text{}, types.FamilyFloat
	case *arrow.Float64Type:
		return &float64Text{}, types.FamilyFloat
	case *arrow.Decimal128Type:
		return &decimal128Text{scale: d.Scale}, types.FamilyNumeric
	case *arrow.Decimal64Type:
		return &decimal64Text{scale: d.Scale}, types.FamilyNumeric
	case *types.NumericType:
		return &generalNumericText{}, types.FamilyNumeric
	case *arrow.StringType:
		return &stringText{}, stringFamily(t)
	case *arrow.LargeStringType:
		return &largeStringText{}, types.FamilyString
	case *arrow.StringViewType:
		return &stringViewText{}, types.FamilyString
	case *arrow.FixedSizeBinaryType:
		if d.ByteWidth != 16 {
			return nil, types.FamilyUnknown
		}
		return &uuidText{}, types.FamilyUUID
	case *arrow.BinaryType:
		return &byteaText{}, types.FamilyBytes
	case *arrow.LargeBinaryType:
		return &largeByteaText{}, types.FamilyBytes
	case *arrow.Date32Type:
		return &date32Text{}, types.FamilyDate
	case *arrow.TimestampType:
		if t.OID == types.OIDTimestampTZ {
			// Values are UTC instants, printed in the session's zone.
			return &timestampTZText{unit: d.Unit, loc: loc}, types.FamilyTimestamp
		}
		return &timestampText{unit: d.Unit}, types.FamilyTimestamp
	case *arrow.Time64Type:
		return &time64Text{unit: d.Unit}, types.FamilyTime
	case *arrow.MonthDayNanoIntervalType:
		return &intervalText{}, types.FamilyInterval
	}
	return nil, types.FamilyUnknown
}

// arrayOf is the part every encoder shares: the typed array of the bound
// batch and its validity bitmap.
type arrayOf[A arrow.Array] struct{ arr A }

func (b *arrayOf[A]) bind(arr arrow.Array) error {
	a, ok := arr.(A)
	if !ok {
		return fmt.Errorf("text encoder for %T got %T", b.arr, arr)
	}
	b.arr = a
	return nil
}

func (b *arrayOf[A]) isNull(i int) bool { return b.arr.IsNull(i) }

type nullText struct{}

func (*nullText) bind(arrow.Array) error              { return nil }
func (*nullText) isNull(int) bool                     { return true }
func (*nullText) appendText(dst []byte, _ int) []byte { return dst }

type boolText struct{ arrayOf[*array.Boolean] }

func (e *boolText) appendText(dst []byte, i int) []byte {
	if e.arr.Value(i) {
		return append(dst, 't')
	}
	return append(dst, 'f')
}

type int8Text struct{ arrayOf[*array.Int8] }

func (e *int8Text) appendText(dst []byte, i int) []byte {
	return strconv.AppendInt(dst, int64(e.arr.Value(i)), 10)
}

type int16Text struct{ arrayOf[*array.Int16] }

func (e *int16Text) appendText(dst []byte, i int) []byte {
	return strconv.AppendInt(dst, int64(e.arr.Value(i)), 10)
}

type int32Text struct{ arrayOf[*array.Int32] }

func (e *int32Text) appendText(dst []byte, i int) []byte {
	return strconv.AppendInt(dst, int64(e.arr.Value(i)), 10)
}

type int64Text struct{ arrayOf[*array.Int64] }

func (e *int64Text) appendText(dst []byte, i int) []byte {
	return strconv.AppendInt(dst, e.arr.Value(i), 10)
}

type float32Text struct{ arrayOf[*array.Float32] }

func (e *float32Text) appendText(dst []byte, i int) []byte {
	return types.AppendFloat(dst, float64(e.arr.Value(i)), 32)
}

type float64Text struct{ arrayOf[*array.Float64] }

func (e *float64Text) appendText(dst []byte, i int) []byte {
	return types.AppendFloat(dst, e.arr.Value(i), 64)
}

type decimal128Text struct {
	arrayOf[*array.Decimal128]
	scale int32
}

func (e *decimal128Text) appendText(dst []byte, i int) []byte {
	v := e.arr.Value(i)
	return types.AppendDecimal128(dst, v.HighBits(), v.LowBits(), e.scale)
}

type decimal64Text struct {
	arrayOf[*array.Decimal64]
	scale int32
}

func (e *decimal64Text) appendText(dst []byte, i int) []byte {
	v := int64(e.arr.Value(i))
	return types.AppendDecimal128(dst, v>>63, uint64(v), e.scale)
}

type stringText struct{ arrayOf[*array.String] }

func (e *stringText) appendText(dst []byte, i int) []byte {
	return append(dst, e.arr.Value(i)...)
}

type largeStringText struct{ arrayOf[*array.LargeString] }

func (e *largeStringText) appendText(dst []byte, i int) []byte {
	return append(dst, e.arr.Value(i)...)
}

type stringViewText struct{ arrayOf[*array.StringView] }

func (e *stringViewText) appendText(dst []byte, i int) []byte {
	return append(dst, e.arr.Value(i)...)
}

type date32Text struct{ arrayOf[*array.Date32] }

func (e *date32Text) appendText(dst []byte, i int) []byte {
	dst, bc := types.AppendDate(dst, int64(e.arr.Value(i)))
	if bc {
		dst = append(dst, " BC"...)
	}
	return dst
}

type timestampText struct {
	arrayOf[*array.Timestamp]
	unit arrow.TimeUnit
}

func (e *timestampText) appendText(dst []byte, i int) []byte {
	return types.AppendTimestamp(dst, toMicros(int64(e.arr.Value(i)), e.unit), "")
}

// timestampTZText prints an instant as the session zone's wall clock and
// offset ("2024-06-01 08:00:00-06").
type timestampTZText struct {
	arrayOf[*array.Timestamp]
	unit arrow.TimeUnit
	loc  *time.Location
}

func (e *timestampTZText) appendText(dst []byte, i int) []byte {
	return types.AppendTimestampTZ(dst, toMicros(int64(e.arr.Value(i)), e.unit), e.loc)
}

// toMicros converts a timestamp in unit to microseconds, PostgreSQL's
// resolution; nanoseconds are floored so a value never moves forward.
func toMicros(v int64, unit arrow.TimeUnit) int64 {
	if types.IsInfiniteTimestamp(v) {
		return v
	}
	switch unit {
	case arrow.Second:
		return v * 1_000_000
	case arrow.Millisecond:
		return v * 1_000
	case arrow.Nanosecond:
		q := v / 1_000
		if v%1_000 < 0 {
			q--
		}
		return q
	}
	return v
}
