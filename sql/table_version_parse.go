package sql

import (
	"regexp"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Time travel is written as Trino writes it, after a table name in FROM:
//
//	SELECT * FROM acdemo.orders FOR VERSION AS OF 8744736658442914487 o
//	SELECT * FROM acdemo.orders FOR VERSION AS OF 'release_1'
//	SELECT * FROM acdemo.orders FOR TIMESTAMP AS OF TIMESTAMP '2026-12-01 10:00:00 UTC'
//
// with FOR SYSTEM_TIME AS OF (SQL:2011) taken for FOR TIMESTAMP AS OF and
// FOR SYSTEM_VERSION AS OF for FOR VERSION AS OF. PostgreSQL's grammar has
// no such clause, so before the text reaches its parser each clause is
// found with PostgreSQL's own lexer, remembered by the location of the
// table name it follows (where the parser puts the RangeVar) and replaced
// by spaces, so that every other location stays where the client wrote
// it. The clause's expression is evaluated when the statement runs.

// versionClause is one FOR ... AS OF clause of a query.
type versionClause struct {
	// relation is the byte offset of the table name the clause follows.
	relation int
	// byTime: FOR TIMESTAMP AS OF (else FOR VERSION AS OF).
	byTime bool
	// start and end delimit the whole clause, exprStart the expression.
	start, exprStart, end int
	// params are the statement parameters ($n) the expression uses: it
	// is then evaluated at each execution of a prepared statement.
	params []int32
}

// mayHoldVersionClause is a cheap test that spares the lexer for the
// queries that cannot hold a clause.
var mayHoldVersionClause = regexp.MustCompile(`(?i)\bas\s+of\b`)

// findVersionClauses returns the query's FOR ... AS OF clauses in text
// order.
func findVersionClauses(query string) ([]versionClause, error) {
	if !mayHoldVersionClause.MatchString(query) {
		return nil, nil
	}
	scan, err := pg_query.Scan(query)
	if err != nil {
		return nil, nil // PostgreSQL's parser reports it
	}
	var toks []*pg_query.ScanToken
	for _, t := range scan.Tokens {
		if t.Token != pg_query.Token_SQL_COMMENT && t.Token != pg_query.Token_C_COMMENT {
			toks = append(toks, t)
		}
	}
	var out []versionClause
	for i := 0; i+3 < len(toks); i++ {
		byTime, ok := versionClauseAt(query, toks, i)
		if !ok {
			continue
		}
		rel, ok := relationBefore(toks, i)
		if !ok {
			return nil, pgerror.New(pgerror.SyntaxError, "FOR %s AS OF must follow a table name, before its alias", strings.ToUpper(tokenText(query, toks[i+1]))).
				WithPosition(positionOf(query, toks[i].Start))
		}
		exprFrom := i + 4
		exprTo := expressionEnd(toks, exprFrom)
		if exprTo == exprFrom {
			at := len(query)
			if exprFrom < len(toks) {
				at = int(toks[exprFrom].Start)
			}
			return nil, pgerror.New(pgerror.SyntaxError, "FOR %s AS OF needs a value", strings.ToUpper(tokenText(query, toks[i+1]))).
				WithPosition(positionOf(query, int32(at)))
		}
		var params []int32
		for _, t := range toks[exprFrom:exprTo] {
			if t.Token != pg_query.Token_PARAM {
				continue
			}
			if n, err := strconv.ParseInt(tokenText(query, t)[1:], 10, 32); err == nil {
				params = append(params, int32(n))
			}
		}
		out = append(out, versionClause{
			relation:  rel,
			byTime:    byTime,
			start:     int(toks[i].Start),
			exprStart: int(toks[exprFrom].Start),
			end:       int(toks[exprTo-1].End),
			params:    params,
		})
		i = exprTo - 1
	}
	return out, nil
}

// versionClauseAt reports whether toks[i:] starts FOR <kind> AS OF, and
// whether kind reads by time.
func versionClauseAt(query string, toks []*pg_query.ScanToken, i int) (byTime, ok bool) {
	if toks[i].Token != pg_query.Token_FOR || toks[i+2].Token != pg_query.Token_AS || toks[i+3].Token != pg_query.Token_OF {
		return false, false
	}
	switch k := toks[i+1]; {
	case k.Token == pg_query.Token_VERSION_P:
		return false, true
	case k.Token == pg_query.Token_TIMESTAMP:
		return true, true
	case k.Token == pg_query.Token_IDENT && strings.EqualFold(tokenText(query, k), "system_time"):
		return true, true
	case k.Token == pg_query.Token_IDENT && strings.EqualFold(tokenText(query, k), "system_version"):
		return false, true
	}
	return false, false
}

// relationBefore finds the start of the (possibly qualified) name that
// ends just before toks[i].
func relationBefore(toks []*pg_query.ScanToken, i int) (int, bool) {
	j := i - 1
	if j < 0 || !nameToken(toks[j]) {
		return 0, false
	}
	for j >= 2 && toks[j-1].Token == pg_query.Token_ASCII_46 && nameToken(toks[j-2]) {
		j -= 2
	}
	// A name after another name or AS is the table's alias: the clause
	// goes between the table's name and its alias.
	if j > 0 && (nameToken(toks[j-1]) || toks[j-1].Token == pg_query.Token_AS) {
		return 0, false
	}
	return int(toks[j].Start), true
}

// nameToken reports whether t can be a part of a table name: an
// identifier or a keyword (PostgreSQL takes keywords after a dot, and
// unreserved ones anywhere).
func nameToken(t *pg_query.ScanToken) bool {
	return t.Token == pg_query.Token_IDENT || t.KeywordKind == pg_query.KeywordKind_UNRESERVED_KEYWORD ||
		t.KeywordKind == pg_query.KeywordKind_COL_NAME_KEYWORD || t.KeywordKind == pg_query.KeywordKind_TYPE_FUNC_NAME_KEYWORD
}

// expressionEnd returns the index just past the clause's expression,
// which starts at toks[from]: it ends, outside parentheses, at a comma, a
// closing parenthesis, a semicolon, AS, a reserved keyword that can follow
// a table reference, or an identifier right after a complete operand
// (the table's alias).
func expressionEnd(toks []*pg_query.ScanToken, from int) int {
	depth := 0
	for k := from; k < len(toks); k++ {
		t := toks[k]
		switch t.Token {
		case pg_query.Token_ASCII_40, pg_query.Token_ASCII_91:
			depth++
			continue
		case pg_query.Token_ASCII_41, pg_query.Token_ASCII_93:
			if depth == 0 {
				return k
			}
			depth--
			continue
		}
		if depth > 0 {
			continue
		}
		switch t.Token {
		case pg_query.Token_ASCII_44, pg_query.Token_ASCII_59, pg_query.Token_AS:
			return k
		case pg_query.Token_IDENT:
			if k > from && operandEnd(toks[k-1]) {
				return k
			}
			continue
		}
		if k > from && t.KeywordKind == pg_query.KeywordKind_RESERVED_KEYWORD && endsTableReference(t.Token) {
			return k
		}
		if k > from && t.KeywordKind == pg_query.KeywordKind_TYPE_FUNC_NAME_KEYWORD && endsTableReference(t.Token) {
			return k
		}
	}
	return len(toks)
}

// operandEnd reports whether an expression can end with t.
func operandEnd(t *pg_query.ScanToken) bool {
	switch t.Token {
	case pg_query.Token_IDENT, pg_query.Token_SCONST, pg_query.Token_ICONST, pg_query.Token_FCONST,
		pg_query.Token_PARAM, pg_query.Token_ASCII_41, pg_query.Token_ASCII_93:
		return true
	}
	return t.KeywordKind != pg_query.KeywordKind_NO_KEYWORD
}

// endsTableReference lists the keywords that may follow a table reference
// in FROM, and so end a version clause's expression.
func endsTableReference(k pg_query.Token) bool {
	switch k {
	case pg_query.Token_WHERE, pg_query.Token_JOIN, pg_query.Token_INNER_P, pg_query.Token_LEFT, pg_query.Token_RIGHT,
		pg_query.Token_FULL, pg_query.Token_CROSS, pg_query.Token_NATURAL, pg_query.Token_ON, pg_query.Token_USING,
		pg_query.Token_GROUP_P, pg_query.Token_ORDER, pg_query.Token_LIMIT, pg_query.Token_OFFSET, pg_query.Token_HAVING,
		pg_query.Token_WINDOW, pg_query.Token_UNION, pg_query.Token_INTERSECT, pg_query.Token_EXCEPT, pg_query.Token_FETCH,
		pg_query.Token_FOR, pg_query.Token_TABLESAMPLE, pg_query.Token_RETURNING, pg_query.Token_INTO, pg_query.Token_SET,
		pg_query.Token_LATERAL_P:
		return true
	}
	return false
}

func tokenText(query string, t *pg_query.ScanToken) string { return query[t.Start:t.End] }

// blankVersionClauses replaces each clause by spaces (newlines kept), so
// that PostgreSQL's parser sees the bare table reference.
func blankVersionClauses(query string, clauses []versionClause) string {
	b := []byte(query)
	for _, c := range clauses {
		for i := c.start; i < c.end; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}
