package sql

import (
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Access-control statements (GRANT / REVOKE / DENY, roles, SHOW GRANTS,
// CHECK ACCESS) have a grammar of their own (package extgrammar); every
// other statement goes to PostgreSQL's. A query string may mix both, so
// it is split at the semicolons its tokens hold, each piece offered to the
// extension grammar, and the pieces it claims blanked out before the rest
// is parsed as PostgreSQL would: their locations then stay the client's.

// extPiece is a statement of the extension grammar within a query string.
type extPiece struct {
	start, end int // byte offsets in the query
	stmt       extgrammar.Statement
}

// mayHoldExtension is a cheap test that lets a query without any of the
// statements' first words skip the split.
func mayHoldExtension(query string) bool {
	q := strings.ToLower(query)
	for _, w := range []string{"grant", "revoke", "deny", "show", "check", "role", "user", "group"} {
		if strings.Contains(q, w) {
			return true
		}
	}
	return false
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
