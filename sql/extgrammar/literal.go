package extgrammar

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// stringLiteral reads a string constant and returns its value. Every form
// PostgreSQL's lexer accepts (doubled quotes, E'\n', $$x$$, a constant
// continued on the next line) is decoded by PostgreSQL's own parser, so
// the value is the one PostgreSQL would see; Unicode-escaped strings are
// refused, as Unicode-escaped names are.
func (p *parser) stringLiteral() (string, error) {
	t := p.peek()
	switch {
	case t.is(pg_query.Token_USCONST):
		return "", p.unsupportedToken(t)
	case !t.is(pg_query.Token_SCONST):
		return "", p.syntaxError(t)
	}
	p.next()
	if err := p.checkUTF8(t, t.text); err != nil {
		return "", err
	}
	res, err := pg_query.Parse("SELECT " + t.text)
	if err != nil {
		perr := asParserError(err)
		return "", p.errorAt(t, parserErrorCode(perr), "%s", perr.Message)
	}
	var value *pg_query.String
	if stmts := res.GetStmts(); len(stmts) == 1 {
		if targets := stmts[0].GetStmt().GetSelectStmt().GetTargetList(); len(targets) == 1 {
			value = targets[0].GetResTarget().GetVal().GetAConst().GetSval()
		}
	}
	if value == nil {
		return "", p.syntaxError(t)
	}
	return value.GetSval(), nil
}

// quoteLiteral renders a string as a standard SQL string constant.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
