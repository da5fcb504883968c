package exec

import (
	"crypto/md5"
	"encoding/hex"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// maxStringBytes is PostgreSQL's limit on one text value (1 GB): a
// longer result is refused with 54000 rather than allocated.
const maxStringBytes = 1 << 30

func errStringTooLong() error {
	return pgerror.New(pgerror.ProgramLimitExceeded, "requested length too large")
}

// padKernel is lpad (left) or rpad: fill defaults to a space.
func padKernel(left bool) scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		fill := " "
		if len(v) == 3 {
			fill = v[2].(string)
		}
		return pad(v[0].(string), v[1].(int64), fill, left)
	})
}

// repeatKernel is repeat(s, n), refusing a result past maxStringBytes.
func repeatKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		s, n := v[0].(string), v[1].(int64)
		if n <= 0 {
			return "", nil
		}
		if int64(len(s))*n > maxStringBytes {
			return nil, errStringTooLong()
		}
		return strings.Repeat(s, int(n)), nil
	})
}

// reverseKernel reverses the characters of a string.
func reverseKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		r := []rune(v[0].(string))
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r), nil
	})
}

// md5Kernel is md5 of text, as lowercase hex.
func md5Kernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		sum := md5.Sum([]byte(v[0].(string)))
		return hex.EncodeToString(sum[:]), nil
	})
}

// substringKernel is substring of bytea, of text by position, or of text
// by a POSIX pattern (a string second argument).
func substringKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if isBytea(args[0]) {
		return byteaSubstr(args, res)
	}
	if _, pattern := args[1].(*array.String); !pattern {
		return substr(args, res)
	}
	return regexSubstring(args, res)
}

func translateKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return translate(v[0].(string), v[1].(string), v[2].(string)), nil })
}

// asciiKernel is ascii(s): the code point of the first character, 0 for
// an empty string.
func asciiKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		r, _ := utf8.DecodeRuneInString(v[0].(string))
		if r == utf8.RuneError {
			return int64(0), nil
		}
		return int64(r), nil
	})
}

// octetLengthKernel is octet_length of text or bytea.
func octetLengthKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		if b, ok := v[0].([]byte); ok {
			return int64(len(b)), nil
		}
		return int64(len(v[0].(string))), nil
	})
}

// intPairKernel is div, gcd or lcm, by name: of numerics (numericDiv) or
// of integers (intPairFunction).
func intPairKernel(name string) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if res.OID == types.OIDNumeric {
			return numericDiv(args, res)
		}
		return rowKernel(func(v []any) (any, error) {
			r, err := intPairFunction(name, v[0].(int64), v[1].(int64))
			// int4 results come out of int8 arithmetic: gcd(0,
			// INT_MIN) and lcm can leave the int4 range.
			if n, ok := r.(int64); ok && res.OID == types.OIDInt4 && (n > math.MaxInt32 || n < math.MinInt32) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "integer out of range")
			}
			return r, err
		})(args, res)
	}
}

// quoteKernel is quote_literal, or quote_nullable (NULL quoted as the
// word NULL) when nullable.
func quoteKernel(nullable bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		out := make([]any, args[0].Len())
		for i := range out {
			if args[0].IsNull(i) {
				if nullable {
					out[i] = "NULL"
				}
				continue
			}
			out[i] = quoteLiteral(args[0].(*array.String).Value(i))
		}
		return valuesArray(res, out)
	}
}

func encodeKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return encodeBytes(v[0].([]byte), v[1].(string)) })
}

func decodeKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return decodeBytes(v[0].(string), v[1].(string)) })
}

func jsonTypeofKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return jsonTypeof(v[0].(string)), nil })
}

func jsonArrayLengthKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return jsonArrayLength(v[0].(string)) })
}

// chrKernel is chr(n): the character with code point n, with
// PostgreSQL's errors for 0, negatives, surrogates and values past
// Unicode.
func chrKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		c := v[0].(int64)
		switch {
		case c == 0:
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "null character not permitted")
		case c < 0:
			return nil, pgerror.New(pgerror.InvalidParameterValue, "character number must be positive")
		case c > unicode.MaxRune:
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "requested character too large for encoding: %d", c)
		case c >= 0xD800 && c <= 0xDFFF:
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "requested character not valid for encoding: %d", c)
		}
		return string(rune(c)), nil
	})
}

// toHexKernel is to_hex: a negative integer prints as its two's
// complement in the argument's own width (to_hex(-1) is ffffffff).
func toHexKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	width32 := args[0].DataType().ID() == arrow.INT32
	return rowKernel(func(v []any) (any, error) {
		n := v[0].(int64)
		if width32 {
			return strconv.FormatUint(uint64(uint32(n)), 16), nil
		}
		return strconv.FormatUint(uint64(n), 16), nil
	})(args, res)
}

// pad is lpad/rpad: s cut or filled with fill to n characters.
func pad(s string, n int64, fill string, left bool) (any, error) {
	if n <= 0 {
		return "", nil
	}
	if n*4 > maxStringBytes {
		return nil, errStringTooLong()
	}
	r := []rune(s)
	if int64(len(r)) >= n {
		return string(r[:n]), nil
	}
	f := []rune(fill)
	if len(f) == 0 {
		return s, nil
	}
	need := int(n) - len(r)
	filler := make([]rune, need)
	for i := range filler {
		filler[i] = f[i%len(f)]
	}
	if left {
		return string(filler) + s, nil
	}
	return s + string(filler), nil
}

// splitPart is split_part(s, delimiter, n); a negative n counts from the
// end (PostgreSQL 14 and later).
func splitPart(v []any) (any, error) {
	s, delim, n := v[0].(string), v[1].(string), v[2].(int64)
	if n == 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "field position must not be zero")
	}
	var parts []string
	if delim == "" {
		parts = []string{s}
	} else {
		parts = strings.Split(s, delim)
	}
	if n < 0 {
		n = int64(len(parts)) + n + 1
	}
	if n < 1 || n > int64(len(parts)) {
		return "", nil
	}
	return parts[n-1], nil
}

// concatWS is concat_ws(separator, values...): NULL values are skipped,
// a NULL separator gives NULL.
func concatWS(args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[0].Len()
	out := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) {
			continue
		}
		sep := valueAt(args[0], r).(string)
		var parts []string
		for _, a := range args[1:] {
			if a.IsNull(r) {
				continue
			}
			parts = append(parts, a.(*array.String).Value(r))
		}
		out[r] = strings.Join(parts, sep)
	}
	return valuesArray(res, out)
}

// translate replaces each character of s found in from by the character
// at the same position in to, deleting it when to is shorter.
func translate(s, from, to string) string {
	f, t := []rune(from), []rune(to)
	var b strings.Builder
	for _, r := range s {
		idx := -1
		for i, c := range f {
			if c == r {
				idx = i
				break
			}
		}
		switch {
		case idx < 0:
			b.WriteRune(r)
		case idx < len(t):
			b.WriteRune(t[idx])
		}
	}
	return b.String()
}

// regexpKernel is regexp_replace(s, pattern, replacement [, flags]) and
// regexp_match(s, pattern [, flags]), with PostgreSQL's flags i (case
// insensitive) and g (every match, regexp_replace only).
func regexpKernel(match bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		cache := map[string]*regexp.Regexp{}
		return rowKernel(func(v []any) (any, error) {
			s, pattern := v[0].(string), v[1].(string)
			flags := ""
			if match && len(v) == 3 {
				flags = v[2].(string)
			}
			if !match && len(v) == 4 {
				flags = v[3].(string)
			}
			global, fold := false, false
			for _, f := range flags {
				switch f {
				case 'g':
					if match {
						return nil, pgerror.New(pgerror.InvalidParameterValue, "regexp_match() does not support the \"global\" option").
							WithHint("Use the regexp_matches function instead.")
					}
					global = true
				case 'i':
					fold = true
				case 'c':
					fold = false
				default:
					return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid regular expression option: \"%c\"", f)
				}
			}
			re, err := compileRegexpCached(cache, pattern, fold)
			if err != nil {
				return nil, err
			}
			if match {
				m := re.FindStringSubmatch(s)
				if m == nil {
					return nil, nil
				}
				out := make([]any, 0, len(m))
				if len(m) == 1 {
					return []any{m[0]}, nil
				}
				idx := re.FindStringSubmatchIndex(s)
				for g := 1; g < len(m); g++ {
					if idx[2*g] < 0 {
						out = append(out, nil)
					} else {
						out = append(out, m[g])
					}
				}
				return out, nil
			}
			repl := postgresReplacement(v[2].(string))
			if global {
				return re.ReplaceAllString(s, repl), nil
			}
			loc := re.FindStringSubmatchIndex(s)
			if loc == nil {
				return s, nil
			}
			var dst []byte
			dst = re.ExpandString(dst, repl, s, loc)
			return s[:loc[0]] + string(dst) + s[loc[1]:], nil
		})(args, res)
	}
}

// postgresReplacement turns PostgreSQL's replacement syntax (\1..\9 for
// groups, \& for the whole match, \\ for a backslash) into Go's.
func postgresReplacement(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '$':
			b.WriteString("$$")
		case c == '\\' && i+1 < len(r) && r[i+1] >= '1' && r[i+1] <= '9':
			b.WriteString("${" + string(r[i+1]) + "}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '&':
			b.WriteString("${0}")
			i++
		case c == '\\' && i+1 < len(r) && r[i+1] == '\\':
			b.WriteByte('\\')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// regexSubstring is substring(s FROM pattern): the first match of the
// POSIX pattern, or of its first parenthesised group when it has one;
// NULL when nothing matches.
func regexSubstring(args []arrow.Array, res types.T) (arrow.Array, error) {
	cache := map[string]*regexp.Regexp{}
	return rowKernel(func(v []any) (any, error) {
		s, pattern := v[0].(string), v[1].(string)
		re, ok := cache[pattern]
		if !ok {
			var err error
			if re, err = regexp.Compile(pattern); err != nil {
				return nil, pgerror.New(pgerror.InvalidRegularExpression, "invalid regular expression: %v", err)
			}
			cache[pattern] = re
		}
		m := re.FindStringSubmatchIndex(s)
		switch {
		case m == nil:
			return nil, nil
		case len(m) > 2:
			if m[2] < 0 {
				return nil, nil
			}
			return s[m[2]:m[3]], nil
		}
		return s[m[0]:m[1]], nil
	})(args, res)
}
