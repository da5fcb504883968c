package planner_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// ndvTable is a statsTable with ANALYZE's distinct counts by column name.
type ndvTable struct {
	*statsTable
	ndv map[string]float64
}

func (t *ndvTable) DistinctValues(col int) (float64, bool) {
	n, ok := t.ndv[t.cols[col].Name]
	return n, ok
}

// ndvCatalog has fact (1M rows) and two dimensions, big (1,000 rows) and
// small (500): fact.b_id references big, fact.s_id small. Without
// statistics both joins look like foreign key to primary key joins of
// 1M rows, and the smaller dimension is joined first. With them, fact.b_id
// is nearly unique (a selective join keeping about 1,000 rows) and
// fact.s_id takes the 500 values of small.
type ndvCatalog struct{ stats bool }

func (c ndvCatalog) ResolveTable(_ context.Context, n planner.TableName) (planner.Table, error) {
	specs := map[string]struct {
		rows int64
		ndv  map[string]float64
	}{
		"fact":  {1_000_000, map[string]float64{"b_id": 1_000_000, "s_id": 500}},
		"big":   {1_000, map[string]float64{"b_id": 1_000, "b_name": 1_000}},
		"small": {500, map[string]float64{"s_id": 500, "s_name": 10}},
	}
	spec, ok := specs[n.Name]
	if !ok {
		return nil, errors.New("no table " + n.Name)
	}
	t := &statsTable{name: n.Name, rows: spec.rows}
	for _, col := range slices.Sorted(func(yield func(string) bool) {
		for k := range spec.ndv {
			if !yield(k) {
				return
			}
		}
	}) {
		typ := types.Int8
		if strings.HasSuffix(col, "name") {
			typ = types.Text
		}
		t.cols = append(t.cols, planner.TableColumn{Name: col, Type: typ})
	}
	if !c.stats {
		return t, nil
	}
	return &ndvTable{statsTable: t, ndv: spec.ndv}, nil
}

const ndvJoin = "SELECT b_name, s_name FROM fact JOIN big USING (b_id) JOIN small USING (s_id)"

// scanOrder is the order of the tables in an optimized plan's text.
func scanOrder(t *testing.T, cat planner.Catalog, sec planner.Security, sql string) []string {
	t.Helper()
	plan := planner.Explain(optimizedPlanIn(t, cat, sec, sql))
	var out []string
	for _, m := range regexp.MustCompile(`Scan \{cat tpch (\w+)\}`).FindAllStringSubmatch(plan, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestJoinOrderFollowsDistinctCounts: with ANALYZE's distinct counts the
// selective join comes first; without them, or when the keys' table is
// under the caller's row filter (its statistics describe rows the caller
// may not see, and estimates reach EXPLAIN), the row-count guess decides
// as before.
func TestJoinOrderFollowsDistinctCounts(t *testing.T) {
	tests := []struct {
		name  string
		stats bool
		sec   planner.Security
		want  []string
	}{
		{"no statistics", false, planner.OpenRelation{}, []string{"fact", "small", "big"}},
		{"statistics", true, planner.OpenRelation{}, []string{"fact", "big", "small"}},
		// Under a row filter the table's row count is withheld too, so a
		// dimension is the probe side; the plan is the one without
		// statistics.
		{"no statistics, row filter", false, policies{"fact": {"b_id > 0"}}, []string{"big", "fact", "small"}},
		{"statistics, row filter", true, policies{"fact": {"b_id > 0"}}, []string{"big", "fact", "small"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := scanOrder(t, ndvCatalog{stats: tt.stats}, tt.sec, ndvJoin)
			// Without a row filter the probe side (fact) comes first and
			// the others in the order they are joined.
			if !slices.Equal(got, tt.want) {
				t.Fatalf("tables in plan order %v, want %v\n%s", got, tt.want, planner.Explain(optimizedPlanIn(t, ndvCatalog{stats: tt.stats}, tt.sec, ndvJoin)))
			}
		})
	}
}

// TestAggregateEstimateFollowsDistinctCounts: EXPLAIN's group estimate is
// the group column's distinct count with statistics, 200 without, and 200
// under the caller's row filter, where the statistics describe rows the
// caller may not see.
func TestAggregateEstimateFollowsDistinctCounts(t *testing.T) {
	for _, tt := range []struct {
		stats bool
		sec   planner.Security
		want  string
	}{
		{false, planner.OpenRelation{}, "rows=200 "},
		{true, planner.OpenRelation{}, "rows=10 "},
		{true, policies{"small": {"s_id > 0"}}, "rows=200 "},
	} {
		plan := planner.ExplainWithCosts(optimizedPlanIn(t, ndvCatalog{stats: tt.stats}, tt.sec, "SELECT s_name, count(*) FROM small GROUP BY s_name"))
		first := strings.SplitN(plan, "\n", 2)[0]
		if !strings.Contains(plan, "Aggregate") || !strings.Contains(first, tt.want) {
			t.Errorf("statistics %v: plan\n%s\nwant the aggregate's %q", tt.stats, plan, tt.want)
		}
	}
}

// TestEqualityFilterFollowsDistinctCounts: a column equal to a constant
// keeps 1/n of the rows with ANALYZE's n distinct values (small.s_name has
// 10: 50 of 500 rows), PostgreSQL's 0.005 without statistics (2.5, shown
// as 3) and under the caller's row filter (whose table's row count is
// withheld too: 0.005 of the third of the default 1,000 rows the
// barrier is guessed to keep).
func TestEqualityFilterFollowsDistinctCounts(t *testing.T) {
	for _, tt := range []struct {
		stats bool
		sec   planner.Security
		want  string
	}{
		{false, planner.OpenRelation{}, "rows=3 "},
		{true, planner.OpenRelation{}, "rows=50 "},
		{true, policies{"small": {"s_id > 0"}}, "rows=2 "},
	} {
		plan := planner.ExplainWithCosts(optimizedPlanIn(t, ndvCatalog{stats: tt.stats}, tt.sec, "SELECT s_id FROM small WHERE s_name = 'x'"))
		var filter string
		for _, line := range strings.Split(plan, "\n") {
			if strings.Contains(line, "Filter (s_name") {
				filter = line
			}
		}
		if !strings.Contains(filter, tt.want) {
			t.Errorf("statistics %v: plan\n%s\nwant the filter's %q", tt.stats, plan, tt.want)
		}
	}
}
