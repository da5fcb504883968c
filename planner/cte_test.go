package planner_test

import (
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// TestCTEPlans checks which WITH queries are materialized (a CTE node
// and a CTE Scan per reference) and which inlined, and what the rules do
// around them; subquery plans are shown, where references may be too.
func TestCTEPlans(t *testing.T) {
	runExplainCases(t, "testdata/cte_plans.txt", func(t *testing.T, c explainCase) string {
		return planner.DumpTree(optimizedPlan(t, c.sql, c.policy))
	})
}
