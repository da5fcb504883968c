package types

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/bits"
	"reflect"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"
)

// The general numeric: PostgreSQL's numeric where a column cannot have
// one scale. A declared numeric(p,s), and a computed numeric whose values
// share a scale (a sum, a product of decimal columns), stay Arrow
// decimal128 at that scale; a value whose scale PostgreSQL picks per row
// (a quotient, an average), NaN, ±Infinity and values wider than 38
// digits are held in the sqe.numeric extension, whose storage is binary:
//
//	byte 0     form: 0 finite ≥ 0, 1 finite < 0, 2 NaN, 3 +Infinity, 4 -Infinity
//	bytes 1-2  display scale (big-endian uint16), finite values only
//	bytes 3-   the coefficient's magnitude, big-endian, without leading zeros
//
// so 1.50 is {0, 0, 2, 150} and keeps its two decimals. A value in memory
// (a constant, a parameter, one row being computed) is an *apd.Decimal
// whose exponent is minus its display scale.

// Forms of an encoded general numeric (its first byte).
const (
	numericFormPos byte = iota
	numericFormNeg
	numericFormNaN
	numericFormPosInf
	numericFormNegInf
)

// NumericGeneralStorageScale is the scale a general numeric gets when it
// is stored in a table column whose type it defines (CREATE TABLE AS) and
// nothing narrower is known: the 16 decimals of a quotient.
const NumericGeneralStorageScale = 16

// NumericMaxDisplayScaleStored is the largest display scale the encoding
// and PostgreSQL's numeric (NUMERIC_DSCALE_MAX) hold.
const NumericMaxDisplayScaleStored = 0x3FFF

// NumericGeneral is numeric with a scale per value; storageScale is the
// scale a stored column of it gets.
func NumericGeneral(storageScale int32) T {
	return T{OID: OIDNumeric, Scale: storageScale, General: true}
}

// IsGeneralNumeric reports a numeric held in the sqe.numeric extension.
func (t T) IsGeneralNumeric() bool { return t.OID == OIDNumeric && t.General }

// NumericType is the Arrow extension type of the general numeric.
type NumericType struct {
	arrow.ExtensionBase
}

// NumericArrowType is the one instance of NumericType; it holds no state.
var NumericArrowType = &NumericType{ExtensionBase: arrow.ExtensionBase{Storage: arrow.BinaryTypes.Binary}}

// ArrayType is the array type the extension's arrays are built as.
func (*NumericType) ArrayType() reflect.Type { return reflect.TypeOf(NumericArray{}) }

// ExtensionName names the extension in Arrow metadata.
func (*NumericType) ExtensionName() string { return "sqe.numeric" }

// Serialize has nothing to write: the type has no parameters.
func (*NumericType) Serialize() string { return "" }

// Deserialize rebuilds the type from Arrow metadata.
func (*NumericType) Deserialize(storage arrow.DataType, _ string) (arrow.ExtensionType, error) {
	if !arrow.TypeEqual(storage, arrow.BinaryTypes.Binary) {
		return nil, fmt.Errorf("sqe.numeric: storage %s is not binary", storage)
	}
	return NumericArrowType, nil
}

// ExtensionEquals reports another sqe.numeric.
func (t *NumericType) ExtensionEquals(o arrow.ExtensionType) bool {
	return o.ExtensionName() == t.ExtensionName()
}

func (*NumericType) String() string { return "extension<sqe.numeric>" }

// NumericArray is an array of general numerics.
type NumericArray struct {
	array.ExtensionArrayBase
}

// Bytes is row i's encoding (undefined for NULL rows).
func (a *NumericArray) Bytes(i int) []byte {
	return a.Storage().(*array.Binary).Value(i)
}

// ValueStr is row i as numeric_out prints it.
func (a *NumericArray) ValueStr(i int) string {
	if a.IsNull(i) {
		return array.NullValueStr
	}
	return string(AppendNumericText(nil, a.Bytes(i)))
}

// NumericBuilder appends encoded general numerics to an extension builder
// of NumericArrowType.
func NumericBuilder(b array.Builder) *array.BinaryBuilder {
	return b.(*array.ExtensionBuilder).StorageBuilder().(*array.BinaryBuilder)
}

// NewNumericArray wraps binary storage of encoded values.
func NewNumericArray(storage arrow.Array) *NumericArray {
	return array.NewExtensionArrayWithStorage(NumericArrowType, storage).(*NumericArray)
}

// NumericNaN, NumericPosInf and NumericNegInf build the special values.
func NumericNaN() *apd.Decimal { return &apd.Decimal{Form: apd.NaN} }

// NumericInf is +Infinity, or -Infinity when neg.
func NumericInf(neg bool) *apd.Decimal { return &apd.Decimal{Form: apd.Infinite, Negative: neg} }

// NumericDisplayScale is d's display scale (0 for special values).
func NumericDisplayScale(d *apd.Decimal) int32 {
	if d.Form != apd.Finite || d.Exponent >= 0 {
		return 0
	}
	return -d.Exponent
}

// AppendNumeric appends d's encoding. A positive exponent is written at
// scale 0 (PostgreSQL's display scale is never negative).
func AppendNumeric(dst []byte, d *apd.Decimal) []byte {
	switch d.Form {
	case apd.NaN, apd.NaNSignaling:
		return append(dst, numericFormNaN)
	case apd.Infinite:
		if d.Negative {
			return append(dst, numericFormNegInf)
		}
		return append(dst, numericFormPosInf)
	}
	coeff, scale := &d.Coeff, d.Exponent
	if scale > 0 {
		var c apd.BigInt
		c.Mul(coeff, Pow10Apd(scale))
		coeff, scale = &c, 0
	}
	form := numericFormPos
	if d.Negative && coeff.Sign() != 0 {
		form = numericFormNeg
	}
	dst = append(dst, form, byte(uint16(-scale)>>8), byte(uint16(-scale)))
	if coeff.IsUint64() {
		return appendUint64Magnitude(dst, coeff.Uint64())
	}
	return append(dst, coeff.Bytes()...)
}

func appendUint64Magnitude(dst []byte, u uint64) []byte {
	if u == 0 {
		return dst
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], u)
	return append(dst, b[bits.LeadingZeros64(u)/8:]...)
}

// DecodeNumeric reads an encoding into d, without allocating for
// coefficients of up to 64 bits.
func DecodeNumeric(b []byte, d *apd.Decimal) {
	switch b[0] {
	case numericFormNaN:
		d.Form, d.Negative, d.Exponent = apd.NaN, false, 0
		d.Coeff.SetUint64(0)
		return
	case numericFormPosInf, numericFormNegInf:
		d.Form, d.Negative, d.Exponent = apd.Infinite, b[0] == numericFormNegInf, 0
		d.Coeff.SetUint64(0)
		return
	}
	d.Form, d.Negative = apd.Finite, b[0] == numericFormNeg
	d.Exponent = -int32(binary.BigEndian.Uint16(b[1:3]))
	mag := b[3:]
	if len(mag) <= 8 {
		var u uint64
		for _, c := range mag {
			u = u<<8 | uint64(c)
		}
		d.Coeff.SetUint64(u)
		return
	}
	d.Coeff.SetBytes(mag)
}

// NumericFromBytes decodes an encoding into a new value.
func NumericFromBytes(b []byte) *apd.Decimal {
	d := new(apd.Decimal)
	DecodeNumeric(b, d)
	return d
}

// NumericIsSpecial reports NaN and ±Infinity encodings.
func NumericIsSpecial(b []byte) bool { return b[0] >= numericFormNaN }

// NumericInfSign is 1 for +Infinity's encoding, -1 for -Infinity's, 0
// for any other.
func NumericInfSign(b []byte) int {
	switch b[0] {
	case numericFormPosInf:
		return 1
	case numericFormNegInf:
		return -1
	}
	return 0
}

// AppendNumericText appends an encoding as numeric_out prints it.
func AppendNumericText(dst, b []byte) []byte {
	switch b[0] {
	case numericFormNaN:
		return append(dst, "NaN"...)
	case numericFormPosInf:
		return append(dst, "Infinity"...)
	case numericFormNegInf:
		return append(dst, "-Infinity"...)
	}
	scale := int32(binary.BigEndian.Uint16(b[1:3]))
	mag := b[3:]
	if hi, lo, ok := NumericMagnitude128(mag, b[0] == numericFormNeg); ok {
		return AppendDecimal128(dst, hi, lo, scale)
	}
	digits := new(big.Int).SetBytes(mag).String()
	if b[0] == numericFormNeg {
		dst = append(dst, '-')
	}
	return appendScaledDigits(dst, digits, int(scale))
}

// NumericMagnitude128 is a general numeric's magnitude (big-endian bytes)
// with its sign as a two's-complement 128-bit integer (hi, lo), when it
// fits; ok is false for a wider one.
func NumericMagnitude128(mag []byte, neg bool) (hi int64, lo uint64, ok bool) {
	if len(mag) > 16 || len(mag) == 16 && mag[0] >= 0x80 {
		return 0, 0, false
	}
	var uhi uint64
	for _, c := range mag {
		uhi = uhi<<8 | lo>>56
		lo = lo<<8 | uint64(c)
	}
	if neg {
		lo = ^lo + 1
		uhi = ^uhi
		if lo == 0 {
			uhi++
		}
	}
	return int64(uhi), lo, true
}

// appendScaledDigits places a decimal point scale digits from the right
// of a digit string.
func appendScaledDigits(dst []byte, digits string, scale int) []byte {
	if scale == 0 {
		return append(dst, digits...)
	}
	if len(digits) <= scale {
		dst = append(dst, '0', '.')
		for i := len(digits); i < scale; i++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[:len(digits)-scale]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-scale:]...)
}

// NumericString is d as numeric_out prints it.
func NumericString(d *apd.Decimal) string {
	var enc, text [48]byte
	return string(AppendNumericText(text[:0], AppendNumeric(enc[:0], d)))
}

// NumericFromDecimal128 is the value of a decimal128 of scale s.
func NumericFromDecimal128(n decimal128.Num, scale int32) *apd.Decimal {
	d := new(apd.Decimal)
	SetNumericFromDecimal128(d, n, scale)
	return d
}

// SetNumericFromDecimal128 sets d to a decimal128 of scale s.
func SetNumericFromDecimal128(d *apd.Decimal, n decimal128.Num, scale int32) {
	d.Form, d.Exponent = apd.Finite, -scale
	d.Negative = n.Sign() < 0
	if d.Negative {
		n = n.Negate()
	}
	if n.HighBits() == 0 {
		d.Coeff.SetUint64(n.LowBits())
		return
	}
	d.Coeff.SetMathBigInt(n.BigInt())
}

// Pow10Apd is 10^n, n ≥ 0.
func Pow10Apd(n int32) *apd.BigInt {
	z := new(apd.BigInt)
	if n < 20 {
		return z.SetUint64(pow10Uint64(n))
	}
	return z.Exp(apd.NewBigInt(10), apd.NewBigInt(int64(n)), nil)
}

func pow10Uint64(n int32) uint64 {
	p := uint64(1)
	for ; n > 0; n-- {
		p *= 10
	}
	return p
}

// NumericArrayToFixed converts general numerics to decimal128 at to's
// scale (rounding half away from zero), for a column stored with one
// scale; NaN, the infinities and values past to's precision are errors.
func NumericArrayToFixed(a *NumericArray, to T) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, to.Arrow())
	defer bld.Release()
	bld.Reserve(a.Len())
	var d apd.Decimal
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			bld.AppendNull()
			continue
		}
		DecodeNumeric(a.Bytes(i), &d)
		n, err := NumericToFixed(&d, to)
		if err != nil {
			return nil, err
		}
		// n is within to's precision: a decimal64 holds it.
		switch b := bld.(type) {
		case *array.Decimal128Builder:
			b.Append(n)
		case *array.Decimal64Builder:
			b.Append(decimal.Decimal64(n.LowBits()))
		}
	}
	return bld.NewArray(), nil
}
