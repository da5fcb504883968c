package types

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// json and jsonb values are held as text (Arrow utf8). A json value is
// kept exactly as written once it has been checked; a jsonb value is
// stored in the form jsonb_out prints, which is what PostgreSQL's binary
// jsonb normalises to: object keys sorted (shorter first, then bytewise),
// the last of duplicate keys kept, numbers as numeric prints them, one
// space after ':' and ','.

// jsonKind is the kind of a parsed JSON value, in jsonb's sort order of
// scalars (null < string < number < boolean).
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonString
	jsonNumber
	jsonBool
	jsonArray
	jsonObject
)

// jsonValue is a parsed JSON value. text holds a string's decoded value,
// a number's normalised digits or "true"/"false".
type jsonValue struct {
	kind  jsonKind
	text  string
	elems []jsonValue // array elements, or object values
	keys  []string    // object keys, parallel to elems
}

// jsonParser is a recursive-descent reader of RFC 8259 text with
// PostgreSQL's json_lex rules. decode says whether escapes are turned into
// text (jsonb); json only checks them.
type jsonParser struct {
	in     string
	pos    int
	decode bool
	// asWritten keeps numbers' text and objects' members (order and
	// duplicates) as written while decoding strings: json's, not jsonb's,
	// view of a value.
	asWritten bool
	depth     int
}

// SQLSTATEs of jsonb input errors that package pgerror has no name for.
const (
	codeStatementTooComplex     = "54001"
	codeUntranslatableCharacter = "22P05"
)

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 6400

func jsonSyntax(detail string, args ...any) error {
	return pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type json").WithDetail(detail, args...)
}

// ValidateJSON checks s as json_in does.
func ValidateJSON(s string) error {
	p := &jsonParser{in: s}
	_, err := p.document()
	return err
}

// NormalizeJSONB parses s as jsonb_in does and returns jsonb_out's text.
func NormalizeJSONB(s string) (string, error) {
	v, err := parseJSONB(s)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(len(s))
	writeJSONB(&b, &v)
	return b.String(), nil
}

func parseJSONB(s string) (jsonValue, error) {
	p := &jsonParser{in: s, decode: true}
	return p.document()
}

func (p *jsonParser) document() (jsonValue, error) {
	v, err := p.value()
	if err != nil {
		return v, err
	}
	p.skipSpace()
	if p.pos < len(p.in) {
		return v, jsonSyntax("Expected end of input, but found \"%s\".", p.token())
	}
	return v, nil
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// token is the offending token at pos, as json_lex reports it: one
// delimiter, or a run of characters up to the next delimiter.
func (p *jsonParser) token() string {
	if p.pos >= len(p.in) {
		return ""
	}
	switch p.in[p.pos] {
	case '{', '}', '[', ']', ',', ':', '"':
		return p.in[p.pos : p.pos+1]
	}
	end := p.pos
	for end < len(p.in) && !strings.ContainsRune("{}[],:\" \t\n\r", rune(p.in[end])) {
		end++
	}
	return p.in[p.pos:end]
}

func (p *jsonParser) unexpectedEnd() error {
	return jsonSyntax("The input string ended unexpectedly.")
}

func (p *jsonParser) value() (jsonValue, error) {
	p.skipSpace()
	if p.pos >= len(p.in) {
		return jsonValue{}, p.unexpectedEnd()
	}
	switch c := p.in[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.str()
		return jsonValue{kind: jsonString, text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	tok := p.token()
	switch tok {
	case "true", "false":
		p.pos += len(tok)
		return jsonValue{kind: jsonBool, text: tok}, nil
	case "null":
		p.pos += len(tok)
		return jsonValue{kind: jsonNull}, nil
	case "{", "}", "[", "]", ",", ":":
		return jsonValue{}, jsonSyntax("Expected JSON value, but found \"%s\".", tok)
	}
	return jsonValue{}, jsonSyntax("Token \"%s\" is invalid.", tok)
}

func (p *jsonParser) enter() error {
	p.depth++
	if p.depth > maxJSONDepth {
		return pgerror.New(codeStatementTooComplex, "stack depth limit exceeded")
	}
	return nil
}

func (p *jsonParser) array() (jsonValue, error) {
	if err := p.enter(); err != nil {
		return jsonValue{}, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '['
	v := jsonValue{kind: jsonArray}
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		e, err := p.value()
		if err != nil {
			return v, err
		}
		v.elems = append(v.elems, e)
		p.skipSpace()
		if p.pos >= len(p.in) {
			return v, p.unexpectedEnd()
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return v, jsonSyntax("Expected \",\" or \"]\", but found \"%s\".", p.token())
		}
	}
}

func (p *jsonParser) object() (jsonValue, error) {
	if err := p.enter(); err != nil {
		return jsonValue{}, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '{'
	v := jsonValue{kind: jsonObject}
	p.skipSpace()
	if p.pos < len(p.in) && p.in[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.in) {
			return v, p.unexpectedEnd()
		}
		if p.in[p.pos] != '"' {
			return v, jsonSyntax("Expected string, but found \"%s\".", p.token())
		}
		k, err := p.str()
		if err != nil {
			return v, err
		}
		p.skipSpace()
		if p.pos >= len(p.in) {
			return v, p.unexpectedEnd()
		}
		if p.in[p.pos] != ':' {
			return v, jsonSyntax("Expected \":\", but found \"%s\".", p.token())
		}
		p.pos++
		e, err := p.value()
		if err != nil {
			return v, err
		}
		v.keys = append(v.keys, k)
		v.elems = append(v.elems, e)
		p.skipSpace()
		if p.pos >= len(p.in) {
			return v, p.unexpectedEnd()
		}
		switch p.in[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			if p.decode && !p.asWritten {
				normalizeObject(&v)
			}
			return v, nil
		default:
			return v, jsonSyntax("Expected \",\" or \"}\", but found \"%s\".", p.token())
		}
	}
}

// str reads a string token; with decode it returns the decoded text.
func (p *jsonParser) str() (string, error) {
	p.pos++ // opening quote
	var b strings.Builder
	for {
		if p.pos >= len(p.in) {
			return "", p.unexpectedEnd()
		}
		c := p.in[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", jsonSyntax("Character with value 0x%02x must be escaped.", c)
		case c != '\\':
			if p.decode {
				b.WriteByte(c)
			}
			p.pos++
			continue
		}
		// An escape.
		if p.pos+1 >= len(p.in) {
			return "", p.unexpectedEnd()
		}
		e := p.in[p.pos+1]
		p.pos += 2
		var r rune
		switch e {
		case '"', '\\', '/':
			r = rune(e)
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			u, err := p.hex4()
			if err != nil {
				return "", err
			}
			r = rune(u)
			if !p.decode {
				continue
			}
			switch {
			case utf16.IsSurrogate(r) && r < 0xdc00:
				if p.pos+6 > len(p.in) || p.in[p.pos] != '\\' || p.in[p.pos+1] != 'u' {
					return "", jsonSyntax("Unicode high surrogate must not be followed by another high surrogate.")
				}
				p.pos += 2
				lo, err := p.hex4()
				if err != nil {
					return "", err
				}
				if lo < 0xdc00 || lo > 0xdfff {
					return "", jsonSyntax("Unicode low surrogate must follow a high surrogate.")
				}
				r = utf16.DecodeRune(r, rune(lo))
			case utf16.IsSurrogate(r):
				return "", jsonSyntax("Unicode low surrogate must follow a high surrogate.")
			case r == 0:
				return "", pgerror.New(codeUntranslatableCharacter, "unsupported Unicode escape sequence").
					WithDetail("\\u0000 cannot be converted to text.")
			}
		default:
			return "", jsonSyntax("Escape sequence \"\\%s\" is invalid.", string(e))
		}
		if p.decode {
			b.WriteRune(r)
		}
	}
}

func (p *jsonParser) hex4() (uint16, error) {
	if p.pos+4 > len(p.in) {
		return 0, jsonSyntax("\"\\u\" must be followed by four hexadecimal digits.")
	}
	var u uint16
	for i := 0; i < 4; i++ {
		d, ok := hexValue(p.in[p.pos+i])
		if !ok {
			return 0, jsonSyntax("\"\\u\" must be followed by four hexadecimal digits.")
		}
		u = u<<4 | uint16(d)
	}
	p.pos += 4
	return u, nil
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; a number
// run on into letters or digits is one invalid token, as in json_lex.
func (p *jsonParser) number() (jsonValue, error) {
	start := p.pos
	i := p.pos
	digits := func() int {
		n := 0
		for i < len(p.in) && p.in[i] >= '0' && p.in[i] <= '9' {
			i++
			n++
		}
		return n
	}
	ok := true
	if p.in[i] == '-' {
		i++
	}
	if i < len(p.in) && p.in[i] == '0' {
		i++
	} else if digits() == 0 {
		ok = false
	}
	if ok && i < len(p.in) && p.in[i] == '.' {
		i++
		ok = digits() > 0
	}
	if ok && i < len(p.in) && (p.in[i] == 'e' || p.in[i] == 'E') {
		i++
		if i < len(p.in) && (p.in[i] == '+' || p.in[i] == '-') {
			i++
		}
		ok = digits() > 0
	}
	// Anything but a delimiter right after the number makes one bad token.
	if !ok || (i < len(p.in) && !strings.ContainsRune("{}[],:\" \t\n\r", rune(p.in[i]))) {
		return jsonValue{}, jsonSyntax("Token \"%s\" is invalid.", p.token())
	}
	p.pos = i
	text := p.in[start:i]
	if p.decode && !p.asWritten {
		text = normalizeNumber(text)
	}
	return jsonValue{kind: jsonNumber, text: text}, nil
}

// normalizeNumber prints a valid JSON number as numeric_out prints
// numeric_in's value: fixed point, with the written scale less the
// exponent (never below zero), and no negative zero.
func normalizeNumber(s string) string {
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			e = 0
		}
		exp = e
		s = s[:i]
	}
	scale := 0
	digits := s
	if i := strings.IndexByte(s, '.'); i >= 0 {
		scale = len(s) - i - 1
		digits = s[:i] + s[i+1:]
	}
	// value = digits * 10^(exp-scale); print at scale max(0, scale-exp).
	outScale := max(0, scale-exp)
	shift := outScale - (scale - exp) // extra zeros appended to digits
	digits += strings.Repeat("0", shift)
	digits = strings.TrimLeft(digits, "0")
	if len(digits) <= outScale {
		digits = strings.Repeat("0", outScale-len(digits)+1) + digits
	}
	intPart, frac := digits[:len(digits)-outScale], digits[len(digits)-outScale:]
	out := intPart
	if outScale > 0 {
		out += "." + frac
	}
	if neg && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out
}

// normalizeObject keeps the last value of each key and sorts keys as
// jsonb stores them: shorter first, then bytewise.
func normalizeObject(v *jsonValue) {
	type pair struct {
		k string
		e jsonValue
	}
	pairs := make([]pair, 0, len(v.keys))
	seen := make(map[string]int, len(v.keys))
	for i, k := range v.keys {
		if j, ok := seen[k]; ok {
			pairs[j].e = v.elems[i]
			continue
		}
		seen[k] = len(pairs)
		pairs = append(pairs, pair{k, v.elems[i]})
	}
	sortPairs := func(a, b pair) int { return jsonbKeyCmp(a.k, b.k) }
	slices.SortFunc(pairs, sortPairs)
	v.keys, v.elems = v.keys[:0], v.elems[:0]
	for _, p := range pairs {
		v.keys = append(v.keys, p.k)
		v.elems = append(v.elems, p.e)
	}
}

func jsonbKeyCmp(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// writeJSONB prints v as jsonb_out does.
func writeJSONB(b *strings.Builder, v *jsonValue) { writeJSONSeparated(b, v, ", ", ": ") }

// writeJSONSeparated prints v with itemSep between array elements and
// object members and keySep after each key.
func writeJSONSeparated(b *strings.Builder, v *jsonValue, itemSep, keySep string) {
	switch v.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool, jsonNumber:
		b.WriteString(v.text)
	case jsonString:
		writeJSONString(b, v.text)
	case jsonArray:
		b.WriteByte('[')
		for i := range v.elems {
			if i > 0 {
				b.WriteString(itemSep)
			}
			writeJSONSeparated(b, &v.elems[i], itemSep, keySep)
		}
		b.WriteByte(']')
	case jsonObject:
		b.WriteByte('{')
		for i := range v.elems {
			if i > 0 {
				b.WriteString(itemSep)
			}
			writeJSONString(b, v.keys[i])
			b.WriteString(keySep)
			writeJSONSeparated(b, &v.elems[i], itemSep, keySep)
		}
		b.WriteByte('}')
	}
}

// writeJSONString quotes s as PostgreSQL's escape_json does.
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
			continue
		}
		i++
	}
	b.WriteByte('"')
}
