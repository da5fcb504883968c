package exec_test

import (
	"context"
	"strings"
	"testing"
)

// TestAggregateRestrictedByJoin: where u is estimated far smaller than t,
// a correlated aggregate over t joined with a filtered u reads only the
// groups u keeps, through a semi join with it; the rows are those of the
// plan without the semi join (no row estimates: the rule does not fire).
func TestAggregateRestrictedByJoin(t *testing.T) {
	for _, sql := range []string{
		"SELECT name, (SELECT sum(qty) FROM t WHERE t.region = u.region) AS s FROM u WHERE name = 'Europe' ORDER BY 1",
		"SELECT name, (SELECT count(*) FROM t WHERE t.region = u.region) AS n FROM u WHERE name <> 'Europe' AND name <> 'Nowhere' ORDER BY 1",
		"SELECT name FROM u WHERE name = 'Europe' AND 5 < (SELECT max(qty) FROM t WHERE t.region = u.region) ORDER BY 1",
		"SELECT name FROM u WHERE name = 'Nowhere' AND 5 < (SELECT max(qty) FROM t WHERE t.region = u.region) ORDER BY 1",
	} {
		estimated := newTestTable(t)
		estimated.rowEstimate, estimated.regions.rowEstimate = 1_000_000, 4
		plan := explainWorkers(t, estimated, sql, 1)
		if !strings.Contains(plan, "SemiJoin") {
			t.Errorf("%s\nplan has no semi join under its aggregate:\n%s", sql, plan)
		}
		_, want, werr := runQuery(t, newTestTable(t), sql)
		_, got, gerr := runQueryPlanned(context.Background(), t, estimated, sql, 1, nil)
		if werr != nil || gerr != nil {
			t.Fatalf("%s: errors %v, %v", sql, werr, gerr)
		}
		if strings.Join(want, "\n") != strings.Join(got, "\n") {
			t.Errorf("%s\nwithout the semi join:\n%s\nwith it:\n%s", sql, strings.Join(want, "\n"), strings.Join(got, "\n"))
		}
		if len(want) == 0 && !strings.Contains(sql, "Nowhere") {
			t.Errorf("%s: no rows", sql)
		}
	}
}
