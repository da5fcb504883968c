package planner_test

import (
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// TestDecorrelateScalarSubqueryPlans checks the plans, subquery plans
// included, of correlated scalar subqueries run as left joins with their
// aggregate grouped by the correlation, and of those left to run per
// row; every plan passes CheckPlan.
func TestDecorrelateScalarSubqueryPlans(t *testing.T) {
	runExplainCases(t, "testdata/scalar_subquery_plans.txt", func(t *testing.T, c explainCase) string {
		root := optimizedPlan(t, c.sql, c.policy)
		if err := planner.CheckPlan(root); err != nil {
			t.Errorf("%s: CheckPlan: %v", c.sql, err)
		}
		return planner.DumpTree(root)
	})
}

// TestDecorrelateScalarSubqueryUnderMasks checks that a scalar subquery
// over a table with a row filter and a mask is decorrelated, its key
// the masked value included, into a plan CheckPlan accepts.
func TestDecorrelateScalarSubqueryUnderMasks(t *testing.T) {
	for _, sql := range maskedScalarSubqueries {
		root := optimizedPlan(t, sql, ordersPolicy{})
		if err := planner.CheckPlan(root); err != nil {
			t.Errorf("%s: CheckPlan: %v", sql, err)
		}
		plan := planner.DumpTree(root)
		if !strings.Contains(plan, "LeftJoin") || strings.Contains(plan, "(subquery)") {
			t.Errorf("%s: not decorrelated:\n%s", sql, plan)
		}
	}
}

// maskedScalarSubqueries read orders, which ordersPolicy row-filters and
// whose o_orderpriority it masks.
var maskedScalarSubqueries = []string{
	"SELECT c_name FROM customer WHERE c_acctbal < (SELECT avg(o_totalprice) FROM orders WHERE o_custkey = c_custkey)",
	"SELECT c_name, (SELECT count(*) FROM orders WHERE o_orderpriority = c_mktsegment) FROM customer",
	"SELECT c_name FROM customer WHERE c_mktsegment = (SELECT max(o_orderpriority) FROM orders WHERE o_custkey = c_custkey AND o_totalprice > 10)",
}
