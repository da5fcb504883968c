package exec

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// likeMatcher is a compiled LIKE pattern. A pattern that ends with a
// lone escape character never matches, and PostgreSQL fails with 22025
// when its matcher reaches that escape with text left over, that is when
// the text has a proper prefix the rest of the pattern matches
// (danglingPrefix).
type likeMatcher struct {
	re             *regexp.Regexp
	danglingPrefix *regexp.Regexp
	// segments, when set, are the literal runs of a pattern whose only
	// wildcard is %, matched with string searches instead of re
	// (Q13's '%special%requests%', Q9's '%green%'): the first must
	// start the text, the last end it, the others come in order between.
	// Searching UTF-8 for UTF-8 only finds whole characters, so bytes
	// compare as the characters LIKE compares.
	segments []string
	// wild: the pattern has a %; without one it is the text itself.
	wild bool
}

func (m *likeMatcher) match(s string) (bool, error) {
	if m.segments != nil {
		return m.matchSegments(s), nil
	}
	if m.danglingPrefix != nil {
		if m.danglingPrefix.MatchString(s) {
			return false, errLikeTrailingEscape()
		}
		return false, nil
	}
	return m.re.MatchString(s), nil
}

func errLikeTrailingEscape() error {
	return pgerror.New(pgerror.InvalidEscapeSequence, "LIKE pattern must not end with escape character")
}

// matchKernel evaluates LIKE / ILIKE / regular-expression matches. Each
// distinct pattern is compiled once per batch.
func matchKernel(kind string) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		s, p := strArg(args[0]), strArg(args[1])
		likes := map[string]*likeMatcher{}
		regexps := map[string]*regexp.Regexp{}
		var matchErr error
		// The pattern is usually one constant: the last one is kept at hand.
		var lastPat string
		var last *likeMatcher
		match := func(i int) bool {
			pat := p.Value(i)
			switch kind {
			case "like", "ilike":
				m := last
				if m == nil || pat != lastPat {
					var ok bool
					if m, ok = likes[pat]; !ok {
						m = compileLike(pat, kind == "ilike")
						likes[pat] = m
					}
					last, lastPat = m, pat
				}
				ok, err := m.match(s.Value(i))
				if err != nil && matchErr == nil {
					matchErr = err
				}
				return ok
			}
			re, err := compileRegexpCached(regexps, pat, kind == "iregex")
			if err != nil {
				if matchErr == nil {
					matchErr = err
				}
				return false
			}
			return re.MatchString(s.Value(i))
		}
		out := boolResult(args, match)
		if matchErr != nil {
			out.Release()
			return nil, matchErr
		}
		return out, nil
	}
}

func (m *likeMatcher) matchSegments(s string) bool {
	segs := m.segments
	if !m.wild {
		return s == segs[0]
	}
	if !strings.HasPrefix(s, segs[0]) {
		return false
	}
	s = s[len(segs[0]):]
	last := segs[len(segs)-1]
	for _, seg := range segs[1 : len(segs)-1] {
		i := strings.Index(s, seg)
		if i < 0 {
			return false
		}
		s = s[i+len(seg):]
	}
	return strings.HasSuffix(s, last)
}

// likeTokens reads a LIKE pattern character by character, backslash
// escapes resolved: visit gets each character and whether it is an
// unescaped wildcard (% or _), and stops the reading by returning false.
// dangling reports a pattern that ends with a lone backslash.
func likeTokens(pat string, visit func(r rune, wildcard bool) bool) (dangling bool) {
	escaped := false
	for _, r := range pat {
		if !escaped && r == '\\' {
			escaped = true
			continue
		}
		if !visit(r, !escaped && (r == '%' || r == '_')) {
			return false
		}
		escaped = false
	}
	return escaped
}

// likeSegments splits a LIKE pattern whose only wildcard is % into its
// literal runs (escapes resolved); ok is false for a pattern with _ or a
// trailing lone escape.
func likeSegments(pat string) (segs []string, wild, ok bool) {
	var cur strings.Builder
	ok = true
	dangling := likeTokens(pat, func(r rune, wildcard bool) bool {
		switch {
		case wildcard && r == '_':
			ok = false
		case wildcard:
			segs = append(segs, cur.String())
			cur.Reset()
			wild = true
		default:
			cur.WriteRune(r)
		}
		return ok
	})
	if !ok || dangling {
		return nil, false, false
	}
	return append(segs, cur.String()), wild, true
}

// compileLike compiles a LIKE pattern; fold matches ASCII letters in
// either case (ILIKE under the C locale).
func compileLike(pat string, fold bool) *likeMatcher {
	if !fold {
		if segs, wild, ok := likeSegments(pat); ok {
			return &likeMatcher{segments: segs, wild: wild}
		}
	}
	expr, dangling := likeToRegexp(pat, fold)
	if dangling {
		// The text goes on after what the pattern before the escape
		// matched: at least one more character.
		return &likeMatcher{danglingPrefix: regexp.MustCompile(expr + "(?s:.)")}
	}
	return &likeMatcher{re: regexp.MustCompile(expr + "$")}
}

// likeToRegexp translates a LIKE pattern (% any run, _ one character,
// backslash escapes) into a regular expression anchored at the start,
// and reports whether the pattern ends with a lone backslash. Under
// fold, ASCII letters, escaped or not, match either case.
func likeToRegexp(pat string, fold bool) (string, bool) {
	var b strings.Builder
	b.WriteString("(?s)^")
	dangling := likeTokens(pat, func(r rune, wildcard bool) bool {
		switch {
		case wildcard && r == '%':
			b.WriteString(".*")
		case wildcard:
			b.WriteString(".")
		case fold && r < utf8.RuneSelf && writeFoldedLetter(&b, byte(r)):
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
		return true
	})
	return b.String(), dangling
}

// likeEscapeKernel is like_escape(pattern, escape), what LIKE ... ESCAPE
// gives its pattern: the pattern rewritten to use backslash as its
// escape. An empty escape turns escaping off (each backslash is doubled);
// an escape of more than one character is an error.
func likeEscapeKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	pats, escs := strArg(args[0]), strArg(args[1])
	var err error
	out := buildStrings(args, func(i int, buf []byte) []byte {
		esc := escs.Value(i)
		if utf8.RuneCountInString(esc) > 1 {
			if err == nil {
				err = pgerror.New(pgerror.InvalidEscapeSequence, "invalid escape string").
					WithHint("Escape string must be empty or one character.")
			}
			return buf
		}
		return appendLikeEscape(buf, pats.Value(i), esc)
	})
	if err != nil {
		out.Release()
		return nil, err
	}
	return out, nil
}

// appendLikeEscape appends pat with escape esc (empty or one character)
// rewritten as PostgreSQL's do_like_escape does.
func appendLikeEscape(buf []byte, pat, esc string) []byte {
	switch esc {
	case "":
		for i := 0; i < len(pat); i++ {
			if pat[i] == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, pat[i])
		}
		return buf
	case `\`:
		return append(buf, pat...)
	}
	afterEscape := false
	for len(pat) > 0 {
		switch {
		case !afterEscape && strings.HasPrefix(pat, esc):
			buf = append(buf, '\\')
			pat = pat[len(esc):]
			afterEscape = true
			continue
		case pat[0] == '\\':
			buf = append(buf, '\\')
			if !afterEscape {
				buf = append(buf, '\\')
			}
			pat = pat[1:]
		default:
			_, size := utf8.DecodeRuneInString(pat)
			buf = append(buf, pat[:size]...)
			pat = pat[size:]
		}
		afterEscape = false
	}
	return buf
}
