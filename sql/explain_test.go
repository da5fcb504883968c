package sql

import (
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

func TestExplainCostsOption(t *testing.T) {
	tests := []struct {
		query string
		want  bool
	}{
		{"EXPLAIN SELECT 1", true},
		{"EXPLAIN (COSTS) SELECT 1", true},
		{"EXPLAIN (COSTS ON) SELECT 1", true},
		{"EXPLAIN (COSTS true) SELECT 1", true},
		{"EXPLAIN (COSTS OFF) SELECT 1", false},
		{"EXPLAIN (COSTS false) SELECT 1", false},
		{"EXPLAIN (COSTS 0) SELECT 1", false},
		{"EXPLAIN (VERBOSE, COSTS OFF) SELECT 1", false},
	}
	for _, tc := range tests {
		tree, err := pg_query.Parse(tc.query)
		if err != nil {
			t.Fatalf("parse %q: %v", tc.query, err)
		}
		ex := tree.Stmts[0].Stmt.GetExplainStmt()
		if got := explainCosts(ex.Options); got != tc.want {
			t.Errorf("%s: costs = %v, want %v", tc.query, got, tc.want)
		}
	}
}

func TestExplainAnalyzeRunsAndMeasures(t *testing.T) {
	s := newTestSession(t)
	rows, _, err := run(t, s, "EXPLAIN ANALYZE SELECT g % 3 AS k, count(*) FROM generate_series(1, 1000) g GROUP BY 1 ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(rows, "\n")
	for _, want := range []string{"rows=3 loops=1", "rows=1000 loops=1", "actual time=", "(cost=", "Planning Time: ", "Execution Time: "} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN ANALYZE output lacks %q:\n%s", want, text)
		}
	}
	rows, _, err = run(t, s, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT x, y FROM (VALUES (1), (2)) a(x), LATERAL (SELECT x * 10 AS y) b")
	if err != nil {
		t.Fatal(err)
	}
	text = strings.Join(rows, "\n")
	if strings.Contains(text, "cost=") || strings.Contains(text, "actual time") || !strings.Contains(text, "loops=2") {
		t.Errorf("COSTS OFF, TIMING OFF, and a subquery run per row:\n%s", text)
	}
	// EXPLAIN ANALYZE runs the query: its errors are the query's.
	if _, _, err := run(t, s, "EXPLAIN ANALYZE SELECT 1 / (g - 5) FROM generate_series(1, 10) g"); err == nil || !strings.Contains(err.Error(), "division by zero") {
		t.Errorf("EXPLAIN ANALYZE of a failing query: %v", err)
	}
}

func TestExplainOptionNeedsABoolean(t *testing.T) {
	s := newTestSession(t)
	_, _, err := run(t, s, "EXPLAIN (ANALYZE maybe) SELECT 1")
	if err == nil || !strings.Contains(err.Error(), "analyze requires a Boolean value") {
		t.Fatalf("EXPLAIN (ANALYZE maybe): %v", err)
	}
}
