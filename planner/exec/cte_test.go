package exec_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
)

// TestWithQueryRunsOnce: a WITH query read twice (or written AS
// MATERIALIZED, or calling random()) scans its table once and gives every
// reference the same rows, wherever the references run: in FROM, in a
// subquery, in a LIMIT computed as the plan is built, in a recursive
// query's term, in parallel workers' shared join builds. NOT MATERIALIZED
// and a single reference inline the query, which then scans per reference.
func TestWithQueryRunsOnce(t *testing.T) {
	tests := []struct {
		name, sql string
		want      []string
		scans     int // -1: not checked
	}{
		{"two references in FROM",
			"WITH c AS (SELECT id, amount FROM t) SELECT count(*) FROM c a JOIN c b ON a.id = b.id",
			[]string{"5"}, 1},
		{"not materialized scans per reference",
			"WITH c AS NOT MATERIALIZED (SELECT id, amount FROM t) SELECT count(*) FROM c a JOIN c b ON a.id = b.id",
			[]string{"5"}, 2},
		{"a reference in FROM and one in a scalar subquery",
			"WITH c AS (SELECT id, amount FROM t) SELECT id FROM c WHERE amount = (SELECT max(amount) FROM c)",
			[]string{"3"}, 1},
		{"a reference in a correlated subquery",
			"WITH c AS (SELECT id, region FROM t) SELECT id, (SELECT count(*) FROM c d WHERE d.region = c.region) FROM c ORDER BY id",
			[]string{"1|2", "2|1", "3|2", "4|0", "5|1"}, 1},
		{"materialized read once, in a limit",
			"WITH c AS MATERIALIZED (SELECT count(*) AS n FROM t) SELECT id FROM t ORDER BY id LIMIT (SELECT n - 3 FROM c)",
			[]string{"1", "2"}, 2},
		{"random() is computed once for both references",
			"WITH r AS (SELECT random() AS x) SELECT a.x = b.x FROM r a, r b",
			[]string{"t"}, 0},
		{"random() per row is the same row for both references",
			"WITH r AS (SELECT id, random() AS x FROM t) SELECT count(*) FROM r a JOIN r b ON a.id = b.id WHERE a.x = b.x",
			[]string{"5"}, 1},
		{"a WITH query read by the next one and by the query",
			"WITH a AS (SELECT id, region FROM t WHERE id > 1), b AS (SELECT region, count(*) AS n FROM a GROUP BY region) " +
				"SELECT a.id, b.n FROM a JOIN b ON a.region = b.region JOIN b b2 ON b.region = b2.region ORDER BY a.id",
			[]string{"2|1", "3|1", "5|1"}, 1},
		{"a WITH clause inside a correlated subquery",
			"SELECT id FROM t WHERE EXISTS (WITH c AS (SELECT id, region FROM t) SELECT 1 FROM c a JOIN c b ON a.id = b.id WHERE a.region = t.region AND a.id <> t.id) ORDER BY id",
			[]string{"1", "3"}, -1},
		{"references in a recursive query's term",
			"WITH RECURSIVE c AS (SELECT id FROM t WHERE id <= 3), r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT max(id) FROM c) AND n IN (SELECT id FROM c)) " +
				"SELECT n FROM r ORDER BY n",
			[]string{"1", "2", "3"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := newTestTable(t)
			_, rows, err := runQuery(t, tbl, tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rows, tt.want) {
				t.Errorf("rows = %v, want %v", rows, tt.want)
			}
			if tt.scans >= 0 && len(tbl.scans) != tt.scans {
				t.Errorf("t scanned %d times, want %d", len(tbl.scans), tt.scans)
			}
		})
	}
}

// TestWithQueryInParallelPlans: references read by parallel workers (the
// build sides they share, a filter's subquery) see the rows the serial
// plan sees, computed once.
func TestWithQueryInParallelPlans(t *testing.T) {
	for _, sql := range []string{
		"WITH c AS (SELECT region, sum(amount) AS s FROM t GROUP BY region) " +
			"SELECT t.id, c.s, c2.s FROM t JOIN c ON t.region = c.region JOIN c c2 ON t.region = c2.region ORDER BY t.id",
		"WITH c AS (SELECT id, random() AS x FROM t) " +
			"SELECT t.id FROM t JOIN c a ON t.id = a.id JOIN c b ON t.id = b.id WHERE a.x = b.x AND t.id > (SELECT min(id) FROM c) ORDER BY t.id",
	} {
		serialTbl := newTestTable(t)
		_, want, err := runQueryWorkers(t, serialTbl, sql, 1)
		if err != nil {
			t.Fatal(err)
		}
		tbl := newTestTable(t)
		tbl.batchMorsels = true
		if plan := planner.Explain(optimizeWorkers(t, tbl, sql, 4)); !strings.Contains(plan, "Gather") {
			t.Fatalf("no parallel part:\n%s", plan)
		}
		tbl.scans = nil
		_, got, err := runQueryWorkers(t, tbl, sql, 4)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s\n4 workers: %v\nserial: %v", sql, got, want)
		}
		// The table read by the workers, and the WITH query's once.
		if len(tbl.scans) != 2 {
			t.Errorf("%s: t scanned %d times, want 2", sql, len(tbl.scans))
		}
	}
}

// TestWithQuerySpills: a WITH query whose rows pass the budget writes
// them to the query's spill area, and its references read them back: the
// rows of the unlimited run, within the budget, no file left once the
// query is closed.
func TestWithQuerySpills(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	sql := "WITH c AS (SELECT id, s FROM t WHERE id % 3 <> 1) " +
		"SELECT a.id, a.s, (SELECT count(*) FROM c) FROM c a WHERE a.id % 1000 = 2"
	root := optimizeWorkers(t, tbl, sql, 1)
	want, err := collectRows(context.Background(), root, exec.NewMemoryBudget(0), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 14 || !strings.HasSuffix(want[0], "|13333") {
		t.Fatalf("unlimited run: %v", want)
	}
	const limit = 64 << 10
	budget := exec.NewMemoryBudget(limit)
	area := exec.NewSpillDir(t.TempDir()).NewArea()
	got, err := collectRows(exec.WithSpillArea(context.Background(), area), root, budget, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%d rows under 64 KiB differ from the unlimited run's %d", len(got), len(want))
	}
	checkSpilledWithin(t, area, budget, limit)
}
