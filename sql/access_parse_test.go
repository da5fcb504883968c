package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// A query string may mix access-control statements with PostgreSQL's:
// they come out in order, each with its own text, and an error in an
// access-control statement points into the whole string.
func TestParseMixesAccessStatements(t *testing.T) {
	s := &Session{}
	stmts, err := s.Parse(t.Context(), "SELECT 1; GRANT SELECT ON a.b.c TO ROLE r; SELECT 2; SHOW GRANTS")
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		sql string
		ext bool
	}{{"SELECT 1", false}, {"GRANT SELECT ON a.b.c TO ROLE r", true}, {"SELECT 2", false}, {"SHOW GRANTS", true}}
	if len(stmts) != len(want) {
		t.Fatalf("%d statements, want %d", len(stmts), len(want))
	}
	for i, w := range want {
		if stmts[i].SQL != w.sql || (stmts[i].ext != nil) != w.ext {
			t.Errorf("statement %d: %q (extension %v), want %q (%v)", i, stmts[i].SQL, stmts[i].ext != nil, w.sql, w.ext)
		}
	}
	_, err = s.Parse(t.Context(), "SELECT 1; GRANT SELECT ON TO ROLE r")
	pe := pgerror.From(err)
	if pe == nil || pe.Code != pgerror.SyntaxError || pe.Position != 27 {
		t.Fatalf("error %v, want 42601 at 27", err)
	}
	// A query without any of the words is parsed as before.
	if stmts, err := s.Parse(t.Context(), "select 42"); err != nil || len(stmts) != 1 || stmts[0].ext != nil {
		t.Fatalf("plain query: %v, %v", stmts, err)
	}
}

func TestMayHoldExtension(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT region, count(*) FROM t GROUP BY region": false,
		"select current_user":                            false,
		"SELECT 1; GRANT SELECT ON a.b.c TO ROLE r":      true,
		"  -- a comment\n/* another */ revoke x":         true,
		"show grants":                                    true,
		"ALTER TABLE t SET TAGS (c = ('PII'))":           true,
		"SELECT ';'; SELECT 2":                           false,
		"":                                               false,
	} {
		if got := mayHoldExtension(q); got != want {
			t.Errorf("mayHoldExtension(%q) = %v, want %v", q, got, want)
		}
	}
}
