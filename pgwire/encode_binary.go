package pgwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/types"
)

// Offsets between the Unix epoch, where Arrow counts from, and
// 2000-01-01, where PostgreSQL's binary date and timestamp count from.
const (
	pgEpochDays   = 10957
	pgEpochMicros = pgEpochDays * 86400 * 1_000_000
)

// binaryEncoder appends the PostgreSQL binary (typsend) form of one
// column's values. Like textEncoder it is chosen once per column and
// re-pointed at each batch, so the per-value path does not allocate.
type binaryEncoder interface {
	bind(arr arrow.Array) error
	isNull(i int) bool
	// appendBinary appends row i's value; only called for non-null rows.
	appendBinary(dst []byte, i int) []byte
}

// newBinaryEncoder picks the binary encoder for a column of type col.Type
// held in Arrow arrays of type dt. The PostgreSQL type decides the wire
// width (an int4 column is sent in 4 bytes whatever Arrow integer holds
// it), because that is what the client decodes by.
func newBinaryEncoder(col sql.Column, dt arrow.DataType) (binaryEncoder, error) {
	enc, family := binaryEncoderFor(col.Type, dt)
	if enc == nil {
		return nil, fmt.Errorf("column %q: no binary encoding for arrow type %s", col.Name, dt)
	}
	if fam := col.Type.Family(); family != types.FamilyUnknown && fam != types.FamilyUnknown && fam != family {
		return nil, fmt.Errorf("column %q: arrow type %s cannot carry %s", col.Name, dt, col.Type)
	}
	return enc, nil
}

func binaryEncoderFor(t types.T, dt arrow.DataType) (binaryEncoder, types.Family) {
	switch d := dt.(type) {
	case *arrow.NullType:
		return &nullBinary{}, types.FamilyUnknown
	case *arrow.BooleanType:
		return &boolBinary{}, types.FamilyBool
	case *arrow.Int8Type:
		return &intBinary[int8, *array.Int8]{width: intWidth(t, 2)}, types.FamilyInt
	case *arrow.Int16Type:
		return &intBinary[int16, *array.Int16]{width: intWidth(t, 2)}, types.FamilyInt
	case *arrow.Int32Type:
		return &intBinary[int32, *array.Int32]{width: intWidth(t, 4)}, types.FamilyInt
	case *arrow.Int64Type:
		return &intBinary[int64, *array.Int64]{width: intWidth(t, 8)}, types.FamilyInt
	case *arrow.Uint32Type:
		return &uint32Binary{}, types.FamilyOID
	case *arrow.ListType:
		return newListBinary(t, d)
	case *arrow.Float32Type:
		return &floatBinary[float32, *array.Float32]{double: t.OID == types.OIDFloat8}, types.FamilyFloat
	case *arrow.Float64Type:
		return &floatBinary[float64, *array.Float64]{double: t.OID != types.OIDFloat4}, types.FamilyFloat
	case *arrow.Decimal128Type:
		return &numericBinary{scale: d.Scale}, types.FamilyNumeric
	case *arrow.Decimal64Type:
		return &numeric64Binary{scale: d.Scale}, types.FamilyNumeric
	case *types.NumericType:
		return &generalNumericBinary{}, types.FamilyNumeric
	case *arrow.StringType:
		if t.OID == types.OIDJSONB {
			return &jsonbBinary{}, types.FamilyJSON
		}
		return &rawBinary[*array.String]{}, stringFamily(t)
	case *arrow.LargeStringType:
		return &rawBinary[*array.LargeString]{}, types.FamilyString
	case *arrow.StringViewType:
		return &rawBinary[*array.StringView]{}, types.FamilyString
	case *arrow.FixedSizeBinaryType:
		if d.ByteWidth != 16 {
			return nil, types.FamilyUnknown
		}
		return &bytesBinary[*array.FixedSizeBinary]{}, types.FamilyUUID
	case *arrow.BinaryType:
		return &bytesBinary[*array.Binary]{}, types.FamilyBytes
	case *arrow.LargeBinaryType:
		return &bytesBinary[*array.LargeBinary]{}, types.FamilyBytes
	case *arrow.Date32Type:
		return &date32Binary{}, types.FamilyDate
	case *arrow.TimestampType:
		return &timestampBinary{unit: d.Unit}, types.FamilyTimestamp
	case *arrow.Time64Type:
		return &time64Binary{unit: d.Unit}, types.FamilyTime
	case *arrow.MonthDayNanoIntervalType:
		return &intervalBinary{}, types.FamilyInterval
	}
	return nil, types.FamilyUnknown
}

// intWidth is the byte width of integer type t on the wire, or natural
// when t is not a PostgreSQL integer type.
func intWidth(t types.T, natural int) int {
	switch t.OID {
	case types.OIDInt2:
		return 2
	case types.OIDInt4:
		return 4
	case types.OIDInt8:
		return 8
	}
	return natural
}

type nullBinary struct{}

func (*nullBinary) bind(arrow.Array) error                { return nil }
func (*nullBinary) isNull(int) bool                       { return true }
func (*nullBinary) appendBinary(dst []byte, _ int) []byte { return dst }

type boolBinary struct{ arrayOf[*array.Boolean] }

func (e *boolBinary) appendBinary(dst []byte, i int) []byte {
	if e.arr.Value(i) {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// intArray is an Arrow integer array with values of type T.
type intArray[T int8 | int16 | int32 | int64] interface {
	arrow.Array
	Value(int) T
}

type intBinary[T int8 | int16 | int32 | int64, A intArray[T]] struct {
	arrayOf[A]
	width int
}

func (e *intBinary[T, A]) appendBinary(dst []byte, i int) []byte {
	v := int64(e.arr.Value(i))
	switch e.width {
	case 2:
		return binary.BigEndian.AppendUint16(dst, uint16(v))
	case 4:
		return binary.BigEndian.AppendUint32(dst, uint32(v))
	}
	return binary.BigEndian.AppendUint64(dst, uint64(v))
}

// floatArray is an Arrow floating-point array with values of type T.
type floatArray[T float32 | float64] interface {
	arrow.Array
	Value(int) T
}

type floatBinary[T float32 | float64, A floatArray[T]] struct {
	arrayOf[A]
	double bool // float8 on the wire, else float4
}

func (e *floatBinary[T, A]) appendBinary(dst []byte, i int) []byte {
	v := e.arr.Value(i)
	// PostgreSQL sends the one canonical quiet NaN; Go's math.NaN() has
	// other payload bits.
	if e.double {
		bits := math.Float64bits(float64(v))
		if v != v {
			bits = 0x7ff8000000000000
		}
		return binary.BigEndian.AppendUint64(dst, bits)
	}
	bits := math.Float32bits(float32(v))
	if v != v {
		bits = 0x7fc00000
	}
	return binary.BigEndian.AppendUint32(dst, bits)
}

// stringArray is an Arrow array of strings, whatever its layout.
type stringArray interface {
	arrow.Array
	Value(int) string
}

// rawBinary sends text as its bytes, which is textsend's format.
type rawBinary[A stringArray] struct{ arrayOf[A] }

func (e *rawBinary[A]) appendBinary(dst []byte, i int) []byte {
	return append(dst, e.arr.Value(i)...)
}

type date32Binary struct{ arrayOf[*array.Date32] }

func (e *date32Binary) appendBinary(dst []byte, i int) []byte {
	d := int32(e.arr.Value(i))
	if !types.IsInfiniteDate(int64(d)) {
		// The infinities are the same extremes in both epochs.
		d -= pgEpochDays
	}
	return binary.BigEndian.AppendUint32(dst, uint32(d))
}

type timestampBinary struct {
	arrayOf[*array.Timestamp]
	unit arrow.TimeUnit
}

func (e *timestampBinary) appendBinary(dst []byte, i int) []byte {
	m := toMicros(int64(e.arr.Value(i)), e.unit)
	if !types.IsInfiniteTimestamp(m) {
		m -= pgEpochMicros
	}
	return binary.BigEndian.AppendUint64(dst, uint64(m))
}

type numericBinary struct {
	arrayOf[*array.Decimal128]
	scale int32
}

func (e *numericBinary) appendBinary(dst []byte, i int) []byte {
	v := e.arr.Value(i)
	return appendNumericBinary(dst, v.HighBits(), v.LowBits(), e.scale)
}

type numeric64Binary struct {
	arrayOf[*array.Decimal64]
	scale int32
}

func (e *numeric64Binary) appendBinary(dst []byte, i int) []byte {
	v := int64(e.arr.Value(i))
	return appendNumericBinary(dst, v>>63, uint64(v), e.scale)
}

// Sign words of PostgreSQL's binary numeric.
const (
	numericPositive = 0x0000
	numericNegative = 0x4000
)

// appendNumericBinary appends the 128-bit two's-complement integer hi:lo
// scaled by 10^-scale in numeric_send's format: ndigits, weight, sign and
// dscale as int16, then ndigits base-10000 digits, most significant first.
// The digit groups are aligned on the decimal point (weight counts groups
// before it, minus one) and leading and trailing zero groups are left out,
// as PostgreSQL stores them; dscale is the column scale.
func appendNumericBinary(dst []byte, hi int64, lo uint64, scale int32) []byte {
	var dec [48]byte // decimal digits, least significant first
	n, neg := decimalDigits(&dec, hi, lo)
	dscale := scale
	shift := int(-scale) // the exponent of dec[0]
	if scale < 0 {
		dscale = 0
	}
	if n == 0 {
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, 0)
		dst = binary.BigEndian.AppendUint16(dst, numericPositive)
		return binary.BigEndian.AppendUint16(dst, uint16(dscale))
	}
	// Group g (exponent 4g .. 4g+3) collects the decimal digits whose
	// exponent floors to it; an arithmetic shift is a floor division.
	low := shift >> 2
	high := (n - 1 + shift) >> 2
	var groups [24]uint16 // groups[k] is group low+k; 39 digits span at most 11
	for k := 0; k < n; k++ {
		e := k + shift
		g := e>>2 - low
		groups[g] += uint16(dec[k]) * pow10u16[e-(e>>2)*4]
	}
	first := 0
	for groups[first] == 0 { // trailing (least significant) zero groups
		first++
	}
	ndigits := high - low + 1 - first
	sign := uint16(numericPositive)
	if neg {
		sign = numericNegative
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(ndigits))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(high)))
	dst = binary.BigEndian.AppendUint16(dst, sign)
	dst = binary.BigEndian.AppendUint16(dst, uint16(dscale))
	for g := high - low; g >= first; g-- {
		dst = binary.BigEndian.AppendUint16(dst, groups[g])
	}
	return dst
}

var pow10u16 = [4]uint16{1, 10, 100, 1000}

// decimalDigits writes the decimal digits of |hi:lo| into dec, least
// significant first, and returns how many there are (0 for zero) and
// whether the value is negative.
func decimalDigits(dec *[48]byte, hi int64, lo uint64) (int, bool) {
	neg := hi < 0
	uhi := uint64(hi)
	if neg {
		lo = ^lo + 1
		uhi = ^uhi
		if lo == 0 {
			uhi++
		}
	}
	n := 0
	for uhi != 0 || lo != 0 {
		var rem uint64
		uhi, rem = bits.Div64(0, uhi, 1e19)
		lo, rem = bits.Div64(rem, lo, 1e19)
		for k := 0; k < 19 && (rem != 0 || uhi != 0 || lo != 0); k++ {
			dec[n] = byte(rem % 10)
			rem /= 10
			n++
		}
	}
	return n, neg
}
