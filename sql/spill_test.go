package sql

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// newSpillingSession is a session of an engine whose queries may hold
// memoryLimit bytes and spill under dir.
func newSpillingSession(t *testing.T, memoryLimit int64, dir string) *Session {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{MemoryLimit: memoryLimit, Spill: exec.NewSpillDir(dir), ParallelWorkers: 1},
		[]storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// spillAreas lists the spill areas left in dir.
func spillAreas(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// The inputs: 300,000 rows of a cross join of two series, in a fixed
// order, which a stable sort keeps among equal keys.
const spillRows = "generate_series(1, 600) AS a, generate_series(1, 500) AS b"

func TestSpilledQueriesReturnTheUnlimitedRows(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		// ordered: the rows' order is the query's (ORDER BY); else they
		// are compared as a set.
		ordered bool
	}{
		{"sort by integer with ties", "SELECT a, b FROM " + spillRows + " ORDER BY a % 7", true},
		{"sort descending", "SELECT a, b FROM " + spillRows + " ORDER BY (a * 7919 + b) % 1000 DESC, a", true},
		{"sort with NULLs first", "SELECT a, b FROM " + spillRows + " ORDER BY CASE WHEN b % 5 = 0 THEN NULL ELSE (a + b) % 100 END NULLS FIRST", true},
		{"sort with NULLs last, descending", "SELECT a, b FROM " + spillRows + " ORDER BY CASE WHEN b % 3 = 0 THEN NULL ELSE b % 10 END DESC NULLS LAST", true},
		{"sort by text", "SELECT a, b, (a * b)::text AS t FROM " + spillRows + " ORDER BY t DESC", true},
		{"sort by text and float", "SELECT a || '-' || (b % 4) AS t, b::float8 / 7 AS f FROM " + spillRows + " ORDER BY t, f DESC", true},
		{"group by many groups", "SELECT a * 1000 + b % 250 AS g, count(*), sum(b), min(a), max(b) FROM " + spillRows + " GROUP BY g", false},
		{"group by text", "SELECT (a * 1000 + b % 250)::text AS g, count(*), avg(b) FROM " + spillRows + " GROUP BY g", false},
		{"group by with DISTINCT aggregates", "SELECT a * 10 + b % 10 AS g, count(DISTINCT b % 7), sum(DISTINCT b) FROM " + spillRows + " GROUP BY g", false},
		{"group by with string_agg", "SELECT a * 100 + b % 100 AS g, string_agg(b::text, ',') FROM " + spillRows + " GROUP BY g", false},
		{"group by with ordered string_agg", "SELECT a * 100 + b % 100 AS g, string_agg(b::text, ',' ORDER BY b DESC), array_agg(b ORDER BY b) FROM " + spillRows + " GROUP BY g", false},
		{"group by two keys with NULLs", "SELECT NULLIF(a % 300, 0) AS x, NULLIF(b, 250) AS y, count(*) FROM " + spillRows + " GROUP BY x, y", false},
		{"distinct", "SELECT DISTINCT a * 1000 + b FROM " + spillRows, false},
	}
	ctx := context.Background()
	_ = ctx
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _, err := run(t, newLimitedSession(t, 0), tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "spill")
			s := newSpillingSession(t, 2<<20, dir)
			got, _, err := run(t, s, tt.sql)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.ordered {
				slices.Sort(want)
				slices.Sort(got)
			}
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("row %d = %q, want %q", i, got[i], want[i])
				}
			}
			if s.engine.cfg.Spill.Totals().Files == 0 {
				t.Errorf("nothing spilled")
			}
			if left := spillAreas(t, dir); len(left) != 0 {
				t.Errorf("spill areas left after the query: %v", left)
			}
			// The same query without a spill directory fails.
			if _, _, err := run(t, newLimitedSession(t, 2<<20), tt.sql); pgerror.Code(err) != pgerror.OutOfMemory {
				t.Errorf("without spilling: %v, want 53200", err)
			}
		})
	}
}

func TestExplainAnalyzeShowsWhatSpilled(t *testing.T) {
	s := newSpillingSession(t, 2<<20, filepath.Join(t.TempDir(), "spill"))
	rows, _, err := run(t, s, "EXPLAIN ANALYZE SELECT a, b FROM "+spillRows+" ORDER BY b, a")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(rows, "\n")
	var sortLine string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "Sort ") {
			sortLine = l
		}
	}
	if !strings.Contains(sortLine, "Disk: ") || !strings.Contains(sortLine, "kB  Spill Files: ") {
		t.Errorf("sort line %q shows no spill:\n%s", sortLine, text)
	}
}
