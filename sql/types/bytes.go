package types

import (
	"github.com/sqe-db/sqe/sql/pgerror"
)

// uuid and bytea values are held as []byte: the 16 bytes of a uuid (Arrow
// fixed_size_binary(16)) and the bytes of a bytea (Arrow binary). Both
// compare bytewise, as PostgreSQL's uuid_cmp and byteacmp do.

const hexDigits = "0123456789abcdef"

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// ParseUUID reads uuid_in's forms: 32 hex digits, optionally in braces,
// with an optional hyphen after any group of four digits.
func ParseUUID(s string) ([]byte, error) {
	src := s
	braces := len(src) > 0 && src[0] == '{'
	if braces {
		src = src[1:]
	}
	out := make([]byte, 16)
	for i := 0; i < 16; i++ {
		if len(src) < 2 {
			return nil, invalidInput("uuid", s)
		}
		hi, ok1 := hexValue(src[0])
		lo, ok2 := hexValue(src[1])
		if !ok1 || !ok2 {
			return nil, invalidInput("uuid", s)
		}
		out[i] = hi<<4 | lo
		src = src[2:]
		if len(src) > 0 && src[0] == '-' && i%2 == 1 && i < 15 {
			src = src[1:]
		}
	}
	if braces {
		if len(src) == 0 || src[0] != '}' {
			return nil, invalidInput("uuid", s)
		}
		src = src[1:]
	}
	if len(src) != 0 {
		return nil, invalidInput("uuid", s)
	}
	return out, nil
}

// AppendUUID appends uuid_out's form: lower-case 8-4-4-4-12 hex groups.
func AppendUUID(dst []byte, u []byte) []byte {
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, hexDigits[b>>4], hexDigits[b&15])
	}
	return dst
}

// ParseBytea reads byteain's two forms: hex (\x followed by pairs of hex
// digits, whitespace allowed between pairs) and escape (bytes as written,
// with \\ for a backslash and \ooo for an octal byte).
func ParseBytea(s string) ([]byte, error) {
	if len(s) >= 2 && s[0] == '\\' && s[1] == 'x' {
		return parseByteaHex(s[2:])
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i += 2
		case i+3 < len(s) && isOctal(s[i+1], '3') && isOctal(s[i+2], '7') && isOctal(s[i+3], '7'):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
		default:
			return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type bytea")
		}
	}
	return out, nil
}

func isOctal(c, maxDigit byte) bool { return c >= '0' && c <= maxDigit }

func parseByteaHex(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			i++
			continue
		}
		hi, ok := hexValue(c)
		if !ok {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal digit: \"%c\"", c)
		}
		if i+1 >= len(s) {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal data: odd number of digits")
		}
		lo, ok := hexValue(s[i+1])
		if !ok {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "invalid hexadecimal digit: \"%c\"", s[i+1])
		}
		out = append(out, hi<<4|lo)
		i += 2
	}
	return out, nil
}

// AppendByteaHex appends byteaout's default (bytea_output = hex) form.
func AppendByteaHex(dst []byte, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}
