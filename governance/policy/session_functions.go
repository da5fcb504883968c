package policy

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// Row-filter expressions may call current_user(), current_role() and
// is_role_in_session('r'), with or without parentheses where PostgreSQL
// has a keyword. They are folded to constants for the session before the
// expression reaches the binder, so one policy serves many principals and
// the folded filter can still prune files. current_role is the session
// user, as PostgreSQL's CURRENT_ROLE is.

// sessionValues are what the session functions fold to.
type sessionValues struct {
	user  string
	roles []string
}

// foldSessionFunctions rewrites expr with the session functions replaced
// by literals. Text the scanner refuses is returned as it is: the binder
// then refuses it too, and the filter admits no row.
func foldSessionFunctions(expr string, v sessionValues) string {
	scanned, err := pg_query.Scan(expr)
	if err != nil {
		return expr
	}
	toks := scanned.Tokens
	var out strings.Builder
	at := 0
	emit := func(from, to int32, replacement string) {
		out.WriteString(expr[at:from])
		out.WriteString(replacement)
		at = int(to)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Token == pg_query.Token_CURRENT_USER || t.Token == pg_query.Token_CURRENT_ROLE ||
			t.Token == pg_query.Token_SESSION_USER || t.Token == pg_query.Token_USER:
			end := t.End
			if i+2 < len(toks) && toks[i+1].Token == pg_query.Token_ASCII_40 && toks[i+2].Token == pg_query.Token_ASCII_41 {
				end = toks[i+2].End
				i += 2
			}
			emit(t.Start, end, quoteLiteral(v.user))
		case t.Token == pg_query.Token_IDENT && strings.EqualFold(expr[t.Start:t.End], "is_role_in_session") &&
			i+3 < len(toks) && toks[i+1].Token == pg_query.Token_ASCII_40 &&
			toks[i+2].Token == pg_query.Token_SCONST && toks[i+3].Token == pg_query.Token_ASCII_41:
			role, ok := unquoteLiteral(expr[toks[i+2].Start:toks[i+2].End])
			if !ok {
				continue
			}
			emit(t.Start, toks[i+3].End, fmt.Sprint(slices.Contains(v.roles, role)))
			i += 3
		}
	}
	out.WriteString(expr[at:])
	return out.String()
}

// quoteLiteral is s as a SQL string literal.
func quoteLiteral(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// unquoteLiteral reads a plain '...' literal; other forms (E”, $$) are
// not folded.
func unquoteLiteral(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return "", false
	}
	return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'"), true
}
