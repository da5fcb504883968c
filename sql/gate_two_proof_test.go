package sql

import (
	"context"
	"slices"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// TestGateTwoProvenRowFilter: a row filter that the table's file
// statistics prove for every row is not evaluated, and the proof is made
// again for every snapshot a query reads, the caller's own uncommitted
// rows included, so a row the filter does not admit is never shown.
// Whether it was proven does not show in EXPLAIN: that would tell the
// caller whether the table holds rows hidden from it.
func TestGateTwoProvenRowFilter(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "engineer")
	const count = "SELECT count(*) FROM acdemo.orders"
	var explained []string
	steps := []struct {
		s      *Session
		sql    string
		rows   []string
		proven string // "yes" or "no": plan count as s and check the proof
	}{
		{s: carol, sql: "GRANT SELECT, INSERT ON acdemo.orders TO ROLE engineer"},
		{s: carol, sql: "CREATE POLICY not_xx ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region <> 'XX')"},
		{s: bob, proven: "yes"},
		{s: bob, sql: count, rows: []string{"3"}},
		// The caller's own uncommitted row is judged with the rest.
		{s: bob, sql: "BEGIN"},
		{s: bob, sql: "INSERT INTO acdemo.orders (id, region) VALUES (6, 'XX')"},
		{s: bob, proven: "no"},
		{s: bob, sql: count, rows: []string{"3"}},
		{s: bob, sql: "ROLLBACK"},
		{s: bob, proven: "yes"},
		// A committed NULL region and an XX row are never admitted.
		{s: carol, sql: "INSERT INTO acdemo.orders (id, region) VALUES (4, NULL)"},
		{s: bob, proven: "no"},
		{s: bob, sql: "SELECT id FROM acdemo.orders ORDER BY id", rows: []string{"1", "2", "3"}},
		{s: carol, sql: "INSERT INTO acdemo.orders (id, region) VALUES (5, 'XX')"},
		{s: bob, sql: "SELECT count(*), count(region) FROM acdemo.orders", rows: []string{"3|3"}},
		{s: carol, sql: count, rows: []string{"5"}},
	}
	for _, st := range steps {
		who := st.s.identity.User
		if st.proven != "" {
			if got := provenRowFilter(t, st.s, count); got != (st.proven == "yes") {
				t.Errorf("%s: row filter proven %v, want %s", who, got, st.proven)
			}
			plan, _, err := run(t, st.s, "EXPLAIN "+count)
			if err != nil {
				t.Fatal(err)
			}
			explained = append(explained, slices.Concat(plan, []string{"--"})...)
			continue
		}
		rows, _, err := run(t, st.s, st.sql)
		if err != nil {
			t.Errorf("%s: %s: %v", who, st.sql, err)
		} else if st.rows != nil && !slices.Equal(rows, st.rows) {
			t.Errorf("%s: %s: rows %q, want %q", who, st.sql, rows, st.rows)
		}
	}
	first := explained[:slices.Index(explained, "--")+1]
	for i := 0; i < len(explained); i += len(first) {
		if !slices.Equal(explained[i:i+len(first)], first) {
			t.Errorf("EXPLAIN differs between proven and unproven filters:\n%q\n%q", first, explained[i:])
			break
		}
	}
}

// provenRowFilter plans query as s would run it and reports whether its
// plan holds a row filter proven by file statistics.
func provenRowFilter(t *testing.T, s *Session, query string) bool {
	t.Helper()
	return planHolds(t, s, query, func(n planner.Node) bool {
		f, ok := n.(*planner.Filter)
		return ok && f.Proven
	})
}

// planHolds plans the SELECT query as s would run it and reports whether
// any node of its plan satisfies is.
func planHolds(t *testing.T, s *Session, query string, is func(planner.Node) bool) bool {
	t.Helper()
	tree, err := pg_query.Parse(query)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.plan(context.Background(), tree.Stmts[0].Stmt.GetSelectStmt(), query, nil)
	if err != nil {
		t.Fatal(err)
	}
	var found func(planner.Node) bool
	found = func(n planner.Node) bool { return is(n) || slices.ContainsFunc(n.Inputs(), found) }
	return found(p.Root)
}
