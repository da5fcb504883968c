package ranger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// valueMatcher matches one requested value against one policy value,
// compiled once when the evaluator is built. prefixMatch answers Ranger's
// SELF_OR_PREFIX question: whether the requested value is the start of
// something the policy value matches (S3 asks "may the caller list
// anything below this prefix").
type valueMatcher interface {
	match(v string, rq *Request) bool
	prefixMatch(v string, rq *Request) bool
}

// exactMatcher is a policy value without wildcards.
type exactMatcher struct {
	value string
	fold  bool
}

func (m exactMatcher) match(v string, _ *Request) bool { return stringsEqual(v, m.value, m.fold) }

func (m exactMatcher) prefixMatch(v string, _ *Request) bool { return hasPrefix(m.value, v, m.fold) }

// wildcardMatcher is a policy value with '*' (any run of characters) or
// '?' (exactly one character), matched as Apache commons-io's
// FilenameUtils.wildcardMatch does.
type wildcardMatcher struct {
	pattern string
	fold    bool
	// suffixOnly: the pattern is stars then literal text ("*.db"), which
	// Ranger matches with endsWith and whose prefix match always holds.
	suffixOnly bool
}

func newWildcardMatcher(pattern string, fold bool) wildcardMatcher {
	rest := strings.TrimLeft(pattern, "*")
	return wildcardMatcher{pattern: pattern, fold: fold, suffixOnly: rest != pattern && !hasWildcard(rest)}
}

func (m wildcardMatcher) match(v string, _ *Request) bool { return wildcardMatch(v, m.pattern, m.fold) }

func (m wildcardMatcher) prefixMatch(v string, _ *Request) bool {
	return m.suffixOnly || wildcardPrefixMatch(v, m.pattern, m.fold)
}

// recursivePathMatcher is a recursive path (or URL) policy value without
// wildcards: the value itself and everything below it.
type recursivePathMatcher struct {
	value      string
	withoutSep string
	withSep    string
	fold       bool
}

func newRecursivePathMatcher(v string, sep byte, fold bool) recursivePathMatcher {
	without := strings.TrimSuffix(v, string(sep))
	return recursivePathMatcher{value: v, withoutSep: without, withSep: without + string(sep), fold: fold}
}

func (m recursivePathMatcher) match(v string, _ *Request) bool {
	return stringsEqual(v, m.withoutSep, m.fold) || hasPrefix(v, m.withSep, m.fold)
}

func (m recursivePathMatcher) prefixMatch(v string, _ *Request) bool {
	return wildcardPrefixMatch(v, m.value, m.fold)
}

// recursiveWildcardPathMatcher is a recursive path policy value with
// wildcards (Ranger's RangerPathResourceMatcher): some prefix of the
// requested path, cut at a separator, must match the pattern.
type recursiveWildcardPathMatcher struct {
	pattern  string
	elements []string
	sep      byte
	fold     bool
}

func newRecursiveWildcardPathMatcher(pattern string, sep byte, fold bool) recursiveWildcardPathMatcher {
	return recursiveWildcardPathMatcher{pattern: pattern, elements: splitPath(pattern, sep), sep: sep, fold: fold}
}

func (m recursiveWildcardPathMatcher) match(v string, _ *Request) bool {
	return recursiveWildcardMatch(v, m.pattern, m.sep, m.fold, m.elements)
}

func (m recursiveWildcardPathMatcher) prefixMatch(v string, _ *Request) bool {
	return wildcardPrefixMatch(v, m.pattern, m.fold)
}

// recursiveWildcardMatch is RangerPathResourceMatcher.isRecursiveWildCardMatch:
// leading path elements are compared as strings while the pattern's
// elements have no wildcard; from the first wildcard element on, each
// prefix of the path ending at an element is matched against the whole
// pattern.
func recursiveWildcardMatch(path, pattern string, sep byte, fold bool, patternElements []string) bool {
	if path == "" {
		return false
	}
	elements := splitPath(path, sep)
	if len(elements) == 0 {
		return wildcardMatch(path, pattern, fold)
	}
	var sb strings.Builder
	if path[0] == sep {
		sb.WriteByte(sep)
	}
	literal := true
	for i, p := range elements {
		sb.WriteString(p)
		if literal {
			if i < len(patternElements) && !hasWildcard(patternElements[i]) {
				if !stringsEqual(p, patternElements[i], fold) {
					return false
				}
			} else {
				literal = false
			}
		}
		if !literal && wildcardMatch(sb.String(), pattern, fold) {
			return true
		}
		sb.WriteByte(sep)
	}
	if !literal {
		return false
	}
	if len(elements) == len(patternElements) {
		return true
	}
	if path[len(path)-1] == sep {
		return len(elements) == len(patternElements)-1 && patternElements[len(patternElements)-1] == "*"
	}
	return false
}

// urlRecursiveWildcardMatcher is a recursive URL policy value with
// wildcards (Ranger's RangerURLResourceMatcher): some prefix of the
// requested URL, cut at a path separator, must match the pattern.
type urlRecursiveWildcardMatcher struct {
	pattern string
	sep     byte
	fold    bool
}

func (m urlRecursiveWildcardMatcher) match(v string, _ *Request) bool {
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

func (m urlRecursiveWildcardMatcher) prefixMatch(v string, _ *Request) bool {
	return wildcardPrefixMatch(v, m.pattern, m.fold)
}

// isURLWithScheme reports whether a URL has "scheme://" (and not ":///").
func isURLWithScheme(url string) bool {
	return strings.Contains(url, "://") && !strings.Contains(url, ":///")
}

// splitPath splits a path at sep, dropping empty elements, as Apache
// commons-lang's StringUtils.split does.
func splitPath(path string, sep byte) []string {
	var out []string
	for _, e := range strings.Split(path, string(sep)) {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
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

// wildcardPrefixMatch is Ranger's ResourceMatcher.wildcardPrefixMatch: a
// FilenameUtils.wildcardMatch that also succeeds when value runs out
// before the pattern does, so that value is a prefix of something the
// pattern matches.
func wildcardPrefixMatch(value, pattern string, fold bool) bool {
	tokens := splitWildcardTokens(pattern)
	anyChars := false
	textIdx, wcsIdx := 0, 0
	type position struct{ wcs, text int }
	var backtrack []position
	for {
		if n := len(backtrack); n > 0 {
			wcsIdx, textIdx = backtrack[n-1].wcs, backtrack[n-1].text
			backtrack = backtrack[:n-1]
			anyChars = true
		}
	scan:
		for ; wcsIdx < len(tokens); wcsIdx++ {
			tok := tokens[wcsIdx]
			switch tok {
			case "?":
				textIdx++
				if textIdx > len(value) {
					break scan
				}
				anyChars = false
			case "*":
				anyChars = true
				if wcsIdx == len(tokens)-1 {
					textIdx = len(value)
				}
			default:
				if len(tok) > len(value)-textIdx {
					tok = tok[:len(value)-textIdx]
				}
				if anyChars {
					textIdx = indexFrom(value, textIdx, tok, fold)
					if textIdx == -1 {
						break scan
					}
					if repeat := indexFrom(value, textIdx+1, tok, fold); repeat >= 0 {
						backtrack = append(backtrack, position{wcsIdx, repeat})
					}
				} else if !regionMatches(value, textIdx, tok, fold) {
					break scan
				}
				textIdx += len(tok)
				anyChars = false
			}
		}
		if wcsIdx == len(tokens) || textIdx == len(value) {
			return true
		}
		if len(backtrack) == 0 {
			return anyChars
		}
	}
}

// splitWildcardTokens splits a pattern into literal runs, "?" and "*"
// (runs of '*' collapsed), as FilenameUtils.splitOnTokens does.
func splitWildcardTokens(pattern string) []string {
	if !hasWildcard(pattern) {
		return []string{pattern}
	}
	var out []string
	var sb strings.Builder
	var prev byte
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c != '?' && c != '*' {
			sb.WriteByte(c)
		} else {
			if sb.Len() > 0 {
				out = append(out, sb.String())
				sb.Reset()
			}
			if c == '?' {
				out = append(out, "?")
			} else if prev != '*' {
				out = append(out, "*")
			}
		}
		prev = c
	}
	if sb.Len() > 0 {
		out = append(out, sb.String())
	}
	return out
}

// indexFrom is IOCase.checkIndexOf: the first index at or after start
// where search occurs in s, or -1.
func indexFrom(s string, start int, search string, fold bool) int {
	for i := start; i+len(search) <= len(s); i++ {
		if regionMatches(s, i, search, fold) {
			return i
		}
	}
	return -1
}

func regionMatches(s string, at int, search string, fold bool) bool {
	if at < 0 || at+len(search) > len(s) {
		return false
	}
	return stringsEqual(s[at:at+len(search)], search, fold)
}

func stringsEqual(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// hasPrefix reports whether s starts with prefix.
func hasPrefix(s, prefix string, fold bool) bool {
	return len(s) >= len(prefix) && stringsEqual(s[:len(prefix)], prefix, fold)
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
