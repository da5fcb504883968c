package exec

import (
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Kernels between characters and their codes or quoted forms: ascii,
// chr, to_hex, octet_length, md5, quote_literal and quote_nullable.

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

// octetLengthKernel is octet_length of text or bytea.
func octetLengthKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		if b, ok := v[0].([]byte); ok {
			return int64(len(b)), nil
		}
		return int64(len(v[0].(string))), nil
	})
}

// md5Kernel is md5 of text, as lowercase hex.
func md5Kernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) {
		sum := md5.Sum([]byte(v[0].(string)))
		return hex.EncodeToString(sum[:]), nil
	})
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

// sizePrettyUnits are pg_size_pretty's units: a size is printed in the
// first unit it is below the limit of (or the last), half-rounded in all
// but bytes.
var sizePrettyUnits = [...]struct {
	name  string
	limit int64
	round bool
	bits  uint
}{
	{"bytes", 10 * 1024, false, 0},
	{"kB", 20*1024 - 1, true, 10},
	{"MB", 20*1024 - 1, true, 20},
	{"GB", 20*1024 - 1, true, 30},
	{"TB", 20*1024 - 1, true, 40},
	{"PB", 20*1024 - 1, true, 50},
}

// sizePretty is pg_size_pretty(bigint), as PostgreSQL computes it: the
// divisions keep negative and positive sizes rounding alike.
func sizePretty(v []any) (any, error) {
	size := v[0].(int64)
	for i, u := range sizePrettyUnits {
		last := i == len(sizePrettyUnits)-1
		if last || abs64(size) < u.limit {
			if u.round {
				size = halfRounded(size)
			}
			return strconv.FormatInt(size, 10) + " " + u.name, nil
		}
		next := sizePrettyUnits[i+1]
		bits := next.bits - u.bits
		if next.round {
			bits--
		}
		if u.round {
			bits++
		}
		size /= int64(1) << bits
	}
	return nil, nil
}

func halfRounded(x int64) int64 {
	if x < 0 {
		return (x - 1) / 2
	}
	return (x + 1) / 2
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
