package policy

import (
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// renameColumnIn returns expr, a policy's row filter or mask expression,
// with its references to the column from written as to, and whether it
// referenced from at all.
//
// It works on the scanner's tokens rather than a parse tree, like
// foldSessionFunctions, because policy expressions may use forms the
// grammar refuses (current_user() with parentheses) and because the rest
// of the text must stay as its author wrote it. A column reference is an
// identifier (or a keyword PostgreSQL accepts as a column name) that is
// not a function's name (followed by "("), not part of a qualified name
// (next to "."), and not a type name (after "::"). Text the scanner
// refuses is returned as it is: the binder refuses it too, and the
// policy admits no row.
func renameColumnIn(expr, from, to string) (string, bool) {
	scanned, err := pg_query.Scan(expr)
	if err != nil {
		return expr, false
	}
	toks := scanned.Tokens
	var out strings.Builder
	at, found := 0, false
	for i, t := range toks {
		if !columnNameToken(t) || identValue(expr[t.Start:t.End]) != from {
			continue
		}
		if i+1 < len(toks) && (toks[i+1].Token == pg_query.Token_ASCII_40 || toks[i+1].Token == pg_query.Token_ASCII_46) {
			continue // a function's name, or a qualifier
		}
		if i > 0 && (toks[i-1].Token == pg_query.Token_ASCII_46 || toks[i-1].Token == pg_query.Token_TYPECAST) {
			continue // a qualified name's last part, or a type name
		}
		out.WriteString(expr[at:t.Start])
		out.WriteString(identifier(to))
		at = int(t.End)
		found = true
	}
	if !found {
		return expr, false
	}
	out.WriteString(expr[at:])
	return out.String(), true
}

// columnNameToken reports whether t can name a column: an identifier or
// a keyword that is not reserved for the grammar.
func columnNameToken(t *pg_query.ScanToken) bool {
	switch t.KeywordKind {
	case pg_query.KeywordKind_NO_KEYWORD:
		return t.Token == pg_query.Token_IDENT
	case pg_query.KeywordKind_UNRESERVED_KEYWORD, pg_query.KeywordKind_COL_NAME_KEYWORD:
		return true
	}
	return false
}

// identValue is the name an identifier token stands for: a quoted one
// as written, an unquoted one folded to lower case as PostgreSQL folds
// it.
func identValue(text string) string {
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		return strings.ReplaceAll(text[1:len(text)-1], `""`, `"`)
	}
	return strings.ToLower(text)
}

var plainIdentifier = regexp.MustCompile(`^[a-z_][a-z0-9_$]*$`)

// identifier writes name as SQL, quoted only when it has to be: a name
// with upper case or other characters, or one the scanner reads as a
// keyword.
func identifier(name string) string {
	if plainIdentifier.MatchString(name) {
		if s, err := pg_query.Scan(name); err == nil && len(s.Tokens) == 1 &&
			s.Tokens[0].Token == pg_query.Token_IDENT {
			return name
		}
	}
	return quoteIdent(name)
}
