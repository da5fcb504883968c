package sql

import (
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Access-control statements (GRANT / REVOKE / DENY, roles, SHOW GRANTS,
// CHECK ACCESS, policies and column tags) have a grammar of their own (package extgrammar); every
// other statement goes to PostgreSQL's. A query string may mix both, so
// it is split at the semicolons its tokens hold, each piece offered to the
// extension grammar, and the pieces it claims blanked out before the rest
// is parsed as PostgreSQL would: their locations then stay the client's.

// extPiece is a statement of the extension grammar within a query string.
type extPiece struct {
	start, end int // byte offsets in the query
	stmt       extgrammar.Statement
}

// mayHoldExtension is a cheap test, run on every query, that lets one
// none of whose statements begins with an extension statement's first
// word skip the split (a scan of the whole query). It looks at the first
// word of the query and after each semicolon, skipping blanks and
// comments; a semicolon inside a literal or comment can only send a
// query down the slower path, never keep a statement from it.
func mayHoldExtension(query string) bool {
	for start := 0; start < len(query); {
		if extensionVerb(firstWord(query[start:])) {
			return true
		}
		i := strings.IndexByte(query[start:], ';')
		if i < 0 {
			return false
		}
		start += i + 1
	}
	return false
}

// extensionVerb reports the words an extension statement can begin with.
func extensionVerb(w string) bool {
	for _, v := range []string{"grant", "revoke", "deny", "show", "check", "create", "drop", "alter"} {
		if strings.EqualFold(w, v) {
			return true
		}
	}
	return false
}

// firstWord is the leading word of s after blanks and SQL comments.
func firstWord(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f")
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			end := 0
			for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z') {
				end++
			}
			return s[:end]
		}
	}
}

// parseExtensions finds the pieces of query the extension grammar claims.
// An error is the extension parser's, positioned in the whole query.
func parseExtensions(query string) ([]extPiece, error) {
	if !mayHoldExtension(query) {
		return nil, nil
	}
	scan, err := pg_query.Scan(query)
	if err != nil {
		return nil, nil // PostgreSQL's parser reports it
	}
	var pieces []extPiece
	start := 0
	flush := func(end int) error {
		text := query[start:end]
		if strings.TrimSpace(text) == "" {
			return nil
		}
		stmt, ok, err := extgrammar.Parse(text)
		if !ok {
			return nil
		}
		if err != nil {
			if pe, isPG := err.(*pgerror.Error); isPG && pe.Position > 0 {
				return pe.WithPosition(pe.Position + int32(utf8.RuneCountInString(query[:start])))
			}
			return err
		}
		pieces = append(pieces, extPiece{start: start, end: end, stmt: stmt})
		return nil
	}
	for _, tok := range scan.Tokens {
		if tok.Token == pg_query.Token_ASCII_59 {
			if err := flush(int(tok.End)); err != nil {
				return nil, err
			}
			start = int(tok.End)
		}
	}
	if err := flush(len(query)); err != nil {
		return nil, err
	}
	return pieces, nil
}

// blankPieces replaces each piece (its terminating semicolon kept) by
// spaces, so that PostgreSQL's parser sees an empty statement there and
// every other location is unchanged.
func blankPieces(query string, pieces []extPiece) string {
	b := []byte(query)
	for _, p := range pieces {
		for i := p.start; i < p.end; i++ {
			if b[i] != ';' && b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}
