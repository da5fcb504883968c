package keywords

import (
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// TestListMatchesScanner checks every entry, and a few words that are no
// keyword, against the scanner of the parser SQE links.
func TestListMatchesScanner(t *testing.T) {
	want := map[pg_query.KeywordKind]Category{
		pg_query.KeywordKind_NO_KEYWORD:             None,
		pg_query.KeywordKind_UNRESERVED_KEYWORD:     Unreserved,
		pg_query.KeywordKind_COL_NAME_KEYWORD:       ColName,
		pg_query.KeywordKind_TYPE_FUNC_NAME_KEYWORD: TypeFuncName,
		pg_query.KeywordKind_RESERVED_KEYWORD:       Reserved,
	}
	words := []string{"orders", "id", "x1", "customer_name"}
	for w := range list {
		words = append(words, w)
	}
	for _, w := range words {
		res, err := pg_query.Scan(w)
		if err != nil || len(res.Tokens) != 1 {
			t.Errorf("%q does not scan as one token: %v", w, err)
			continue
		}
		if got, scanned := Of(w), want[res.Tokens[0].KeywordKind]; got != scanned {
			t.Errorf("Of(%q) = %d, the scanner says %d", w, got, scanned)
		}
	}
}
