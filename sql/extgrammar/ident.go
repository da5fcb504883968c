package extgrammar

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sqe-db/sqe/sql/keywords"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// checkName refuses a name the grants backends cannot carry: names become
// values of a policy's resource map and of REST paths, so an empty name,
// one with / ? # % or \, whitespace, a control character or bytes that
// are not UTF-8 would address something other than what was written.
func checkName(name string) *pgerror.Error {
	if name == "" {
		return pgerror.New(pgerror.InvalidName, `invalid name "": a name may not be empty`)
	}
	for _, r := range name {
		bad := unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`/?#%\`, r)
		if bad || !utf8.ValidString(name) {
			return pgerror.New(pgerror.InvalidName,
				"invalid name \"%s\": a name may not contain / ? # %% \\, whitespace or control characters",
				printable(name))
		}
	}
	return nil
}

// printable renders a name for an error message: control characters and
// bytes that are not UTF-8 escaped, everything else as written.
func printable(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", name[i])
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// checkRoleName refuses the names PostgreSQL reserves for roles: public
// and none, whichever way they are quoted.
func checkRoleName(name string) *pgerror.Error {
	if name == "public" || name == "none" {
		return pgerror.New(reservedName, "role name \"%s\" is reserved", name)
	}
	return nil
}

// checkNewRoleName adds, for a role being created, PostgreSQL's reserved
// prefix pg_.
func checkNewRoleName(name string) *pgerror.Error {
	if err := checkRoleName(name); err != nil {
		return err
	}
	if strings.HasPrefix(name, "pg_") {
		return pgerror.New(reservedName, "role name \"%s\" is reserved", name).
			WithDetail(`Role names starting with "pg_" are reserved.`)
	}
	return nil
}

// quoteIdent renders a name so that it reads back as itself: bare when it
// is a plain lower-case word that is not a keyword, quoted otherwise.
func quoteIdent(name string) string {
	if !needsQuotes(name) {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// needsQuotes reports whether a name would not read back as itself
// unquoted: it is not a plain word, or it is a PostgreSQL keyword, or a
// word this grammar gives a meaning in some position.
func needsQuotes(name string) bool {
	if !plainWord(name) || grammarWord(name) {
		return true
	}
	return keywords.Of(name) != keywords.None
}

// plainWord reports whether s is a lower-case letter or underscore
// followed by lower-case letters, digits and underscores.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c == '_':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// grammarWord reports whether a word that PostgreSQL does not reserve has
// a meaning in this grammar.
func grammarWord(s string) bool {
	switch s {
	case "deny", "grants", "effective", "future", "modify", "usage", "public":
		return true
	}
	return false
}

// foldIdent is the value of an identifier token as written: a quoted one
// without its quotes (a doubled quote is one), any other one with ASCII
// letters folded to lower case, as PostgreSQL folds them.
func foldIdent(text string) string {
	if len(text) >= 2 && text[0] == '"' {
		return strings.ReplaceAll(text[1:len(text)-1], `""`, `"`)
	}
	return foldLower(text)
}

// foldLower lower-cases ASCII letters only: PostgreSQL leaves other
// letters of an unquoted identifier alone in a UTF-8 database.
func foldLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// checkColumnName refuses a column name that is empty, holds a control
// character or is not UTF-8. Columns are matched by name inside one table
// and never appear in a path, so, unlike other names, they may hold
// spaces and punctuation as PostgreSQL and Iceberg allow: a column that
// could not be named here could not be masked or tagged either.
func checkColumnName(name string) *pgerror.Error {
	if name == "" {
		return pgerror.New(pgerror.InvalidName, `invalid column name "": a name may not be empty`)
	}
	if hasControl(name) {
		return pgerror.New(pgerror.InvalidName,
			"invalid column name \"%s\": a name may not contain control characters", printable(name))
	}
	return nil
}

// checkTag refuses a tag that is empty, holds a control character or is
// not UTF-8. Tags keep their case: 'PII' and 'pii' are two tags.
func checkTag(tag string) *pgerror.Error {
	if tag == "" {
		return pgerror.New(pgerror.InvalidName, `invalid tag "": a tag may not be empty`)
	}
	if hasControl(tag) {
		return pgerror.New(pgerror.InvalidName,
			"invalid tag \"%s\": a tag may not contain control characters", printable(tag))
	}
	return nil
}

// hasControl reports whether s holds a control character or bytes that
// are not UTF-8.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}
