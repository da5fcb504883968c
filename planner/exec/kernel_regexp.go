package exec

import (
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// PostgreSQL 15's regexp_count, regexp_instr, regexp_like and
// regexp_substr, and regexp_replace with a start position (and N and
// flags): all match as PostgreSQL's AREs do (regexp_are.go), count and
// report positions in characters, and search on after a match from its
// end, or one character further after an empty match. Each kernel
// instance keeps its compiled patterns.

// regexpFamilyKernel makes an instance of f with its own pattern cache.
func regexpFamilyKernel(f func(cache *areCache, args []arrow.Array) (arrow.Array, error)) scalarKernel {
	cache := &areCache{}
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) { return f(cache, args) }
}

// regexpReplaceKernel is regexp_replace: the legacy form (regexpKernel)
// without a start position, regexpReplaceAt with one.
func regexpReplaceKernel() scalarKernel {
	cache := &areCache{}
	legacy := regexpKernel(false)
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if len(args) < 4 || isStringArray(args[3]) {
			return legacy(args, res)
		}
		return regexpReplaceAt(cache, args)
	}
}

func isStringArray(a arrow.Array) bool {
	_, ok := a.(*array.String)
	return ok
}

// regexpArgs reads a regexp function's arguments row by row: text and
// int4 columns by position, absent ones giving their default.
type regexpArgs struct {
	args []arrow.Array
}

func (r regexpArgs) text(k, i int, def string) string {
	if k >= len(r.args) {
		return def
	}
	return r.args[k].(*array.String).Value(i)
}

func (r regexpArgs) int(k, i int, def int32) int32 {
	if k >= len(r.args) {
		return def
	}
	return r.args[k].(*array.Int32).Value(i)
}

func errRegexpParam(name string, v int32) error {
	return pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

// regexpFlagsNoGlobal parses flags that must not hold g.
func regexpFlagsNoGlobal(fn, s string) (areFlags, error) {
	f, err := parseAREFlags(s)
	if err == nil && f.global {
		err = pgerror.New(pgerror.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
	}
	return f, err
}

// charOffset is the byte offset of the character at 0-based index n of
// s, len(s)+1 when s has fewer characters.
func charOffset(s string, n int) int {
	if n <= 0 {
		return 0
	}
	for off := range s {
		if n == 0 {
			return off
		}
		n--
	}
	if n == 0 {
		return len(s)
	}
	return len(s) + 1
}

// charIndex is the 0-based character index of byte offset off of s.
func charIndex(s string, off int) int {
	return utf8.RuneCountInString(s[:off])
}

// regexpMatches runs fn on each match of re in s from byte offset pos,
// as PostgreSQL's setup_regexp_matches finds them; fn returns false to
// stop.
func regexpMatches(re *areRegexp, s string, pos int, fn func(m []int) bool) {
	for pos <= len(s) {
		m := re.findAt(s, pos)
		if m == nil || !fn(m) {
			return
		}
		pos = m[1]
		if m[0] == m[1] {
			if pos >= len(s) {
				return
			}
			_, size := utf8.DecodeRuneInString(s[pos:])
			pos += size
		}
	}
}

func regexpCount(cache *areCache, args []arrow.Array) (arrow.Array, error) {
	r := regexpArgs{args}
	c := cache.batch()
	return int32Result(args, func(i int) (int32, error) {
		start := r.int(2, i, 1)
		if start <= 0 {
			return 0, errRegexpParam("start", start)
		}
		flags, err := regexpFlagsNoGlobal("regexp_count", r.text(3, i, ""))
		if err != nil {
			return 0, err
		}
		re, err := c.get(r.text(1, i, ""), flags)
		if err != nil {
			return 0, err
		}
		s := r.text(0, i, "")
		var n int32
		regexpMatches(re, s, charOffset(s, int(start-1)), func([]int) bool { n++; return true })
		return n, nil
	})
}

// nthMatch is the n'th match (1-based) of re in s from byte offset pos.
func nthMatch(re *areRegexp, s string, pos int, n int32) []int {
	var found []int
	regexpMatches(re, s, pos, func(m []int) bool {
		n--
		if n == 0 {
			found = m
			return false
		}
		return true
	})
	return found
}

// subexprSpan is the byte span of subexpression k (0: the whole match)
// of match m, as PostgreSQL picks it: k beyond the pattern's groups is
// none, and a pattern without groups takes its whole match for 1.
func subexprSpan(re *areRegexp, m []int, k int32) (int, int, bool) {
	if k == 0 || re.groups == 0 && k == 1 {
		return m[0], m[1], true
	}
	if int(k) > re.groups {
		return 0, 0, false
	}
	so, eo := m[2*k], m[2*k+1]
	return so, eo, so >= 0
}

func errRegexpSubexprAlternation() error {
	return errAREUnsupported("alternation when a subexpression is selected")
}

func regexpInstr(cache *areCache, args []arrow.Array) (arrow.Array, error) {
	r := regexpArgs{args}
	c := cache.batch()
	return int32Result(args, func(i int) (int32, error) {
		start, n, endOption, subexpr := r.int(2, i, 1), r.int(3, i, 1), r.int(4, i, 0), r.int(6, i, 0)
		switch {
		case start <= 0:
			return 0, errRegexpParam("start", start)
		case n <= 0:
			return 0, errRegexpParam("n", n)
		case endOption != 0 && endOption != 1:
			return 0, errRegexpParam("endoption", endOption)
		case subexpr < 0:
			return 0, errRegexpParam("subexpr", subexpr)
		}
		flags, err := regexpFlagsNoGlobal("regexp_instr", r.text(5, i, ""))
		if err != nil {
			return 0, err
		}
		re, err := c.get(r.text(1, i, ""), flags)
		if err != nil {
			return 0, err
		}
		if subexpr > 0 && re.groups > 0 && re.alternation {
			return 0, errRegexpSubexprAlternation()
		}
		s := r.text(0, i, "")
		m := nthMatch(re, s, charOffset(s, int(start-1)), n)
		if m == nil {
			return 0, nil
		}
		so, eo, ok := subexprSpan(re, m, subexpr)
		if !ok {
			return 0, nil
		}
		if endOption == 1 {
			return int32(charIndex(s, eo)) + 1, nil
		}
		return int32(charIndex(s, so)) + 1, nil
	})
}

func regexpSubstr(cache *areCache, args []arrow.Array) (arrow.Array, error) {
	r := regexpArgs{args}
	c := cache.batch()
	return stringResult(args, func(i int, buf []byte) ([]byte, bool, error) {
		start, n, subexpr := r.int(2, i, 1), r.int(3, i, 1), r.int(5, i, 0)
		switch {
		case start <= 0:
			return buf, false, errRegexpParam("start", start)
		case n <= 0:
			return buf, false, errRegexpParam("n", n)
		case subexpr < 0:
			return buf, false, errRegexpParam("subexpr", subexpr)
		}
		flags, err := regexpFlagsNoGlobal("regexp_substr", r.text(4, i, ""))
		if err != nil {
			return buf, false, err
		}
		re, err := c.get(r.text(1, i, ""), flags)
		if err != nil {
			return buf, false, err
		}
		if subexpr > 0 && re.groups > 0 && re.alternation {
			return buf, false, errRegexpSubexprAlternation()
		}
		s := r.text(0, i, "")
		m := nthMatch(re, s, charOffset(s, int(start-1)), n)
		if m == nil {
			return buf, false, nil
		}
		so, eo, ok := subexprSpan(re, m, subexpr)
		if !ok {
			return buf, false, nil
		}
		return append(buf, s[so:eo]...), true, nil
	})
}

func regexpLike(cache *areCache, args []arrow.Array) (arrow.Array, error) {
	r := regexpArgs{args}
	c := cache.batch()
	n := args[0].Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := nullsOf(args)
	for i := 0; i < n; i++ {
		if !validAt(validity, i) {
			continue
		}
		flags, err := regexpFlagsNoGlobal("regexp_like", r.text(2, i, ""))
		if err != nil {
			return nil, err
		}
		re, err := c.get(r.text(1, i, ""), flags)
		if err != nil {
			return nil, err
		}
		if re.re.MatchString(r.text(0, i, "")) {
			bitutil.SetBit(bits, i)
		}
	}
	return newBool(n, bits, validity, nulls), nil
}

// regexpReplaceAt is regexp_replace(source, pattern, replacement, start
// [, N [, flags]]): the N'th match at or after start is replaced, every
// one when N is 0; without N, the g flag decides.
func regexpReplaceAt(cache *areCache, args []arrow.Array) (arrow.Array, error) {
	r := regexpArgs{args}
	c := cache.batch()
	return stringResult(args, func(i int, buf []byte) ([]byte, bool, error) {
		start := r.int(3, i, 1)
		if start <= 0 {
			return buf, false, errRegexpParam("start", start)
		}
		n := r.int(4, i, 1)
		if len(args) > 4 && n < 0 {
			return buf, false, errRegexpParam("n", n)
		}
		flags, err := parseAREFlags(r.text(5, i, ""))
		if err != nil {
			return buf, false, err
		}
		if len(args) <= 4 && flags.global {
			n = 0
		}
		re, err := c.get(r.text(1, i, ""), flags)
		if err != nil {
			return buf, false, err
		}
		repl := r.text(2, i, "")
		if re.groups > 0 && re.alternation && replacementHasGroup(repl) {
			return buf, false, errRegexpSubexprAlternation()
		}
		s := r.text(0, i, "")
		done, count := 0, int32(0)
		regexpMatches(re, s, charOffset(s, int(start-1)), func(m []int) bool {
			count++
			if n > 0 && count != n {
				return true
			}
			buf = append(buf, s[done:m[0]]...)
			buf = appendReplacement(buf, repl, s, m)
			done = m[1]
			return n == 0
		})
		return append(buf, s[done:]...), true, nil
	})
}

// replacementHasGroup reports a \1 .. \9 in a replacement.
func replacementHasGroup(repl string) bool {
	for i := 0; i+1 < len(repl); i++ {
		if repl[i] == '\\' {
			if repl[i+1] >= '1' && repl[i+1] <= '9' {
				return true
			}
			i++
		}
	}
	return false
}

// appendReplacement appends repl with PostgreSQL's escapes: \1 .. \9 a
// group (empty when it did not take part), \& the match, \\ a backslash;
// a backslash before anything else is kept.
func appendReplacement(buf []byte, repl, s string, m []int) []byte {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 >= len(repl) {
			buf = append(buf, c)
			continue
		}
		switch d := repl[i+1]; {
		case d >= '1' && d <= '9':
			if g := int(d - '0'); 2*g+1 < len(m) && m[2*g] >= 0 {
				buf = append(buf, s[m[2*g]:m[2*g+1]]...)
			}
			i++
		case d == '&':
			buf = append(buf, s[m[0]:m[1]]...)
			i++
		case d == '\\':
			buf = append(buf, '\\')
			i++
		default:
			buf = append(buf, '\\')
		}
	}
	return buf
}

// int32Result builds an int4 array from f over the rows whose arguments
// are all non-NULL; the first error stops it.
func int32Result(args []arrow.Array, f func(i int) (int32, error)) (arrow.Array, error) {
	n := args[0].Len()
	vals := make([]int32, n)
	validity, nulls := nullsOf(args)
	for i := 0; i < n; i++ {
		if !validAt(validity, i) {
			continue
		}
		v, err := f(i)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return newFixed(arrow.PrimitiveTypes.Int32, vals, validity, nulls), nil
}
