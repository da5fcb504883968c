package planner_test

import (
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// TestDecorrelatePlans checks the plans of correlated subqueries run as
// semi and anti joins, of those left to run per row, and of ORs whose
// shared conjuncts become join keys.
func TestDecorrelatePlans(t *testing.T) {
	const path = "testdata/decorrelate_plans.txt"
	cases := readExplainCases(t, path)
	if len(cases) == 0 {
		t.Fatal("no cases in " + path)
	}
	for i := range cases {
		c := &cases[i]
		t.Run(c.name, func(t *testing.T) {
			got := planner.Explain(optimizedPlan(t, c.sql, c.policy))
			if *update {
				c.want = got
				return
			}
			if got != c.want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.sql, got, c.want)
			}
		})
	}
	if *update {
		writeExplainCases(t, path, cases)
	}
}
