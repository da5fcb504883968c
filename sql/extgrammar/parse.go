package extgrammar

import (
	"errors"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Parse reads one statement (a trailing semicolon is allowed; split a
// query of several statements first, e.g. with pg_query.SplitWithScanner,
// and add the piece's offset to an error's Position).
//
// ok is false when query is not an extension statement: the caller parses
// it with pg_query. When ok is true, exactly one of the statement and the
// error is non-nil; the error is a *pgerror.Error with a SQLSTATE and a
// Position (1-based, in characters, as PostgreSQL reports it): 42601 for
// malformed text, 0A000 for a form SQE does not implement, 42602 for a
// name the grants backends cannot carry, 42939 for a reserved role name,
// 42701 and 42710 for a column or tag listed twice, 22021 for a string
// that is not UTF-8.
func Parse(query string) (Statement, bool, error) {
	toks, err := scanTokens(query)
	if err != nil {
		return parseUnscannable(query, err)
	}
	p := &parser{query: query, toks: toks}
	rule := p.detect()
	if rule == nil {
		return nil, false, nil
	}
	stmt, err := rule()
	if err == nil {
		err = p.end()
	}
	if err != nil {
		return nil, true, err
	}
	return stmt, true, nil
}

// detect returns the rule for the statement the first words begin, or nil
// when they begin none of this grammar's statements.
func (p *parser) detect() func() (Statement, error) {
	t, next := p.peek(), p.peekAt(1)
	switch {
	case t.is(pg_query.Token_GRANT):
		return p.grant
	case t.is(pg_query.Token_REVOKE):
		return p.revoke
	case t.isWord("deny"):
		return p.deny
	case t.is(pg_query.Token_SHOW) && (next.isWord("grants") || next.isWord("effective")):
		return p.show
	case t.is(pg_query.Token_SHOW) && (next.is(pg_query.Token_SCHEMAS) || next.is(pg_query.Token_TABLES)):
		return p.showObjects
	case t.is(pg_query.Token_CHECK) && next.is(pg_query.Token_ACCESS):
		return p.checkAccess
	// SHOW access alone (and SHOW access.x) is PostgreSQL's setting lookup.
	case t.is(pg_query.Token_SHOW) && next.is(pg_query.Token_ACCESS) && p.peekAt(2).is(pg_query.Token_ON):
		return p.showAccess
	case t.is(pg_query.Token_CREATE) && p.roleLike(1):
		return p.createRole
	case t.is(pg_query.Token_DROP) && p.roleLike(1):
		return p.dropRole
	case t.is(pg_query.Token_CREATE) && p.createPolicyLike():
		return p.createPolicy
	case t.is(pg_query.Token_DROP) && p.dropPolicyLike():
		return p.dropPolicy
	// SHOW policies.x and SHOW tags.x name custom settings: PostgreSQL's.
	case t.is(pg_query.Token_SHOW) && next.isWord("policies") && !p.peekAt(2).is(pg_query.Token_ASCII_46):
		return p.showPolicies
	case t.is(pg_query.Token_SHOW) && next.isWord("tags") && !p.peekAt(2).is(pg_query.Token_ASCII_46):
		return p.showTags
	case t.is(pg_query.Token_ALTER) && p.alterTableTags():
		return p.alterTable
	case t.is(pg_query.Token_ALTER) && p.alterTableSortOrder():
		return p.setSortOrder
	}
	return nil
}

// roleLike reports whether the token n places ahead is ROLE, USER or
// GROUP, the objects of the role statements (USER MAPPING is not one).
func (p *parser) roleLike(n int) bool {
	t := p.peekAt(n)
	if t.is(pg_query.Token_USER) {
		return !p.peekAt(n + 1).is(pg_query.Token_MAPPING)
	}
	return t.is(pg_query.Token_ROLE) || t.is(pg_query.Token_GROUP_P)
}

// parseUnscannable handles text PostgreSQL's lexer refuses (an
// unterminated quote, a zero-length quoted name). When the tokens before
// the fault begin an extension statement, the lexer's error is that
// statement's, with PostgreSQL's message and cursor; otherwise the text is
// left to pg_query, which reports the same fault.
func parseUnscannable(query string, scanErr error) (Statement, bool, error) {
	var perr *pgparser.Error
	if !errors.As(scanErr, &perr) || perr.Cursorpos < 1 {
		return nil, false, nil
	}
	toks, err := scanTokens(query[:byteOffset(query, perr.Cursorpos-1)])
	if err != nil {
		return nil, false, nil
	}
	p := &parser{query: query, toks: toks}
	if p.detect() == nil {
		return nil, false, nil
	}
	return nil, true, pgerror.New(pgerror.SyntaxError, "%s", perr.Message).WithPosition(int32(perr.Cursorpos))
}

// byteOffset is the byte offset of the chars-th character of s (or its
// length when s is shorter).
func byteOffset(s string, chars int) int {
	at := 0
	for ; chars > 0 && at < len(s); chars-- {
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return at
}
