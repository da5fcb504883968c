package exec

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/sql/keywords"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// scalarKernel computes a scalar function over argument arrays of equal
// length; NULL handling is each kernel's (most return NULL for any NULL
// argument; concat skips them).
type scalarKernel func(args []arrow.Array, res types.T) (arrow.Array, error)

// substrKernel is substr of text, or of bytea when the first argument is
// bytea.
func substrKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if isBytea(args[0]) {
		return byteaSubstr(args, res)
	}
	return substr(args, res)
}

// arrayFunctionKernel is array_length, array_upper, array_lower,
// cardinality or array_to_string, by name.
func arrayFunctionKernel(name string) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) { return arrayFunction(name, args, res) }
}

func strArg(a arrow.Array) *array.String { return a.(*array.String) }

// anyNull reports whether row i is NULL in any argument.
func anyNull(args []arrow.Array, i int) bool {
	for _, a := range args {
		if a.IsNull(i) {
			return true
		}
	}
	return false
}

// buildStrings runs f on every row whose arguments are all non-NULL.
func buildStrings(args []arrow.Array, f func(i int, buf []byte) []byte) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	_ = appendByteRows(b.BinaryBuilder, args, func(i int, buf []byte) ([]byte, bool, error) { return f(i, buf), true, nil })
	return b.NewArray()
}

// stringResult builds a text array from f over the rows whose arguments
// are all non-NULL; f reports false for a NULL result.
func stringResult(args []arrow.Array, f func(i int, buf []byte) ([]byte, bool, error)) (arrow.Array, error) {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	if err := appendByteRows(b.BinaryBuilder, args, f); err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// binaryResult builds a bytea array from f over the rows whose arguments
// are all non-NULL; the first error stops it.
func binaryResult(args []arrow.Array, f func(i int, buf []byte) ([]byte, error)) (arrow.Array, error) {
	b := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	defer b.Release()
	err := appendByteRows(b, args, func(i int, buf []byte) ([]byte, bool, error) {
		out, err := f(i, buf)
		return out, true, err
	})
	if err != nil {
		return nil, err
	}
	return b.NewArray(), nil
}

// appendByteRows appends f's value for each row whose arguments are all
// non-NULL, and NULL for the others and where f reports false; f's first
// error stops it. f appends to the buffer it is given, reused row to row.
func appendByteRows(b *array.BinaryBuilder, args []arrow.Array, f func(i int, buf []byte) ([]byte, bool, error)) error {
	n := args[0].Len()
	b.Reserve(n)
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			b.AppendNull()
			continue
		}
		out, ok, err := f(i, buf[:0])
		if err != nil {
			return err
		}
		buf = out
		if !ok {
			b.AppendNull()
			continue
		}
		b.Append(out)
	}
	return nil
}

func intResult(args []arrow.Array, f func(i int) int32) arrow.Array {
	n := args[0].Len()
	out := make([]int32, n)
	validity, nulls := nullsOf(args)
	for i := 0; i < n; i++ {
		if validAt(validity, i) {
			out[i] = f(i)
		}
	}
	return newFixed(arrow.PrimitiveTypes.Int32, out, validity, nulls)
}

func boolResult(args []arrow.Array, f func(i int) bool) arrow.Array {
	n := args[0].Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := nullsOf(args)
	for i := 0; i < n; i++ {
		if validAt(validity, i) && f(i) {
			bitutil.SetBit(bits, i)
		}
	}
	return newBool(n, bits, validity, nulls)
}

// nullsOf is the validity of a function that is NULL when any argument is.
func nullsOf(args []arrow.Array) ([]byte, int) {
	v, nulls := validity1(args[0])
	for _, a := range args[1:] {
		if a.NullN() == 0 {
			continue
		}
		if v == nil {
			v = make([]byte, bitutil.BytesForBits(int64(a.Len())))
			bitutil.SetBitsTo(v, 0, int64(a.Len()), true)
		}
		nulls = 0
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				bitutil.ClearBit(v, i)
			}
			if !bitutil.BitIsSet(v, i) {
				nulls++
			}
		}
	}
	return v, nulls
}

func length(args []arrow.Array, _ types.T) (arrow.Array, error) {
	if b, ok := args[0].(*array.Binary); ok {
		// length(bytea) counts bytes.
		return intResult(args, func(i int) int32 { return int32(len(b.Value(i))) }), nil
	}
	s := strArg(args[0])
	return intResult(args, func(i int) int32 { return int32(utf8.RuneCountInString(s.Value(i))) }), nil
}

func trimKernel(name string) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		s := strArg(args[0])
		chars := func(int) string { return " " }
		if len(args) == 2 {
			c := strArg(args[1])
			chars = func(i int) string { return c.Value(i) }
		}
		return buildStrings(args, func(i int, buf []byte) []byte {
			v, set := s.Value(i), chars(i)
			switch name {
			case "ltrim":
				v = strings.TrimLeft(v, set)
			case "rtrim":
				v = strings.TrimRight(v, set)
			default:
				v = strings.Trim(v, set)
			}
			return append(buf, v...)
		}), nil
	}
}

func replaceKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	s, from, to := strArg(args[0]), strArg(args[1]), strArg(args[2])
	return buildStrings(args, func(i int, buf []byte) []byte {
		if from.Value(i) == "" {
			return append(buf, s.Value(i)...)
		}
		return append(buf, strings.ReplaceAll(s.Value(i), from.Value(i), to.Value(i))...)
	}), nil
}

func strpos(args []arrow.Array, _ types.T) (arrow.Array, error) {
	s, sub := strArg(args[0]), strArg(args[1])
	return intResult(args, func(i int) int32 {
		k := strings.Index(s.Value(i), sub.Value(i))
		if k < 0 {
			return 0
		}
		return int32(utf8.RuneCountInString(s.Value(i)[:k])) + 1
	}), nil
}

func startsWith(args []arrow.Array, _ types.T) (arrow.Array, error) {
	s, p := strArg(args[0]), strArg(args[1])
	return boolResult(args, func(i int) bool { return strings.HasPrefix(s.Value(i), p.Value(i)) }), nil
}

// substr is PostgreSQL's substr(s, start [, count]): 1-based, a start
// before 1 eats into count, a negative count is an error.
func substr(args []arrow.Array, _ types.T) (arrow.Array, error) {
	s := strArg(args[0])
	start := values[int64](args[1])
	var count []int64
	if len(args) == 3 {
		count = values[int64](args[2])
		for i, c := range count {
			if c < 0 && !anyNull(args, i) {
				return nil, pgerror.New(pgerror.SubstringError, "negative substring length not allowed")
			}
		}
	}
	return buildStrings(args, func(i int, buf []byte) []byte {
		v := s.Value(i)
		from, to := start[i]-1, int64(math.MaxInt64)
		if count != nil {
			to = from + count[i]
		}
		from = max(from, 0)
		if from >= to {
			return buf
		}
		if sub, ok := runeSlice(v, from, to); ok {
			return append(buf, sub...)
		}
		r := []rune(v)
		to = min(to, int64(len(r)))
		if from >= to {
			return buf
		}
		return append(buf, string(r[from:to])...)
	}), nil
}

// runeSlice is the part of s from its rune from up to (not including) its
// rune to (0 <= from < to), found without converting s to runes: no
// allocation per row. ok is false when an invalid UTF-8 sequence comes
// first, which the caller reads as []rune does (U+FFFD).
func runeSlice(s string, from, to int64) (string, bool) {
	lo, n := -1, int64(0)
	for i := 0; i < len(s); n++ {
		if n == from {
			lo = i
		}
		if n == to {
			return s[lo:i], true
		}
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return "", false
		}
		i += size
	}
	if lo < 0 {
		if n != from {
			return "", true // from is past the end
		}
		lo = len(s)
	}
	return s[lo:], true
}

func leftRight(left bool) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		s := strArg(args[0])
		n := values[int64](args[1])
		return buildStrings(args, func(i int, buf []byte) []byte {
			r := []rune(s.Value(i))
			k := n[i]
			if !left && k == math.MinInt32 {
				// PostgreSQL's text_right negates the count in int4,
				// which leaves INT_MIN negative: all of the string.
				return append(buf, s.Value(i)...)
			}
			if k < 0 {
				k = max(int64(len(r))+k, 0)
			}
			k = min(k, int64(len(r)))
			if left {
				return append(buf, string(r[:k])...)
			}
			return append(buf, string(r[int64(len(r))-k:])...)
		}), nil
	}
}

// concatKernel joins its arguments, skipping NULLs; never NULL.
func concatKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	n := args[0].Len()
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	buf := make([]byte, 0, 64)
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for _, a := range args {
			if a.IsValid(i) {
				buf = append(buf, strArg(a).Value(i)...)
			}
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

func absKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	a := args[0]
	neg, err := negate(a, res)
	if err != nil {
		return nil, err
	}
	defer neg.Release()
	cond, err := compareArrays("<", a, zeroLike(a))
	if err != nil {
		return nil, err
	}
	defer cond.Release()
	// abs(x) = x < 0 ? -x : x, row by row.
	pieces := []arrow.Array{a, neg}
	all, err := array.Concatenate(pieces, memory.DefaultAllocator)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	n := a.Len()
	pos := make([]int32, n)
	c := cond.(*array.Boolean)
	for i := 0; i < n; i++ {
		pos[i] = int32(i)
		if c.IsValid(i) && c.Value(i) {
			pos[i] = int32(n + i)
		}
	}
	return takeIndices(all, pos)
}

func zeroLike(a arrow.Array) arrow.Array {
	z := array.MakeArrayOfNull(memory.DefaultAllocator, a.DataType(), a.Len())
	defer z.Release()
	data := a.Data()
	buf := make([]byte, data.Buffers()[1].Len())
	zd := array.NewData(a.DataType(), a.Len(), []*memory.Buffer{nil, memory.NewBufferBytes(buf)}, nil, 0, data.Offset())
	defer zd.Release()
	return array.MakeFromData(zd)
}

// formatKernel is format(fmt, args...) with %s (the value, NULL as
// empty), %I (an identifier, quoted when needed), %L (a literal, NULL as
// NULL) and %%, taking arguments in order or by position (%2$s).
func formatKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	n := args[0].Len()
	vals := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) {
			continue
		}
		out, err := formatRow(strArg(args[0]).Value(r), args[1:], r)
		if err != nil {
			return nil, err
		}
		vals[r] = out
	}
	return valuesArray(types.Text, vals)
}

// QuoteIdent quotes an identifier as PostgreSQL's quote_ident does: when
// it is not all lower-case letters, digits and underscores (not leading
// with a digit), or when it is a keyword other than an unreserved one.
func QuoteIdent(s string) string {
	plain := s != ""
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
		}
	}
	if plain {
		kind := keywords.Of(s)
		plain = kind == keywords.None || kind == keywords.Unreserved
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// quoteLiteral is quote_literal: single quotes doubled, and the E”
// form when the text holds a backslash.
func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}
