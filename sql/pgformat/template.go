package pgformat

import "unicode/utf8"

// nodeKind classifies one element of a compiled template.
type nodeKind uint8

const (
	nodeAction    nodeKind = iota + 1 // a pattern keyword
	nodeChar                          // literal text, printed as is
	nodeSeparator                     // ASCII punctuation (date/time templates only)
	nodeSpace                         // white space
)

// Modifier bits attached to a date/time pattern.
const (
	sufFM uint8 = 1 << iota // fill mode: no padding
	sufTM                   // translation mode: localized names, no padding
	sufTH                   // upper-case ordinal suffix
	sufth                   // lower-case ordinal suffix
	sufSP                   // spell mode: accepted and ignored, as in PostgreSQL
)

// literalNode splits one character (or an escaped quote) off the front of
// s outside double quotes and returns its node and the remaining text.
func literalNode(s string, separators bool) (kind nodeKind, text, rest string) {
	// Outside quotes a backslash is only special before a double quote.
	if len(s) >= 2 && s[0] == '\\' && s[1] == '"' {
		s = s[1:]
	}
	n := runeLen(s)
	c := s[0]
	switch {
	case separators && isSeparatorChar(c):
		kind = nodeSeparator
	case isSpace(c):
		kind = nodeSpace
	default:
		kind = nodeChar
	}
	return kind, s[:n], s[n:]
}

// quotedNodes appends one literal node per character of a double-quoted
// section starting after the opening quote, and returns the text after
// the closing quote. A backslash quotes the following character.
func quotedNodes(s string, add func(text string)) string {
	for len(s) > 0 {
		if s[0] == '"' {
			return s[1:]
		}
		if s[0] == '\\' && len(s) > 1 {
			s = s[1:]
		}
		n := runeLen(s)
		add(s[:n])
		s = s[n:]
	}
	return s
}

func runeLen(s string) int {
	_, n := utf8.DecodeRuneInString(s)
	if n < 1 {
		n = 1
	}
	return n
}

// isSeparatorChar is PostgreSQL's is_separator_char: printable ASCII that
// is neither a letter nor a digit.
func isSeparatorChar(c byte) bool {
	return c > 0x20 && c < 0x7f && !isAlpha(c) && !isDigit(c)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
