package exec

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// intPairFunction is div (integer quotient, toward zero), gcd and lcm,
// with PostgreSQL's errors.
func intPairFunction(name string, a, b int64) (any, error) {
	switch name {
	case "div":
		if b == 0 {
			return nil, errDivisionByZero()
		}
		if a == math.MinInt64 && b == -1 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
		}
		return a / b, nil
	case "gcd":
		g, ok := gcd(a, b)
		if !ok {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
		}
		return g, nil
	}
	if a == 0 || b == 0 {
		return int64(0), nil
	}
	g, ok := gcd(a, b)
	if !ok {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	l := a / g * b
	if l/b != a/g || l == math.MinInt64 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	if l < 0 {
		l = -l
	}
	return l, nil
}

func gcd(a, b int64) (int64, bool) {
	for b != 0 {
		a, b = b, a%b
	}
	if a == math.MinInt64 {
		return 0, false
	}
	if a < 0 {
		a = -a
	}
	return a, true
}

// regexpSplit is regexp_split_to_array(s, pattern [, flags]).
func regexpSplit(args []arrow.Array, res types.T) (arrow.Array, error) {
	cache := map[string]*regexp.Regexp{}
	return rowKernel(func(v []any) (any, error) {
		s, pattern := v[0].(string), v[1].(string)
		fold := len(v) == 3 && strings.ContainsRune(v[2].(string), 'i')
		re, err := compileRegexpCached(cache, pattern, fold)
		if err != nil {
			return nil, err
		}
		var out []any
		start := 0
		for _, m := range re.FindAllStringIndex(s, -1) {
			if m[1] == m[0] && (m[0] == 0 || m[0] == len(s)) {
				// An empty match at either end splits nothing off.
				continue
			}
			if m[1] == m[0] {
				out = append(out, s[start:m[0]])
				start = m[0]
				continue
			}
			out = append(out, s[start:m[0]])
			start = m[1]
		}
		return append(out, s[start:]), nil
	})(args, res)
}

// overlay is overlay(s PLACING r FROM start [FOR count]), as PostgreSQL's
// text_overlay: the first start-1 characters, r, then s from character
// start+count on (from its start when that is before 1, so a negative
// count repeats a part of s). start+count must fit an integer.
func overlay(v []any) (any, error) {
	s, r := []rune(v[0].(string)), []rune(v[1].(string))
	start := v[2].(int64)
	count := int64(len(r))
	if len(v) == 4 {
		count = v[3].(int64)
	}
	from, rest, err := overlaySpan(start, count, int64(len(s)))
	if err != nil {
		return nil, err
	}
	return string(s[:from]) + string(r) + string(s[rest:]), nil
}

// overlaySpan gives the prefix length and where the kept suffix starts
// for overlay over a value of n characters or bytes.
func overlaySpan(start, count, n int64) (int64, int64, error) {
	if start <= 0 {
		return 0, 0, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
	}
	end := start + count
	if end > math.MaxInt32 || end < math.MinInt32 {
		return 0, 0, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
	}
	return min(start-1, n), min(max(end, 1)-1, n), nil
}

// encodeBytes is encode(bytea, 'hex' | 'base64' | 'escape').
func encodeBytes(b []byte, format string) (any, error) {
	switch strings.ToLower(format) {
	case "hex":
		return hex.EncodeToString(b), nil
	case "base64":
		// PostgreSQL wraps base64 at 76 characters.
		enc := base64.StdEncoding.EncodeToString(b)
		var sb strings.Builder
		for len(enc) > 76 {
			sb.WriteString(enc[:76])
			sb.WriteByte('\n')
			enc = enc[76:]
		}
		sb.WriteString(enc)
		return sb.String(), nil
	case "escape":
		var sb strings.Builder
		for _, c := range b {
			switch {
			case c == '\\':
				sb.WriteString(`\\`)
			case c == 0 || c >= 0x80:
				sb.WriteString(`\` + string('0'+c>>6&7) + string('0'+c>>3&7) + string('0'+c&7))
			default:
				sb.WriteByte(c)
			}
		}
		return sb.String(), nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", format)
}

// decodeBytes is decode(text, 'hex' | 'base64' | 'escape').
func decodeBytes(s, format string) (any, error) {
	switch strings.ToLower(format) {
	case "hex":
		b, err := hex.DecodeString(strings.TrimSpace(s))
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal data")
		}
		return b, nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
		if err != nil {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid base64 end sequence")
		}
		return b, nil
	case "escape":
		v, err := types.ParseBytea(s)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "unrecognized encoding: \"%s\"", format)
}

// jsonTypeof is json_typeof / jsonb_typeof.
func jsonTypeof(doc string) string {
	s := strings.TrimSpace(doc)
	switch {
	case s == "":
		return ""
	case s[0] == '{':
		return "object"
	case s[0] == '[':
		return "array"
	case s[0] == '"':
		return "string"
	case s == "true" || s == "false":
		return "boolean"
	case s == "null":
		return "null"
	}
	return "number"
}

// jsonArrayLength is json_array_length / jsonb_array_length.
func jsonArrayLength(doc string) (any, error) {
	s := strings.TrimSpace(doc)
	if !strings.HasPrefix(s, "[") {
		what := "a scalar"
		if strings.HasPrefix(s, "{") {
			what = "an object"
		}
		return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot get array length of %s", what)
	}
	n := 0
	for {
		if _, ok := types.JSONElement(s, n); !ok {
			return int64(n), nil
		}
		n++
	}
}

// numericDiv is div(numeric, numeric): the quotient truncated toward
// zero, as an integral numeric.
func numericDiv(args []arrow.Array, res types.T) (arrow.Array, error) {
	return divideDecimalPairs(args, res, func(q, _ decimal128.Num, _ int32) (decimal128.Num, bool) {
		return types.Rescale(q, 0, res.Scale)
	})
}

// divideDecimalPairs divides two numeric columns row by row, their
// scales aligned, and keeps what pick takes from the integer quotient
// and the remainder (at the aligned scale): div's quotient or mod's
// remainder.
func divideDecimalPairs(args []arrow.Array, res types.T, pick func(q, rem decimal128.Num, scale int32) (decimal128.Num, bool)) (arrow.Array, error) {
	l, r := values[decimal128.Num](args[0]), values[decimal128.Num](args[1])
	ls, rs := decimalScale(args[0]), decimalScale(args[1])
	validity, nulls := validity2(args[0], args[1])
	out := make([]decimal128.Num, len(l))
	for i := range l {
		if !validAt(validity, i) {
			continue
		}
		a, b := alignDecimal(l[i], ls, r[i], rs)
		if b.Sign() == 0 {
			return nil, errDivisionByZero()
		}
		q, rem := a.Div(b)
		v, ok := pick(q, rem, max(ls, rs))
		if !ok {
			return nil, errNumericOverflow()
		}
		out[i] = v
	}
	return newFixed(res.Arrow(), out, validity, nulls), nil
}

// factorial is factorial(n) as an integral numeric; past 33! the value
// does not fit SQE's 38-digit numeric.
func factorial(v []any) (any, error) {
	n := v[0].(int64)
	if n < 0 {
		return nil, pgerror.New(pgerror.NumericValueOutOfRange, "factorial of a negative number is undefined")
	}
	f := decimal128.FromI64(1)
	for k := int64(2); k <= n; k++ {
		if k > 33 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value overflows numeric format")
		}
		f = f.Mul(decimal128.FromI64(k))
	}
	return f, nil
}
