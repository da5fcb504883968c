package sql

import (
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestQuoteCallArgNames(t *testing.T) {
	tests := []struct {
		name, in, want string // want "" means left alone
	}{
		{"reserved word", "CALL system.rewrite_data_files(table => 'a.b')", `CALL system.rewrite_data_files("table" => 'a.b')`},
		{"upper case, no spaces", "call system.x(TABLE=>'t')", `call system.x("table"=>'t')`},
		{"second argument", "CALL system.x(retain_last => 1, table => 't')", `CALL system.x(retain_last => 1, "table" => 't')`},
		{"colon-equals", "CALL system.x(table := 't')", `CALL system.x("table" := 't')`},
		{"column-name keyword", "CALL system.x(table => 't', values => 1)", `CALL system.x("table" => 't', "values" => 1)`},
		{"comments between", "CALL system.x(/* c */ table -- d\n => 't')", "CALL system.x(/* c */ \"table\" -- d\n => 't')"},
		{"only the CALL of several", "SELECT 'table => 1'; CALL system.x(table => 't'); SELECT 1", `SELECT 'table => 1'; CALL system.x("table" => 't'); SELECT 1`},
		{"inside a string literal", "CALL system.x('table => 1')", ""},
		{"inside a dollar-quoted string", "CALL system.x($$table => 1$$)", ""},
		{"inside a quoted identifier", `CALL system.x("table" => 1)`, ""},
		{"not a CALL", "SELECT f(table => 1)", ""},
		{"plain identifier", "CALL system.x(retain_last => 1)", ""},
		{"unreserved keyword", "CALL system.x(options => 1)", ""},
		{"not an argument name", "CALL system.x(t.table => 1)", ""},
		{"keyword as a value", "CALL system.x(a => table)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, ok := quoteCallArgNames(tt.in)
			if tt.want == "" {
				if ok {
					t.Fatalf("changed to %q, want it left alone", q.text)
				}
				return
			}
			if !ok || q.text != tt.want {
				t.Fatalf("got %q (%v), want %q", q.text, ok, tt.want)
			}
		})
	}
}

// TestParseQueryKeepsClientPositions checks that statements and locations
// of a query whose CALL was quoted refer to the text the client sent.
func TestParseQueryKeepsClientPositions(t *testing.T) {
	s := newTestSession(t)
	query := "CALL system.rewrite_data_files(table => 'acdemo.orders');\nSELECT nope FROM acdemo.orders"
	stmts, err := s.Parse(t.Context(), query)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) != 2 || stmts[0].SQL != "CALL system.rewrite_data_files(table => 'acdemo.orders')" ||
		stmts[1].SQL != "SELECT nope FROM acdemo.orders" || stmts[1].Offset != strings.Index(query, ";")+1 {
		t.Fatalf("statements %q", []string{stmts[0].SQL, stmts[1].SQL})
	}
	named := stmts[0].node.raw.GetCallStmt().Funccall.Args[0].GetNamedArgExpr()
	if named.Name != "table" || named.Location != int32(strings.Index(query, "table")) {
		t.Errorf("argument %q at %d", named.Name, named.Location)
	}
	_, err = s.Execute(t.Context(), stmts[1])
	if pe := pgerror.From(err); pe.Code != pgerror.UndefinedColumn || pe.Position != int32(strings.Index(query, "nope")+1) {
		t.Errorf("error %v at %d, want 42703 at %d", err, pe.Position, strings.Index(query, "nope")+1)
	}

	// A syntax error elsewhere in such a query points into the client's text.
	bad := "CALL system.expire_snapshots(table => 'é', older_than => )"
	_, err = s.Parse(t.Context(), bad)
	if pe := pgerror.From(err); pe.Code != pgerror.SyntaxError || pe.Position != int32(len([]rune(bad))) {
		t.Errorf("syntax error %v at %d, want 42601 at %d", err, pe.Position, len([]rune(bad)))
	}
}
