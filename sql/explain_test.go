package sql

import (
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
