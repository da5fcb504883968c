package exec

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// PostgreSQL's regular expressions are its advanced regular expressions
// (AREs) with the options of a flags string. This file translates an ARE
// into Go's syntax where the two agree exactly: PostgreSQL matches
// leftmost-longest when no quantifier is non-greedy, which Go's Longest
// mode does, and under the C locale its classes, escapes and case folding
// are ASCII ones. A construct Go cannot express with the same answers
// (back references, lookaround, non-greedy quantifiers, \m and \M,
// collating elements, the basic and extended flavours) fails with 0A000
// rather than answering differently.

// areFlags are the options of a PostgreSQL flags string.
type areFlags struct {
	global    bool // g: every match (regexp_replace)
	fold      bool // i: ASCII case-insensitive
	newline   bool // n, m: newline-sensitive
	expanded  bool // x: white space and comments ignored
	literal   bool // q: the pattern is a literal string
	otherMode byte // b, e, p or w: a flavour or newline mode Go cannot follow
}

// parseAREFlags reads a flags string as PostgreSQL's parse_re_flags does:
// later letters override earlier ones, an unknown letter is 22023.
func parseAREFlags(s string) (areFlags, error) {
	var f areFlags
	for _, c := range s {
		switch c {
		case 'g':
			f.global = true
		case 'c':
			f.fold = false
		case 'i':
			f.fold = true
		case 'm', 'n':
			f.newline, f.otherMode = true, 0
		case 's':
			f.newline, f.otherMode = false, 0
		case 't':
			f.expanded = false
		case 'x':
			f.expanded = true
		case 'q':
			f.literal = true
		case 'b', 'e', 'p', 'w':
			f.otherMode = byte(c)
		default:
			return f, pgerror.New(pgerror.InvalidParameterValue, "invalid regular expression option: \"%s\"", string(c))
		}
	}
	return f, nil
}

// areRegexp is a compiled ARE.
type areRegexp struct {
	// re matches leftmost-longest.
	re *regexp.Regexp
	// leftContext: the pattern holds ^, \A or a word boundary, whose
	// answer depends on the text before the match; a search that starts
	// inside the string then runs through scan and anchored, which see
	// the character before the search position.
	leftContext bool
	// scan finds, in a text that starts with the character before the
	// search position, the leftmost match after that character: its
	// group 1 starts there.
	scan *regexp.Regexp
	// anchored matches leftmost-longest right after the first character
	// of its text.
	anchored *regexp.Regexp
	// groups is the number of capturing groups; alternation reports a |.
	groups      int
	alternation bool
}

// errAREUnsupported is the error of a construct Go cannot match as
// PostgreSQL does.
func errAREUnsupported(what string) error {
	return pgerror.New(pgerror.FeatureNotSupported, "regular expressions with %s are not supported yet", what)
}

func errAREInvalid(msg string) error {
	return pgerror.New(pgerror.InvalidRegularExpression, "invalid regular expression: %s", msg)
}

// compileARE compiles pattern under flags.
func compileARE(pattern string, flags areFlags) (*areRegexp, error) {
	switch flags.otherMode {
	case 'b':
		return nil, errAREUnsupported("the b (basic) option")
	case 'e':
		return nil, errAREUnsupported("the e (extended) option")
	case 'p', 'w':
		return nil, errAREUnsupported("the " + string(flags.otherMode) + " (partial newline-sensitive) option")
	}
	t := areTranslator{flags: flags}
	var body string
	switch {
	case flags.literal:
		body = regexp.QuoteMeta(pattern)
	case strings.HasPrefix(pattern, "***="):
		body = regexp.QuoteMeta(pattern[4:])
	default:
		pattern = strings.TrimPrefix(pattern, "***:")
		var err error
		if pattern, err = t.embeddedOptions(pattern); err != nil {
			return nil, err
		}
		if t.flags.literal {
			body = regexp.QuoteMeta(pattern)
		} else if body, err = t.translate(pattern); err != nil {
			return nil, err
		}
	}
	if t.flags.fold {
		body = foldRegexpASCII(body)
	}
	mode := "(?s)"
	if t.flags.newline {
		mode = "(?m)"
	}
	re, err := regexp.Compile(mode + body)
	if err != nil {
		return nil, errAREInvalid(goRegexpReason(err))
	}
	re.Longest()
	out := &areRegexp{re: re, leftContext: t.leftContext, groups: re.NumSubexp(), alternation: t.alternation}
	if t.leftContext {
		out.scan = regexp.MustCompile(mode + `\A(?s:.)(?s:.)*?(` + body + `)`)
		out.anchored = regexp.MustCompile(mode + `\A(?s:.)(?:` + body + `)`)
		out.anchored.Longest()
	}
	return out, nil
}

// goRegexpReason is the part of a Go compile error after "error parsing
// regexp: ".
func goRegexpReason(err error) string {
	return strings.TrimPrefix(err.Error(), "error parsing regexp: ")
}

// findAt returns the submatch indexes (absolute) of the leftmost-longest
// match starting at byte offset pos or after it, as PostgreSQL's search
// from pos sees it: the text before pos still counts for ^, \A and word
// boundaries. nil when there is none.
func (r *areRegexp) findAt(s string, pos int) []int {
	if pos == 0 {
		return r.re.FindStringSubmatchIndex(s)
	}
	if pos > len(s) {
		return nil
	}
	if !r.leftContext {
		return shiftIndexes(r.re.FindStringSubmatchIndex(s[pos:]), pos)
	}
	_, k := utf8.DecodeLastRuneInString(s[:pos])
	base := pos - k
	m := r.scan.FindStringSubmatchIndex(s[base:])
	if m == nil {
		return nil
	}
	start := base + m[2]
	_, k = utf8.DecodeLastRuneInString(s[:start])
	a := r.anchored.FindStringSubmatchIndex(s[start-k:])
	if a == nil {
		return nil // cannot happen: scan found a match there
	}
	a[0] = k // the match proper starts after the character of context
	return shiftIndexes(a, start-k)
}

func shiftIndexes(m []int, by int) []int {
	for i, v := range m {
		if v >= 0 {
			m[i] = v + by
		}
	}
	return m
}

// areTranslator turns an ARE into Go's syntax.
type areTranslator struct {
	flags       areFlags
	leftContext bool
	alternation bool
}

// embeddedOptions applies a leading (?flags) of the pattern and returns
// the rest.
func (t *areTranslator) embeddedOptions(p string) (string, error) {
	if !strings.HasPrefix(p, "(?") {
		return p, nil
	}
	end := strings.IndexByte(p, ')')
	if end < 0 {
		return p, nil
	}
	opts := p[2:end]
	for _, c := range opts {
		if !strings.ContainsRune("bceimnpqstwx", c) {
			return p, nil // (?: and the like: left to translate
		}
	}
	f, err := parseAREFlags(opts)
	if err != nil {
		return "", errAREInvalid("invalid embedded option")
	}
	merged := t.flags
	for _, c := range opts {
		switch c {
		case 'c', 'i':
			merged.fold = f.fold
		case 'm', 'n', 's':
			merged.newline, merged.otherMode = f.newline, 0
		case 't', 'x':
			merged.expanded = f.expanded
		case 'q':
			merged.literal = true
		case 'b', 'e', 'p', 'w':
			merged.otherMode = byte(c)
		}
	}
	if merged.otherMode != 0 {
		return "", errAREUnsupported("the " + string(merged.otherMode) + " option")
	}
	t.flags = merged
	return p[end+1:], nil
}

// ASCII classes of the C locale.
const (
	areDigit = `0-9`
	areWord  = `0-9A-Za-z_`
	areSpace = `\t\n\v\f\r `
)

func (t *areTranslator) translate(p string) (string, error) {
	var b strings.Builder
	b.Grow(len(p) + 8)
	for i := 0; i < len(p); {
		c := p[i]
		if t.flags.expanded {
			if strings.IndexByte(" \t\n\r\f\v", c) >= 0 {
				i++
				continue
			}
			if c == '#' {
				for i < len(p) && p[i] != '\n' {
					i++
				}
				continue
			}
		}
		switch c {
		case '\\':
			n, err := t.escape(&b, p, i)
			if err != nil {
				return "", err
			}
			i = n
			continue
		case '[':
			n, err := t.bracket(&b, p, i)
			if err != nil {
				return "", err
			}
			i = n
			continue
		case '(':
			if strings.HasPrefix(p[i:], "(?:") {
				b.WriteString("(?:")
				i += 3
				continue
			}
			if strings.HasPrefix(p[i:], "(?") {
				if strings.HasPrefix(p[i:], "(?=") || strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?<") {
					return "", errAREUnsupported("lookahead or lookbehind constraints")
				}
				return "", errAREInvalid("quantifier operand invalid")
			}
			b.WriteByte('(')
			i++
			continue
		case '|':
			t.alternation = true
		case '^':
			t.leftContext = true
		case '*', '+', '?':
			if i+1 < len(p) && p[i+1] == '?' {
				return "", errAREUnsupported("non-greedy quantifiers")
			}
		case '{':
			n, ok, err := t.bound(&b, p, i)
			if err != nil {
				return "", err
			}
			if ok {
				i = n
				continue
			}
			b.WriteString(`\{`)
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(p[i:])
		b.WriteString(p[i : i+size])
		i += size
	}
	return b.String(), nil
}

// bound translates a repetition {m}, {m,} or {m,n} at p[i]: PostgreSQL
// allows counts up to 255. ok is false when the brace starts no bound and
// is a literal.
func (t *areTranslator) bound(b *strings.Builder, p string, i int) (int, bool, error) {
	j := i + 1
	for j < len(p) && (p[j] >= '0' && p[j] <= '9' || p[j] == ',') {
		j++
	}
	if j == i+1 || p[i+1] < '0' || p[i+1] > '9' {
		return i, false, nil
	}
	if j >= len(p) || p[j] != '}' {
		return i, false, errAREInvalid("braces {} not balanced")
	}
	spec := p[i+1 : j]
	lo, hi := spec, ""
	if k := strings.IndexByte(spec, ','); k >= 0 {
		lo, hi = spec[:k], spec[k+1:]
		if strings.IndexByte(hi, ',') >= 0 {
			return i, false, errAREInvalid("invalid repetition count(s)")
		}
	}
	m, err := strconv.Atoi(lo)
	if err != nil || m > 255 {
		return i, false, errAREInvalid("invalid repetition count(s)")
	}
	if hi != "" {
		n, err := strconv.Atoi(hi)
		if err != nil || n > 255 || n < m {
			return i, false, errAREInvalid("invalid repetition count(s)")
		}
	}
	if j+1 < len(p) && p[j+1] == '?' {
		return i, false, errAREUnsupported("non-greedy quantifiers")
	}
	b.WriteString(p[i : j+1])
	return j + 1, true, nil
}

// escape translates the escape at p[i] outside a bracket expression.
func (t *areTranslator) escape(b *strings.Builder, p string, i int) (int, error) {
	if i+1 >= len(p) {
		return 0, errAREInvalid("invalid escape \\ sequence")
	}
	c := p[i+1]
	switch c {
	case 'd':
		b.WriteString("[" + areDigit + "]")
	case 'w':
		b.WriteString("[" + areWord + "]")
	case 's':
		b.WriteString("[" + areSpace + "]")
	case 'D', 'W', 'S':
		// Unlike a bracket expression, these match a newline even in
		// newline-sensitive mode.
		b.WriteString("[^" + map[byte]string{'D': areDigit, 'W': areWord, 'S': areSpace}[c] + "]")
	case 'A':
		t.leftContext = true
		b.WriteString(`\A`)
	case 'Z':
		b.WriteString(`\z`)
	case 'y':
		t.leftContext = true
		b.WriteString(`\b`)
	case 'Y':
		t.leftContext = true
		b.WriteString(`\B`)
	case 'm', 'M':
		return 0, errAREUnsupported(`\m or \M`)
	case 'a':
		b.WriteString(`\x{7}`)
	case 'b':
		b.WriteString(`\x{8}`)
	case 'B':
		b.WriteString(`\\`)
	case 'e':
		b.WriteString(`\x{1b}`)
	case 'f':
		b.WriteString(`\f`)
	case 'n':
		b.WriteString(`\n`)
	case 'r':
		b.WriteString(`\r`)
	case 't':
		b.WriteString(`\t`)
	case 'v':
		b.WriteString(`\v`)
	case 'u', 'U', 'x':
		return t.codePoint(b, p, i)
	default:
		switch {
		case c >= '0' && c <= '9':
			return 0, errAREUnsupported("back references or octal escapes")
		case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'):
			return 0, errAREInvalid("invalid escape \\ sequence")
		}
		_, size := utf8.DecodeRuneInString(p[i+1:])
		b.WriteString(regexp.QuoteMeta(p[i+1 : i+1+size]))
		return i + 1 + size, nil
	}
	return i + 2, nil
}

// codePoint translates \uwxyz, \Ustuvwxyz and \xhhh.
func (t *areTranslator) codePoint(b *strings.Builder, p string, i int) (int, error) {
	want := map[byte]int{'u': 4, 'U': 8, 'x': 0}[p[i+1]]
	j := i + 2
	for j < len(p) && isHexDigit(p[j]) && (want == 0 || j-i-2 < want) {
		j++
	}
	digits := p[i+2 : j]
	if digits == "" || want > 0 && len(digits) != want {
		return 0, errAREInvalid("invalid escape \\ sequence")
	}
	v, err := strconv.ParseUint(digits, 16, 32)
	if err != nil || v > utf8.MaxRune || v == 0 {
		return 0, errAREInvalid("invalid escape \\ sequence")
	}
	b.WriteString(`\x{` + strconv.FormatUint(v, 16) + `}`)
	return j, nil
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// bracket translates the bracket expression at p[i].
func (t *areTranslator) bracket(b *strings.Builder, p string, i int) (int, error) {
	j := i + 1
	b.WriteByte('[')
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		if t.flags.newline {
			b.WriteString(`\n`)
		}
		j++
	}
	if j < len(p) && p[j] == ']' {
		b.WriteString(`\]`)
		j++
	}
	for j < len(p) && p[j] != ']' {
		c := p[j]
		switch {
		case c == '[' && j+1 < len(p) && p[j+1] == ':':
			k := strings.Index(p[j+2:], ":]")
			if k < 0 {
				return 0, errAREInvalid("brackets [] not balanced")
			}
			name := p[j+2 : j+2+k]
			if !areClassNames[name] {
				return 0, errAREInvalid("invalid character class")
			}
			b.WriteString("[:" + name + ":]")
			j += k + 4
		case c == '[' && j+1 < len(p) && (p[j+1] == '.' || p[j+1] == '='):
			return 0, errAREUnsupported("collating elements or equivalence classes")
		case c == '[':
			b.WriteString(`\[`)
			j++
		case c == '\\':
			if j+1 >= len(p) {
				return 0, errAREInvalid("brackets [] not balanced")
			}
			switch e := p[j+1]; e {
			case 'd':
				b.WriteString(areDigit)
			case 'w':
				b.WriteString(areWord)
			case 's':
				b.WriteString(areSpace)
			case 'D':
				b.WriteString(`\x{0}-/:-\x{10ffff}`)
			case 'W':
				b.WriteString(`\x{0}-/:-@\[-\^` + "`" + `{-\x{10ffff}`)
			case 'S':
				b.WriteString(`\x{0}-\x{8}\x{e}-\x{1f}!-\x{10ffff}`)
			case 'a', 'b', 'B', 'e', 'f', 'n', 'r', 't', 'v', 'u', 'U', 'x':
				var sub strings.Builder
				n, err := t.escape(&sub, p, j)
				if err != nil {
					return 0, err
				}
				b.WriteString(sub.String())
				j = n
				continue
			default:
				switch {
				case e >= '0' && e <= '9':
					return 0, errAREUnsupported("octal escapes")
				case e < utf8.RuneSelf && (e >= 'a' && e <= 'z' || e >= 'A' && e <= 'Z'):
					return 0, errAREInvalid("invalid escape \\ sequence")
				}
				_, size := utf8.DecodeRuneInString(p[j+1:])
				b.WriteString(regexp.QuoteMeta(p[j+1 : j+1+size]))
				j += 1 + size
				continue
			}
			j += 2
		default:
			_, size := utf8.DecodeRuneInString(p[j:])
			b.WriteString(p[j : j+size])
			j += size
		}
	}
	if j >= len(p) {
		return 0, errAREInvalid("brackets [] not balanced")
	}
	b.WriteByte(']')
	return j + 1, nil
}

// areClassNames are the character classes of PostgreSQL's bracket
// expressions that Go has with the same (ASCII) members.
var areClassNames = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true, "graph": true,
	"lower": true, "print": true, "punct": true, "space": true, "upper": true, "xdigit": true, "word": true,
}

// areCache holds the compiled patterns of one kernel instance: a
// constant pattern is compiled once, varying ones once each. A batch
// keeps its own lookup and takes the lock only for a pattern it has not
// seen yet.
type areCache struct {
	mu      sync.Mutex
	entries map[areKey]*areRegexp
}

type areKey struct {
	pattern string
	flags   areFlags
}

// areCacheLimit bounds the patterns kept for a kernel whose pattern
// varies row by row.
const areCacheLimit = 1024

func (c *areCache) lookup(key areKey) (*areRegexp, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if re, ok := c.entries[key]; ok {
		return re, nil
	}
	re, err := compileARE(key.pattern, key.flags)
	if err != nil {
		return nil, err
	}
	if c.entries == nil || len(c.entries) >= areCacheLimit {
		c.entries = map[areKey]*areRegexp{}
	}
	c.entries[key] = re
	return re, nil
}

// areBatchCache is one batch's view of an areCache.
type areBatchCache struct {
	parent  *areCache
	local   map[areKey]*areRegexp
	lastKey areKey
	last    *areRegexp
}

func (c *areCache) batch() *areBatchCache {
	return &areBatchCache{parent: c}
}

func (c *areBatchCache) get(pattern string, flags areFlags) (*areRegexp, error) {
	key := areKey{pattern, flags}
	if c.last != nil && c.lastKey == key {
		return c.last, nil
	}
	re, ok := c.local[key]
	if !ok {
		var err error
		if re, err = c.parent.lookup(key); err != nil {
			return nil, err
		}
		if c.local == nil {
			c.local = map[areKey]*areRegexp{}
		}
		c.local[key] = re
	}
	c.lastKey, c.last = key, re
	return re, nil
}
