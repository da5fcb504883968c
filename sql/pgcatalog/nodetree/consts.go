package nodetree

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// constText is what PostgreSQL keeps of a literal given as text for type
// t: the value its input function reads, shown by its output function
// ('12:00' as time is 12:00:00, '{"b":1,"a":2}' as jsonb is
// {"a": 2, "b": 1}). zone is the session's, for timestamptz.
func constText(s string, t types.T, zone *time.Location) (string, error) {
	switch {
	case t.OID == types.OIDNumeric:
		n, scale, err := types.ParseNumericLiteral(strings.TrimSpace(s))
		if err != nil {
			return "", err
		}
		return string(types.AppendDecimal128(nil, n.HighBits(), n.LowBits(), scale)), nil
	case t.OID == types.OIDTimestampTZ:
		micros, err := types.ParseTimestampIn(s, t, zone)
		if err != nil {
			return "", err
		}
		return string(types.AppendTimestampTZ(nil, micros, zone)), nil
	case t.Family() == types.FamilyArray:
		v, err := types.ParseText(s, t)
		if err != nil {
			return "", err
		}
		elem, _ := t.Elem()
		return arrayText(v.([]any), elem, zone), nil
	}
	v, err := types.ParseText(s, t)
	if err != nil {
		return "", err
	}
	if t.OID == types.OIDFloat4 {
		// real's input rounds the decimal text to single precision once.
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 32); err == nil {
			v = f
		}
	}
	return valueText(v, t, zone), nil
}

// valueText is a value of t (as types.ParseText returns it) in the
// type's output format.
func valueText(v any, t types.T, zone *time.Location) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "t"
		}
		return "f"
	case int64:
		switch t.Family() {
		case types.FamilyTimestamp:
			if t.OID == types.OIDTimestampTZ {
				return string(types.AppendTimestampTZ(nil, x, zone))
			}
			return string(types.AppendTimestamp(nil, x, ""))
		case types.FamilyTime:
			return string(types.AppendTime(nil, x))
		}
		return strconv.FormatInt(x, 10)
	case float64:
		if t.OID == types.OIDFloat4 {
			return string(types.AppendFloat(nil, float64(float32(x)), 32))
		}
		return string(types.AppendFloat(nil, x, 64))
	case decimal128.Num:
		return string(types.AppendDecimal128(nil, x.HighBits(), x.LowBits(), t.Scale))
	case int32:
		out, bc := types.AppendDate(nil, int64(x))
		if bc {
			out = append(out, " BC"...)
		}
		return string(out)
	case string:
		return x
	case types.IntervalValue:
		return string(types.AppendInterval(nil, x))
	case []byte:
		if t.OID == types.OIDUUID {
			return string(types.AppendUUID(nil, x))
		}
		return string(types.AppendByteaHex(nil, x))
	}
	return fmt.Sprint(v)
}

// arrayText is array_out: elements in braces, each quoted when it is
// empty, NULL, or holds a character the array syntax gives a meaning.
func arrayText(elems []any, elem types.T, zone *time.Location) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		if e == nil {
			b.WriteString("NULL")
			continue
		}
		s := valueText(e, elem, zone)
		if !arrayElemNeedsQuotes(s) {
			b.WriteString(s)
			continue
		}
		b.WriteByte('"')
		for _, r := range s {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

func arrayElemNeedsQuotes(s string) bool {
	if s == "" || strings.EqualFold(s, "NULL") {
		return true
	}
	return strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f")
}

// isIntegerLiteral reports a numeric literal without a decimal point or
// exponent, which PostgreSQL types as bigint when it fits.
func isIntegerLiteral(s string) (int64, bool) {
	if strings.ContainsAny(s, ".eE") {
		return 0, false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}
