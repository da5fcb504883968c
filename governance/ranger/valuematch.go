package ranger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// valueMatcher matches one requested value against one policy value,
// compiled once when the evaluator is built.
type valueMatcher interface {
	match(v string) bool
}

// exactMatcher is a policy value without wildcards.
type exactMatcher struct {
	value string
	fold  bool
}

func (m exactMatcher) match(v string) bool {
	if m.fold {
		return strings.EqualFold(v, m.value)
	}
	return v == m.value
}

// wildcardMatcher is a policy value with '*' (any run of characters) or
// '?' (exactly one character), matched as Apache commons-io's
// FilenameUtils.wildcardMatch does.
type wildcardMatcher struct {
	pattern string
	fold    bool
}

func (m wildcardMatcher) match(v string) bool { return wildcardMatch(v, m.pattern, m.fold) }

// urlRecursiveMatcher is a recursive URL policy value without wildcards:
// the value itself and everything below it.
type urlRecursiveMatcher struct {
	withoutSep string
	withSep    string
	fold       bool
}

func (m urlRecursiveMatcher) match(v string) bool {
	if m.fold {
		return strings.EqualFold(v, m.withoutSep) ||
			(len(v) >= len(m.withSep) && strings.EqualFold(v[:len(m.withSep)], m.withSep))
	}
	return v == m.withoutSep || strings.HasPrefix(v, m.withSep)
}

// urlRecursiveWildcardMatcher is a recursive URL policy value with
// wildcards: some prefix of the requested URL, cut at a path separator,
// must match the pattern.
type urlRecursiveWildcardMatcher struct {
	pattern string
	sep     byte
	fold    bool
}

func (m urlRecursiveWildcardMatcher) match(v string) bool {
	url := strings.TrimSpace(v)
	if url == "" || !isURLWithScheme(url) {
		return false
	}
	colon := strings.IndexByte(url, ':')
	scheme := url[:colon+3]
	var elements []string
	for _, e := range strings.Split(url[colon+2:], string(m.sep)) {
		if e != "" {
			elements = append(elements, e)
		}
	}
	if len(elements) == 0 {
		return wildcardMatch(v, m.pattern, m.fold)
	}
	var sb strings.Builder
	sb.WriteString(scheme)
	if v[0] == m.sep {
		sb.WriteByte(m.sep)
	}
	for _, e := range elements {
		sb.WriteString(e)
		if wildcardMatch(sb.String(), m.pattern, m.fold) {
			return true
		}
		sb.WriteByte(m.sep)
	}
	candidate := sb.String()
	if !strings.HasSuffix(url, string(m.sep)) {
		candidate = candidate[:len(candidate)-1]
	}
	return wildcardMatch(candidate, m.pattern, m.fold)
}

// isURLWithScheme reports whether a URL has "scheme://" (and not ":///").
func isURLWithScheme(url string) bool {
	return strings.Contains(url, "://") && !strings.Contains(url, ":///")
}

// wildcardMatch matches s against a pattern of '*' and '?' wildcards,
// backtracking only to the last '*'.
func wildcardMatch(s, pattern string, fold bool) bool {
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pattern) {
			pr, pw := utf8.DecodeRuneInString(pattern[pi:])
			if pr == '*' {
				starP, starS = pi, si
				pi += pw
				continue
			}
			sr, sw := utf8.DecodeRuneInString(s[si:])
			if pr == '?' || runeEqual(pr, sr, fold) {
				pi += pw
				si += sw
				continue
			}
		}
		if starP < 0 {
			return false
		}
		_, sw := utf8.DecodeRuneInString(s[starS:])
		starS += sw
		si, pi = starS, starP+1
	}
	for pi < len(pattern) && pattern[pi] == '*' {
		pi++
	}
	return pi == len(pattern)
}

// runeEqual compares two characters, ignoring case as Java's
// String.equalsIgnoreCase does when fold is set.
func runeEqual(a, b rune, fold bool) bool {
	if a == b {
		return true
	}
	if !fold {
		return false
	}
	return unicode.ToUpper(a) == unicode.ToUpper(b) || unicode.ToLower(a) == unicode.ToLower(b)
}

// hasWildcard reports whether a policy value uses '*' or '?'.
func hasWildcard(v string) bool { return strings.ContainsAny(v, "*?") }

// onlyAsterisks reports whether v is made of '*' only ("*", "**").
func onlyAsterisks(v string) bool { return v != "" && strings.Trim(v, "*") == "" }
