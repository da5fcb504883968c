package extgrammar

import (
	"errors"
	"strings"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// expression reads one SQL expression and returns its source text: the
// tokens from the current one up to, not including, the first that lies
// outside every parenthesis and bracket and is ')', ']', ';', the end of
// input, or one at which stop reports true. The text runs from the first
// token's start to the last one's end, so spacing and comments inside
// stay as written and a comment after the last token is dropped, and
// the text must parse as one PostgreSQL expression (checkExpression).
// Rows and masks are kept as text because the policy stores keep them so;
// what the expression may refer to is the binder's decision.
func (p *parser) expression(stop func() bool) (string, error) {
	from := p.at
	depth := 0
	for {
		t := p.peek()
		if t.eof || t.is(pg_query.Token_ASCII_59) {
			break
		}
		closing := t.is(pg_query.Token_ASCII_41) || t.is(pg_query.Token_ASCII_93)
		if depth == 0 && (closing || stop()) {
			break
		}
		switch {
		case t.is(pg_query.Token_UIDENT) || t.is(pg_query.Token_USCONST):
			return "", p.unsupportedToken(t)
		case t.is(pg_query.Token_ASCII_40) || t.is(pg_query.Token_ASCII_91):
			depth++
		case closing:
			depth--
		}
		p.next()
	}
	if p.at == from {
		return "", p.syntaxError(p.peek())
	}
	first, last := p.toks[from], p.toks[p.at-1]
	text := p.query[first.start : last.start+len(last.text)]
	if err := p.checkExpression(text, first, p.peek()); err != nil {
		return "", err
	}
	return text, nil
}

// parenExpression reads ( expression ).
func (p *parser) parenExpression() (string, error) {
	if err := p.expect(pg_query.Token_ASCII_40); err != nil {
		return "", err
	}
	text, err := p.expression(func() bool { return false })
	if err != nil {
		return "", err
	}
	return text, p.expect(pg_query.Token_ASCII_41)
}

// exprPrefix wraps an expression for pg_query: inside parentheses, a
// statement list, a FROM clause, an alias or a second column is a syntax
// error, so only one expression (a scalar subquery included) parses.
const exprPrefix = "SELECT ("

// checkExpression checks that text, which begins at token first and is
// followed by token after, parses as one PostgreSQL expression. A syntax
// error is placed where PostgreSQL would place it in the statement: inside
// the text, or at after when the text ends too early.
func (p *parser) checkExpression(text string, first, after token) error {
	if err := p.checkUTF8(first, text); err != nil {
		return err
	}
	err := parseExpression(text)
	if err == nil {
		return nil
	}
	perr := asParserError(err)
	at := int(perr.Cursorpos) - 1 - len(exprPrefix)
	switch {
	case perr.Cursorpos < 1:
		return p.errorAt(first, parserErrorCode(perr), "%s", perr.Message)
	case at >= utf8.RuneCountInString(text):
		return p.syntaxError(after)
	case at < 0:
		at = 0
	}
	return pgerror.New(parserErrorCode(perr), "%s", perr.Message).WithPosition(p.position(first) + int32(at))
}

// parseExpression parses text as one PostgreSQL expression. Policies are
// shared with Hive and Spark, whose filters call current_user() and
// current_role() with parentheses, which PostgreSQL's grammar does not
// allow after those keywords; the parentheses are read as blanks, so
// both spellings parse and every position stays where it was.
func parseExpression(text string) error {
	sql := []byte(exprPrefix + text + ")")
	if scanned, err := pg_query.Scan(string(sql)); err == nil {
		toks := scanned.GetTokens()
		for i := 0; i+2 < len(toks); i++ {
			open, closing := toks[i+1], toks[i+2]
			if sessionRoleKeyword(toks[i].Token) && open.Token == pg_query.Token_ASCII_40 && closing.Token == pg_query.Token_ASCII_41 {
				sql[open.Start], sql[closing.Start] = ' ', ' '
			}
		}
	}
	_, err := pg_query.Parse(string(sql))
	return err
}

// sessionRoleKeyword reports whether k is CURRENT_USER, CURRENT_ROLE,
// SESSION_USER or USER, the keywords that stand for the session's role.
func sessionRoleKeyword(k pg_query.Token) bool {
	switch k {
	case pg_query.Token_CURRENT_USER, pg_query.Token_CURRENT_ROLE, pg_query.Token_SESSION_USER, pg_query.Token_USER:
		return true
	}
	return false
}

// checkUTF8 refuses text that is not UTF-8, at token t, as PostgreSQL
// refuses such bytes in a UTF-8 database.
func (p *parser) checkUTF8(t token, text string) error {
	for i, r := range text {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(text[i:]); size == 1 {
				return p.errorAt(t, pgerror.CharacterNotInRepertoire,
					"invalid byte sequence for encoding \"UTF8\": 0x%02x", text[i])
			}
		}
	}
	return nil
}

// asParserError is err as pg_query's error type, which every error of
// pg_query.Parse is.
func asParserError(err error) *pgparser.Error {
	var perr *pgparser.Error
	if errors.As(err, &perr) {
		return perr
	}
	return &pgparser.Error{Message: err.Error()}
}

// parserErrorCode is the SQLSTATE PostgreSQL gives a parser error, which
// pg_query reports without one: 22021 for bytes that are not UTF-8, 42601
// for everything else the raw parser refuses.
func parserErrorCode(perr *pgparser.Error) string {
	if strings.HasPrefix(perr.Message, "invalid byte sequence") {
		return pgerror.CharacterNotInRepertoire
	}
	return pgerror.SyntaxError
}
