package exec

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// SQE's lc_ctype is C, and PostgreSQL under the C locale changes the
// case of ASCII letters only: upper('straße') is 'STRAßE', lower('ÀÉÎ')
// is 'ÀÉÎ', 'ÄÖÜ' ILIKE 'äöü' is false, and ~* and the i flag of the
// regexp functions fold only A-Z and a-z. ASCII folding keeps every
// byte's length, so the case kernels rewrite a copy of the value bytes
// and reuse the row boundaries.

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

func isASCIIAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// mapStringBytes returns a string array with a's rows and NULLs, each
// row's bytes rewritten in place by f in a copy of a's value bytes.
func mapStringBytes(a *array.String, f func(row []byte)) arrow.Array {
	n := a.Len()
	offs := a.ValueOffsets()
	base := offs[0]
	newOffs := make([]int32, n+1)
	for i, o := range offs {
		newOffs[i] = o - base
	}
	data := append([]byte(nil), a.ValueBytes()...)
	for i := 0; i < n; i++ {
		f(data[newOffs[i]:newOffs[i+1]])
	}
	validity, nulls := validity1(a)
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(validity)
	}
	d := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(newOffs)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// asciiCaseKernel is upper() or lower() under the C locale.
func asciiCaseKernel(upper bool) scalarKernel {
	conv := asciiLower
	if upper {
		conv = asciiUpper
	}
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		return mapStringBytes(strArg(args[0]), func(row []byte) {
			for i, c := range row {
				row[i] = conv(c)
			}
		}), nil
	}
}

// initcapKernel is initcap() under the C locale, as PostgreSQL computes
// it byte by byte: an ASCII letter right after an ASCII letter or digit
// is lower-cased, any other is upper-cased. The bytes of a non-ASCII
// character end a word (initcap('éa') is 'éA').
func initcapKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	return mapStringBytes(strArg(args[0]), func(row []byte) {
		inWord := false
		for i, c := range row {
			if inWord {
				c = asciiLower(c)
			} else {
				c = asciiUpper(c)
			}
			row[i] = c
			inWord = isASCIIAlnum(c)
		}
	}), nil
}

// writeFoldedLetter writes an ASCII letter as a class of both its cases;
// any other character as it is.
func writeFoldedLetter(b *strings.Builder, c byte) bool {
	if lo := asciiLower(c); lo != asciiUpper(c) {
		b.WriteByte('[')
		b.WriteByte(asciiUpper(c))
		b.WriteByte(lo)
		b.WriteByte(']')
		return true
	}
	return false
}

// foldRegexpASCII rewrites a regular expression so that it matches
// ASCII letters in either case and every other character exactly: each
// letter outside brackets becomes a class of both cases, and a bracket
// expression gains the other case of its ASCII letters and ranges before
// its negation applies, so [^a-z] excludes A-Z too, as in PostgreSQL.
// Go's (?i) would also fold non-ASCII letters (é and É, k and the
// Kelvin sign).
func foldRegexpASCII(expr string) string {
	var b strings.Builder
	b.Grow(len(expr) * 2)
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '\\':
			i = copyEscape(&b, expr, i)
		case c == '[':
			i = foldBracket(&b, expr, i)
		case c == '(' && i+1 < len(expr) && expr[i+1] == '?':
			// A group's flags or name are not letters to match.
			j := i + 2
			for j < len(expr) && expr[j] != ':' && expr[j] != ')' && expr[j] != '>' {
				j++
			}
			j = min(j+1, len(expr))
			b.WriteString(expr[i:j])
			i = j
		case c == '{':
			// A repetition count, {n,m}, holds no letters.
			j := strings.IndexByte(expr[i:], '}')
			if j < 0 {
				j = len(expr) - i - 1
			}
			b.WriteString(expr[i : i+j+1])
			i += j + 1
		default:
			if !writeFoldedLetter(&b, c) {
				b.WriteByte(c)
			}
			i++
		}
	}
	return b.String()
}

// copyEscape copies the escape sequence at expr[i] ('\' and what it
// escapes: one character, or \p{...}, \x{...}) and returns where it ends.
func copyEscape(b *strings.Builder, expr string, i int) int {
	j := i + 2
	if j > len(expr) {
		j = len(expr)
	} else if j < len(expr) && expr[j] == '{' && strings.ContainsRune("pPx", rune(expr[j-1])) {
		if k := strings.IndexByte(expr[j:], '}'); k >= 0 {
			j += k + 1
		}
	}
	if j == i+2 && expr[i+1] >= 0x80 {
		// An escaped multi-byte character is copied whole.
		for j < len(expr) && expr[j]&0xC0 == 0x80 {
			j++
		}
	}
	b.WriteString(expr[i:j])
	return j
}

// foldBracket copies the bracket expression at expr[i] and adds the
// other case of the ASCII letters it lists; [:lower:] and [:upper:]
// become [:alpha:], as in PostgreSQL's case-insensitive mode. It returns
// where the expression ends.
func foldBracket(b *strings.Builder, expr string, i int) int {
	var out strings.Builder
	j := i + 1
	if j < len(expr) && expr[j] == '^' {
		j++
	}
	if j < len(expr) && expr[j] == ']' {
		j++ // a leading ] is a literal
	}
	out.WriteString(expr[i:j])
	var extra strings.Builder
	for j < len(expr) && expr[j] != ']' {
		switch {
		case expr[j] == '[' && j+1 < len(expr) && expr[j+1] == ':':
			k := strings.Index(expr[j:], ":]")
			if k < 0 {
				out.WriteByte(expr[j])
				j++
				continue
			}
			switch name := expr[j : j+k+2]; name {
			case "[:lower:]", "[:upper:]":
				out.WriteString("[:alpha:]")
			default:
				out.WriteString(name)
			}
			j += k + 2
		case expr[j] == '\\':
			j = copyEscape(&out, expr, j)
		case j+2 < len(expr) && expr[j+1] == '-' && expr[j+2] != ']' && expr[j+2] != '\\' && expr[j] < utf8.RuneSelf && expr[j+2] < utf8.RuneSelf:
			out.WriteString(expr[j : j+3])
			addOtherCaseRange(&extra, expr[j], expr[j+2], 'a', 'A')
			addOtherCaseRange(&extra, expr[j], expr[j+2], 'A', 'a')
			j += 3
		default:
			c := expr[j]
			if lo, up := asciiLower(c), asciiUpper(c); lo != up {
				extra.WriteByte(lo ^ up ^ c) // the other case
			}
			out.WriteByte(c)
			j++
		}
	}
	if j >= len(expr) {
		// Unterminated: left for the regexp compiler to reject.
		b.WriteString(expr[i:])
		return len(expr)
	}
	b.WriteString(out.String())
	b.WriteString(extra.String())
	b.WriteByte(']')
	return j + 1
}

// addOtherCaseRange writes the part of the range lo-hi that lies in the
// alphabet starting at from, moved to the alphabet starting at to.
func addOtherCaseRange(b *strings.Builder, lo, hi, from, to byte) {
	l, h := max(lo, from), min(hi, from+25)
	if l > h {
		return
	}
	b.WriteByte(l - from + to)
	b.WriteByte('-')
	b.WriteByte(h - from + to)
}

// compileRegexpCached compiles a regular expression, folding ASCII case
// when fold is set, once per batch.
func compileRegexpCached(cache map[string]*regexp.Regexp, pattern string, fold bool) (*regexp.Regexp, error) {
	key := pattern
	if fold {
		key = "i\x00" + pattern
	}
	if re, ok := cache[key]; ok {
		return re, nil
	}
	expr := pattern
	if fold {
		expr = foldRegexpASCII(pattern)
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, pgerror.New(pgerror.InvalidRegularExpression, "invalid regular expression: %v", err)
	}
	cache[key] = re
	return re, nil
}
