package exec

import (
	"strings"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// maxIdentifierBytes is PostgreSQL's NAMEDATALEN - 1: the length an
// unquoted identifier is truncated to.
const maxIdentifierBytes = 63

// ParseIdent splits a qualified identifier (schema.table, "My Schema".t)
// into its parts as PostgreSQL's parse_ident does: unquoted parts are
// folded to lower case and truncated to 63 bytes, quoted parts keep their
// spelling with "" read as ". With strict, anything after the last
// identifier is an error; without, it is ignored. Malformed input is
// 22023 with PostgreSQL's message and detail.
func ParseIdent(s string, strict bool) ([]string, error) {
	invalid := func(detail string) error {
		e := pgerror.New(pgerror.InvalidParameterValue, "string is not a valid identifier: \"%s\"", s)
		if detail != "" {
			e = e.WithDetail("%s", detail)
		}
		return e
	}
	var parts []string
	i := skipIdentSpace(s, 0)
	afterDot := false
	for {
		missing := true
		switch {
		case i < len(s) && s[i] == '"':
			var b strings.Builder
			j := i + 1
			for {
				end := strings.IndexByte(s[j:], '"')
				if end < 0 {
					return nil, invalid("String has unclosed double quotes.")
				}
				b.WriteString(s[j : j+end])
				j += end + 1
				if j < len(s) && s[j] == '"' {
					b.WriteByte('"')
					j++
					continue
				}
				break
			}
			if b.Len() == 0 {
				return nil, invalid("Quoted identifier must not be empty.")
			}
			parts = append(parts, b.String())
			i, missing = j, false
		case i < len(s) && isIdentStart(s[i]):
			j := i + 1
			for j < len(s) && isIdentCont(s[j]) {
				j++
			}
			parts = append(parts, foldIdentifier(s[i:j]))
			i, missing = j, false
		}
		if missing {
			switch {
			case i < len(s) && s[i] == '.':
				return nil, invalid("No valid identifier before \".\".")
			case afterDot:
				return nil, invalid("No valid identifier after \".\".")
			}
			return nil, invalid("")
		}
		i = skipIdentSpace(s, i)
		switch {
		case i < len(s) && s[i] == '.':
			afterDot = true
			i = skipIdentSpace(s, i+1)
			continue
		case i < len(s) && strict:
			return nil, invalid("")
		}
		return parts, nil
	}
}

// foldIdentifier lower-cases the ASCII letters of an unquoted identifier
// and truncates it to maxIdentifierBytes without splitting a character,
// as PostgreSQL's downcase_truncate_identifier does in UTF-8.
func foldIdentifier(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	if len(b) > maxIdentifierBytes {
		n := maxIdentifierBytes
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		b = b[:n]
	}
	return string(b)
}

// isIdentStart and isIdentCont are the scanner's identifier characters:
// letters, underscore and any non-ASCII byte; digits and $ after the first.
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentCont(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }

// skipIdentSpace skips the scanner's white space from i.
func skipIdentSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(" \t\n\r\f\v", s[i]) >= 0 {
		i++
	}
	return i
}
