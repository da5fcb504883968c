package types

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Values of SQL constants and parameters are held as: bool, int64 (all
// integer types), float64, decimal128.Num (numeric, at the type's scale),
// string, int32 days since 1970-01-01 (date), int64 microseconds since
// 1970-01-01 UTC (timestamps), []byte (uuid, bytea).

func CheckIntRange(i int64, t T) (any, error) {
	switch t.OID {
	case OIDInt2:
		if i < math.MinInt16 || i > math.MaxInt16 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "smallint out of range")
		}
	case OIDInt4:
		if i < math.MinInt32 || i > math.MaxInt32 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
		}
	}
	return i, nil
}

func RescaleNumeric(n decimal128.Num, fromScale int32, to T) (any, error) {
	r, ok := Rescale(n, fromScale, to.Scale)
	if !ok {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	return CheckNumericPrecision(r, to)
}

func CheckNumericPrecision(n decimal128.Num, to T) (any, error) {
	p := to.Precision
	if p == 0 {
		p = MaxNumericPrecision
	}
	if !n.FitsInPrecision(p) {
		if to.Precision == 0 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
			WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", to.Precision, to.Scale, to.Precision-to.Scale)
	}
	return n, nil
}

// ParseNumericLiteral reads a numeric constant as written, keeping its
// scale as PostgreSQL does.
func ParseNumericLiteral(s string) (decimal128.Num, int32, error) {
	if n, scale, ok := parseShortDecimal(s); ok {
		return n, scale, nil
	}
	return parseDecimalLiteral(s)
}

// parseDecimalLiteral is ParseNumericLiteral's general path: exponents and
// up to 38 digits.
func parseDecimalLiteral(s string) (decimal128.Num, int32, error) {
	mant := s
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return decimal128.Num{}, 0, invalidInput("numeric", s)
		}
		// Beyond decimal128's 38 digits either way the value cannot be
		// held; refuse before building a huge digit string.
		if e > 2*MaxNumericPrecision || e < -2*MaxNumericPrecision {
			return decimal128.Num{}, 0, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		mant, exp = s[:i], e
	}
	if !isDecimalMantissa(mant) {
		return decimal128.Num{}, 0, invalidInput("numeric", s)
	}
	if len(mant) > 2*MaxNumericPrecision+2 {
		return decimal128.Num{}, 0, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	scale := 0
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		scale = len(mant) - i - 1
		mant = mant[:i] + mant[i+1:]
	}
	scale -= exp
	if scale < 0 {
		mant += strings.Repeat("0", -scale)
		scale = 0
	}
	if scale > MaxNumericPrecision {
		return decimal128.Num{}, 0, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	n, err := decimal128.FromString(mant, MaxNumericPrecision, 0)
	if err != nil {
		return decimal128.Num{}, 0, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
	}
	return n, int32(scale), nil
}

func invalidInput(typ, s string) error {
	return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typ, s)
}

// ParseText converts text to a value of t as the type's input function
// does (a literal, or a parameter sent in text format).
func ParseText(s string, t T) (any, error) {
	trimmed := strings.TrimSpace(s)
	switch t.Family() {
	case FamilyString:
		// An explicit cast to varchar(n) truncates, as in PostgreSQL.
		if t.OID == OIDVarchar && t.Precision > 0 {
			if r := []rune(s); int32(len(r)) > t.Precision {
				return string(r[:t.Precision]), nil
			}
		}
		if t.OID == OIDBpchar && t.Precision > 0 {
			return PadBpchar(s, t.Precision), nil
		}
		return s, nil
	case FamilyTime:
		return ParseTime(s)
	case FamilyInterval:
		fields := IntervalFullRange
		if t.Precision != 0 {
			fields = t.Precision
		}
		return ParseInterval(s, fields)
	case FamilyBool:
		switch strings.ToLower(trimmed) {
		case "t", "true", "yes", "y", "on", "1":
			return true, nil
		case "f", "false", "no", "n", "off", "0":
			return false, nil
		}
		return nil, invalidInput("boolean", s)
	case FamilyInt:
		i, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, t.Name())
			}
			return nil, invalidInput(t.Name(), s)
		}
		if _, err := CheckIntRange(i, t); err != nil {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, t.Name())
		}
		return i, nil
	case FamilyArray:
		return parseArray(s, t)
	case FamilyUUID:
		return ParseUUID(s)
	case FamilyBytes:
		return ParseBytea(s)
	case FamilyJSON:
		if t.OID == OIDJSONB {
			return NormalizeJSONB(s)
		}
		if err := ValidateJSON(s); err != nil {
			return nil, err
		}
		return s, nil
	case FamilyOID:
		u, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil {
			return nil, invalidInput(t.Name(), s)
		}
		if u < -(1<<31) || u > 1<<32-1 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, t.Name())
		}
		return int64(uint32(u)), nil
	case FamilyFloat:
		switch strings.ToLower(trimmed) {
		case "nan":
			return math.NaN(), nil
		case "infinity", "inf", "+infinity", "+inf":
			return math.Inf(1), nil
		case "-infinity", "-inf":
			return math.Inf(-1), nil
		}
		if t.OID == OIDFloat4 {
			return parseFloat4(s, trimmed)
		}
		f, err := strconv.ParseFloat(trimmed, 64)
		if err != nil {
			return nil, invalidInput(t.Name(), s)
		}
		return f, nil
	case FamilyNumeric:
		if t.General {
			return ParseNumeric(s)
		}
		n, scale, err := ParseNumericLiteral(trimmed)
		if err != nil {
			if d, gerr := ParseNumeric(s); gerr == nil {
				// NaN, an infinity or more than 38 digits: PostgreSQL
				// holds it; a fixed numeric cannot.
				return NumericToFixed(d, t)
			}
			return nil, invalidInput("numeric", s)
		}
		target := t
		if t.Precision == 0 {
			target.Scale = max(t.Scale, scale)
		}
		return RescaleNumeric(n, scale, target)
	case FamilyDate:
		return parseDateInput(s)
	case FamilyTimestamp:
		p, err := parseTimestampInput(s, t)
		if err != nil {
			return nil, err
		}
		if p.special != "" && t.OID != OIDTimestampTZ {
			// A wall clock relative to now needs the session's zone,
			// which only ParseTimestampIn has.
			return nil, pgerror.Unsupported("timestamp input \"%s\" is not supported yet", trimmed)
		}
		return p.instant(t, time.UTC, time.Now()), nil
	}
	return nil, pgerror.Unsupported("literals of type %s are not supported yet", t.Name())
}

// PadBpchar converts s to character(n): blank-padded to n characters,
// or cut to n as an explicit cast does.
func PadBpchar(s string, n int32) string {
	count := int32(utf8.RuneCountInString(s))
	switch {
	case count > n:
		r := []rune(s)
		return string(r[:n])
	case count < n:
		return s + strings.Repeat(" ", int(n-count))
	}
	return s
}

// parseArray reads a one-dimensional array's text form ({a,"b c",NULL})
// into []any of element values.
func parseArray(s string, t T) (any, error) {
	elem, ok := t.Elem()
	if !ok {
		return nil, invalidInput(t.Name(), s)
	}
	in := strings.TrimSpace(s)
	if len(in) < 2 || in[0] != '{' || in[len(in)-1] != '}' {
		return nil, pgerror.New(pgerror.InvalidTextRepresentation, "malformed array literal: \"%s\"", s)
	}
	body := in[1 : len(in)-1]
	out := []any{}
	if strings.TrimSpace(body) == "" {
		return out, nil
	}
	i := 0
	for {
		for i < len(body) && body[i] == ' ' {
			i++
		}
		var item strings.Builder
		quoted := false
		if i < len(body) && body[i] == '"' {
			quoted = true
			i++
			for i < len(body) && body[i] != '"' {
				if body[i] == '\\' && i+1 < len(body) {
					i++
				}
				item.WriteByte(body[i])
				i++
			}
			if i >= len(body) {
				return nil, pgerror.New(pgerror.InvalidTextRepresentation, "malformed array literal: \"%s\"", s)
			}
			i++
		} else {
			for i < len(body) && body[i] != ',' {
				if body[i] == '{' || body[i] == '}' || body[i] == '"' {
					return nil, pgerror.New(pgerror.InvalidTextRepresentation, "malformed array literal: \"%s\"", s)
				}
				if body[i] == '\\' && i+1 < len(body) {
					i++
				}
				item.WriteByte(body[i])
				i++
			}
		}
		text := item.String()
		if !quoted {
			text = strings.TrimSpace(text)
		}
		if !quoted && strings.EqualFold(text, "NULL") {
			out = append(out, nil)
		} else {
			v, err := ParseText(text, elem)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		for i < len(body) && body[i] == ' ' {
			i++
		}
		if i >= len(body) {
			return out, nil
		}
		if body[i] != ',' {
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "malformed array literal: \"%s\"", s)
		}
		i++
	}
}

// isDecimalMantissa reports an optional sign, then digits with at most
// one decimal point and at least one digit ("1.", ".5", "-12.25").
// parseShortDecimal reads the common case without big-number arithmetic:
// an optional sign, digits with at most one point, no exponent, and at
// most 18 digits, which an int64 holds exactly. ok is false for anything
// else, which ParseNumericLiteral then reads the general way (COPY of
// numeric columns spends most of its time here).
func parseShortDecimal(s string) (decimal128.Num, int32, bool) {
	i, neg := 0, false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v int64
	digits, scale, point := 0, 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
			if digits > 18 {
				return decimal128.Num{}, 0, false
			}
			v = v*10 + int64(c-'0')
			if point {
				scale++
			}
		case c == '.' && !point:
			point = true
		default:
			return decimal128.Num{}, 0, false
		}
	}
	if digits == 0 {
		return decimal128.Num{}, 0, false
	}
	if neg {
		v = -v
	}
	return decimal128.FromI64(v), int32(scale), true
}

func isDecimalMantissa(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	digits, points := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

// badDatetime is date/time input the parser cannot read: PostgreSQL's
// datetime parser reports invalid_datetime_format (22007), not 22P02.
func badDatetime(typ, s string) error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input syntax for type %s: \"%s\"", typ, s)
}
