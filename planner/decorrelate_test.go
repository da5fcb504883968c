package planner_test

import (
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// TestDecorrelatePlans checks the plans of correlated subqueries run as
// semi and anti joins, of those left to run per row, and of ORs whose
// shared conjuncts become join keys.
func TestDecorrelatePlans(t *testing.T) {
	runExplainCases(t, "testdata/decorrelate_plans.txt", func(t *testing.T, c explainCase) string {
		return planner.Explain(optimizedPlan(t, c.sql, c.policy))
	})
}
