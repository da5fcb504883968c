package types

import (
	"encoding/binary"
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PostgreSQL's binary date and timestamp values count from 2000-01-01.
const (
	pgEpochDays   = 10957           // days from 1970-01-01 to 2000-01-01
	pgEpochMicros = 946684800000000 // microseconds from 1970-01-01 to 2000-01-01
)

func badBinary(t T) error {
	return pgerror.New(pgerror.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter of type %s", t.Name())
}

// DecodeBinary converts a parameter sent in binary format (the type's
// receive function) to the value representation of ParseText.
func DecodeBinary(data []byte, t T) (any, error) {
	need := func(n int) error {
		if len(data) != n {
			return badBinary(t)
		}
		return nil
	}
	switch t.OID {
	case OIDBool:
		if err := need(1); err != nil {
			return nil, err
		}
		return data[0] != 0, nil
	case OIDInt2:
		if err := need(2); err != nil {
			return nil, err
		}
		return int64(int16(binary.BigEndian.Uint16(data))), nil
	case OIDInt4:
		if err := need(4); err != nil {
			return nil, err
		}
		return int64(int32(binary.BigEndian.Uint32(data))), nil
	case OIDInt8:
		if err := need(8); err != nil {
			return nil, err
		}
		return int64(binary.BigEndian.Uint64(data)), nil
	case OIDFloat4:
		if err := need(4); err != nil {
			return nil, err
		}
		return float64(math.Float32frombits(binary.BigEndian.Uint32(data))), nil
	case OIDFloat8:
		if err := need(8); err != nil {
			return nil, err
		}
		return math.Float64frombits(binary.BigEndian.Uint64(data)), nil
	case OIDTime:
		if err := need(8); err != nil {
			return nil, err
		}
		v := int64(binary.BigEndian.Uint64(data))
		if v < 0 || v > microsPerDay {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "time out of range")
		}
		return v, nil
	case OIDInterval:
		if err := need(16); err != nil {
			return nil, err
		}
		return IntervalValue{
			Micros: int64(binary.BigEndian.Uint64(data)),
			Days:   int32(binary.BigEndian.Uint32(data[8:])),
			Months: int32(binary.BigEndian.Uint32(data[12:])),
		}, nil
	case OIDText, OIDVarchar, OIDBpchar, OIDUnknown:
		if !utf8.Valid(data) {
			return nil, pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		return ParseText(string(data), t)
	case OIDDate:
		if err := need(4); err != nil {
			return nil, err
		}
		d := int32(binary.BigEndian.Uint32(data))
		if IsInfiniteDate(int64(d)) {
			return d, nil
		}
		return d + pgEpochDays, nil
	case OIDTimestamp, OIDTimestampTZ:
		if err := need(8); err != nil {
			return nil, err
		}
		m := int64(binary.BigEndian.Uint64(data))
		if IsInfiniteTimestamp(m) {
			return m, nil
		}
		return m + pgEpochMicros, nil
	case OIDNumeric:
		return decodeBinaryNumeric(data, t)
	case OIDUUID:
		if err := need(16); err != nil {
			return nil, err
		}
		return append([]byte(nil), data...), nil
	case OIDBytea:
		return append([]byte{}, data...), nil
	case OIDJSON, OIDJSONB:
		if t.OID == OIDJSONB {
			// jsonb_send prefixes its text with a version number, 1.
			if len(data) == 0 || data[0] != 1 {
				return nil, badBinary(t)
			}
			data = data[1:]
		}
		if !utf8.Valid(data) {
			return nil, pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		return ParseText(string(data), t)
	}
	if t.Family() == FamilyArray {
		return decodeBinaryArray(data, t)
	}
	return nil, pgerror.Unsupported("binary parameters of type %s are not supported yet", t.Name())
}

// decodeBinaryNumeric reads PostgreSQL's numeric_send format: ndigits,
// weight, sign, dscale (int16 each) and ndigits base-10000 digits.
func decodeBinaryNumeric(data []byte, t T) (any, error) {
	if len(data) < 8 {
		return nil, badBinary(t)
	}
	ndigits := int(binary.BigEndian.Uint16(data[0:]))
	weight := int(int16(binary.BigEndian.Uint16(data[2:])))
	sign := binary.BigEndian.Uint16(data[4:])
	dscale := int32(binary.BigEndian.Uint16(data[6:]))
	if len(data) != 8+2*ndigits || dscale > NumericMaxDisplayScaleStored {
		return nil, badBinary(t)
	}
	var special *apd.Decimal
	switch sign {
	case 0x0000, 0x4000:
	case 0xC000:
		special = NumericNaN()
	case 0xD000, 0xF000:
		special = NumericInf(sign == 0xF000)
	default:
		return nil, badBinary(t)
	}
	if special != nil || t.General || dscale > MaxNumericPrecision || ndigits > (MaxNumericPrecision+3)/4+1 {
		d, err := decodeBinaryGeneral(data, ndigits, weight, sign, dscale, special, t)
		if err != nil || t.General {
			return d, err
		}
		return NumericToFixed(d.(*apd.Decimal), t)
	}
	// value = sum(digit[i] * 10000^(weight-i)); build it as an integer at
	// scale 4*(ndigits-1-weight) and rescale to dscale.
	v, err := binaryNumericDigits(data, ndigits, t)
	if err != nil {
		return nil, err
	}
	scale := int32(4 * (ndigits - 1 - weight))
	if scale < 0 {
		v.Mul(v, Pow10(-scale))
		scale = 0
	}
	if sign == 0x4000 {
		v.Neg(v)
	}
	target := t
	if t.Precision == 0 {
		target.Scale = max(t.Scale, dscale)
	}
	n, ok := RoundBig(v, scale, target.Scale)
	if !ok {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	return CheckNumericPrecision(n, target)
}

// binaryNumericDigits is the integer numeric_send's base-10000 digits
// spell (at scale 4×(ndigits-1-weight)).
func binaryNumericDigits(data []byte, ndigits int, t T) (*big.Int, error) {
	v := new(big.Int)
	for i := 0; i < ndigits; i++ {
		d := binary.BigEndian.Uint16(data[8+2*i:])
		if d > 9999 {
			return nil, badBinary(t)
		}
		v.Mul(v, big.NewInt(10000)).Add(v, big.NewInt(int64(d)))
	}
	return v, nil
}

// decodeBinaryGeneral reads numeric_send's digits into a general value.
func decodeBinaryGeneral(data []byte, ndigits, weight int, sign uint16, dscale int32, special *apd.Decimal, t T) (any, error) {
	if special != nil {
		return special, nil
	}
	v, err := binaryNumericDigits(data, ndigits, t)
	if err != nil {
		return nil, err
	}
	// v is the value at scale 4×(ndigits-1-weight); bring it to dscale.
	d := new(apd.Decimal)
	d.Coeff.SetMathBigInt(v)
	d.Exponent = -int32(4 * (ndigits - 1 - weight))
	d.Negative = sign == 0x4000 && v.Sign() != 0
	NumericRound(d, d, dscale)
	return d, nil
}

// DecodeParam converts a bound parameter (format 0 text, 1 binary) of
// type t. It returns the type the value is held at: for a numeric without
// a declared scale that is the scale the client sent, since PostgreSQL
// keeps a numeric's scale per value.
func DecodeParam(raw []byte, format int16, t T) (any, T, error) {
	var v any
	var err error
	switch format {
	case 0:
		if !utf8.Valid(raw) {
			return nil, t, pgerror.New(pgerror.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\"")
		}
		if t.OID == OIDNumeric && t.Precision == 0 {
			n, scale, err := ParseNumericLiteral(strings.TrimSpace(string(raw)))
			if err != nil || t.General {
				// NaN, an infinity or more than 38 digits: a general value.
				d, gerr := ParseNumeric(string(raw))
				if gerr != nil {
					return nil, t, gerr
				}
				return d, NumericGeneral(max(t.Scale, NumericDisplayScale(d))), nil
			}
			return n, T{OID: OIDNumeric, Scale: scale}, nil
		}
		v, err = ParseText(string(raw), t)
	case 1:
		if t.OID == OIDNumeric && t.Precision == 0 && len(raw) >= 8 {
			// An unconstrained numeric keeps the client's value: special
			// and wide values as a general numeric.
			dscale := int32(binary.BigEndian.Uint16(raw[6:]))
			t.Scale = max(t.Scale, dscale)
			if sign := binary.BigEndian.Uint16(raw[4:]); sign&0xC000 == 0xC000 || dscale > MaxNumericPrecision || len(raw) > 8+2*((MaxNumericPrecision+3)/4+1) {
				t = NumericGeneral(t.Scale)
			}
		}
		v, err = DecodeBinary(raw, t)
	default:
		return nil, t, pgerror.New(pgerror.ProtocolViolation, "unsupported format code: %d", format)
	}
	return v, t, err
}

// decodeBinaryArray reads array_send's format: ndim, a has-null flag and
// the element type OID (int32 each), then per dimension its length and
// lower bound, then each element as a length (-1 for NULL) and its bytes.
// SQE's arrays are one-dimensional.
func decodeBinaryArray(data []byte, t T) (any, error) {
	elem, ok := t.Elem()
	if !ok || len(data) < 12 {
		return nil, badBinary(t)
	}
	ndim := int32(binary.BigEndian.Uint32(data))
	elemOID := binary.BigEndian.Uint32(data[8:])
	data = data[12:]
	if ndim == 0 {
		return []any{}, nil
	}
	if ndim != 1 {
		return nil, pgerror.Unsupported("multi-dimensional arrays are not supported yet")
	}
	if elemOID != elem.OID || len(data) < 8 {
		return nil, pgerror.New(pgerror.DatatypeMismatch, "wrong element type")
	}
	n := int32(binary.BigEndian.Uint32(data))
	data = data[8:]
	if n < 0 || int64(n) > int64(len(data))/4 {
		return nil, badBinary(t)
	}
	out := make([]any, 0, n)
	for i := int32(0); i < n; i++ {
		if len(data) < 4 {
			return nil, badBinary(t)
		}
		size := int32(binary.BigEndian.Uint32(data))
		data = data[4:]
		if size == -1 {
			out = append(out, nil)
			continue
		}
		if size < 0 || int(size) > len(data) {
			return nil, badBinary(t)
		}
		v, err := DecodeBinary(data[:size], elem)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
		data = data[size:]
	}
	if len(data) != 0 {
		return nil, badBinary(t)
	}
	return out, nil
}
