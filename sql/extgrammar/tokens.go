package extgrammar

import (
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// token is one token of the statement as PostgreSQL's lexer splits it.
type token struct {
	kind    pg_query.Token
	keyword pg_query.KeywordKind
	start   int    // byte offset into the query
	text    string // as written
	eof     bool   // the end of the input, past the last token
}

// scanTokens splits query with pg_query's scanner and drops comments.
func scanTokens(query string) ([]token, error) {
	scanned, err := pg_query.Scan(query)
	if err != nil {
		return nil, err
	}
	toks := make([]token, 0, len(scanned.Tokens))
	for _, t := range scanned.Tokens {
		if t.Token == pg_query.Token_SQL_COMMENT || t.Token == pg_query.Token_C_COMMENT {
			continue
		}
		toks = append(toks, token{
			kind:    t.Token,
			keyword: t.KeywordKind,
			start:   int(t.Start),
			text:    query[t.Start:t.End],
		})
	}
	return toks, nil
}

// is reports whether t is keyword k (keywords are never quoted).
func (t token) is(k pg_query.Token) bool { return !t.eof && t.kind == k }

// quoted reports whether t is a double-quoted identifier.
func (t token) quoted() bool {
	return t.kind == pg_query.Token_IDENT && strings.HasPrefix(t.text, `"`)
}

// isWord reports whether t is the unquoted word w, in any case, for the
// words of this grammar that PostgreSQL does not have as keywords.
func (t token) isWord(w string) bool {
	return t.kind == pg_query.Token_IDENT && !t.quoted() && foldLower(t.text) == w
}

// nameStart reports whether t can begin a name: an identifier, quoted or
// not, or a keyword PostgreSQL does not reserve.
func (t token) nameStart() bool {
	if t.eof {
		return false
	}
	return t.kind == pg_query.Token_IDENT ||
		(t.keyword != pg_query.KeywordKind_NO_KEYWORD && t.keyword != pg_query.KeywordKind_RESERVED_KEYWORD)
}

// label reports whether t can be a name part after a dot, where
// PostgreSQL takes any keyword.
func (t token) label() bool {
	return !t.eof && (t.kind == pg_query.Token_IDENT || t.keyword != pg_query.KeywordKind_NO_KEYWORD)
}

// value is the name t stands for (see foldIdent).
func (t token) value() string { return foldIdent(t.text) }

// parser walks the tokens of one statement.
type parser struct {
	query string
	toks  []token
	at    int
}

// peekAt is the token n places ahead, or the end of input.
func (p *parser) peekAt(n int) token {
	if i := p.at + n; i < len(p.toks) {
		return p.toks[i]
	}
	return token{eof: true, start: len(p.query)}
}

// peek is the current token.
func (p *parser) peek() token { return p.peekAt(0) }

// next consumes and returns the current token.
func (p *parser) next() token {
	t := p.peek()
	if !t.eof {
		p.at++
	}
	return t
}

// accept consumes the current token if it is keyword k.
func (p *parser) accept(k pg_query.Token) bool {
	if p.peek().is(k) {
		p.at++
		return true
	}
	return false
}

// expect consumes keyword k or fails with a syntax error.
func (p *parser) expect(k pg_query.Token) error {
	if !p.accept(k) {
		return p.syntaxError(p.peek())
	}
	return nil
}

// acceptWord consumes the current token if it is the unquoted word w.
func (p *parser) acceptWord(w string) bool {
	if p.peek().isWord(w) {
		p.at++
		return true
	}
	return false
}

// position is t's cursor position as PostgreSQL reports one: 1-based,
// in characters.
func (p *parser) position(t token) int32 {
	return int32(utf8.RuneCountInString(p.query[:t.start]) + 1)
}

// end accepts the end of the statement: optional semicolons, then the
// end of input. Anything else is a syntax error at that token.
func (p *parser) end() error {
	for p.accept(pg_query.Token_ASCII_59) {
	}
	if t := p.peek(); !t.eof {
		return p.syntaxError(t)
	}
	return nil
}
