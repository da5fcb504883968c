package sql

import (
	"context"
	"errors"
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
		// limit is the memory limit, 2 MiB when 0; a smaller one makes
		// more runs than one merge reads, and partitions that spill
		// again.
		limit int64
	}{
		{"sort by integer with ties", "SELECT a, b FROM " + spillRows + " ORDER BY a % 7", true, 0},
		{"sort descending", "SELECT a, b FROM " + spillRows + " ORDER BY (a * 7919 + b) % 1000 DESC, a", true, 0},
		{"sort with NULLs first", "SELECT a, b FROM " + spillRows + " ORDER BY CASE WHEN b % 5 = 0 THEN NULL ELSE (a + b) % 100 END NULLS FIRST", true, 0},
		{"sort with NULLs last, descending", "SELECT a, b FROM " + spillRows + " ORDER BY CASE WHEN b % 3 = 0 THEN NULL ELSE b % 10 END DESC NULLS LAST", true, 0},
		{"sort by text", "SELECT a, b, (a * b)::text AS t FROM " + spillRows + " ORDER BY t DESC", true, 0},
		{"sort by text and float", "SELECT a || '-' || (b % 4) AS t, b::float8 / 7 AS f FROM " + spillRows + " ORDER BY t, f DESC", true, 0},
		{"group by many groups", "SELECT a * 1000 + b % 250 AS g, count(*), sum(b), min(a), max(b) FROM " + spillRows + " GROUP BY g", false, 0},
		{"group by text", "SELECT (a * 1000 + b % 250)::text AS g, count(*), avg(b) FROM " + spillRows + " GROUP BY g", false, 0},
		{"group by with DISTINCT aggregates", "SELECT a * 10 + b % 10 AS g, count(DISTINCT b % 7), sum(DISTINCT b) FROM " + spillRows + " GROUP BY g", false, 0},
		{"group by with string_agg", "SELECT a * 100 + b % 100 AS g, string_agg(b::text, ',') FROM " + spillRows + " GROUP BY g", false, 0},
		{"group by with ordered string_agg", "SELECT a * 100 + b % 100 AS g, string_agg(b::text, ',' ORDER BY b DESC), array_agg(b ORDER BY b) FROM " + spillRows + " GROUP BY g", false, 0},
		{"group by two keys with NULLs", "SELECT NULLIF(a % 300, 0) AS x, NULLIF(b, 250) AS y, count(*) FROM " + spillRows + " GROUP BY x, y", false, 0},
		{"distinct", "SELECT DISTINCT a * 1000 + b FROM " + spillRows, false, 0},
		{"sort merged in passes", "SELECT a, b FROM " + spillRows + " ORDER BY (a + b) % 13 DESC", true, 256 << 10},
		{"group by spilled again", "SELECT a * 1000 + b AS g, count(*), string_agg(a::text, ',') FROM " + spillRows + " GROUP BY g", false, 256 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpilledAsUnlimited(t, tt.sql, tt.limit, tt.ordered) })
	}
}

// checkSpilledAsUnlimited runs sql under limit (2 MiB when 0) with a
// spill directory: it must spill, return the rows of a run without limit
// (in the same order when ordered, else as a set) and leave no file; run
// without a spill directory it fails with 53200.
func checkSpilledAsUnlimited(t *testing.T, sql string, limit int64, ordered bool) {
	t.Helper()
	want, _, err := run(t, newLimitedSession(t, 0), sql)
	if err != nil {
		t.Fatal(err)
	}
	if limit == 0 {
		limit = 2 << 20
	}
	dir := filepath.Join(t.TempDir(), "spill")
	s := newSpillingSession(t, limit, dir)
	got, _, err := run(t, s, sql)
	if err != nil {
		t.Fatal(err)
	}
	if !ordered {
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
	if _, _, err := run(t, newLimitedSession(t, limit), sql); pgerror.Code(err) != pgerror.OutOfMemory {
		t.Errorf("without spilling: %v, want 53200", err)
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

// TestSpillAreaIsRemovedHoweverTheQueryEnds: a query's spill files are
// gone once it ends, whether it failed after spilling (a division by zero
// while the sort reads its input, or while it returns its rows), was
// cancelled or timed out.
func TestSpillAreaIsRemovedHoweverTheQueryEnds(t *testing.T) {
	tests := []spillEndCase{
		{name: "error while the sort reads its input", sql: "SELECT a, b, 1 / (a - 500) FROM " + spillRows + " ORDER BY b", want: pgerror.DivisionByZero},
		{name: "error while the sort returns its rows", sql: "SELECT 1 / (a - 300) FROM (SELECT a, b FROM " + spillRows + " ORDER BY b, a) AS s", want: pgerror.DivisionByZero},
		{name: "error while the aggregate reads its input", sql: "SELECT a * 1000 + b AS g, count(*), sum(1 / (a - 550)) FROM " + spillRows + " GROUP BY g", want: pgerror.DivisionByZero},
		{name: "cancel", sql: "SELECT a, b FROM " + spillRows + " ORDER BY b DESC, a", cancelAfterFirst: true, want: pgerror.QueryCanceled},
		{name: "statement timeout", sql: "SELECT count(*) FROM (SELECT a * 1000 + b AS g, count(*) FROM " + spillRows + ", generate_series(1, 20) AS c GROUP BY g) AS d", timeout: "300ms", want: pgerror.QueryCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpillEnd(t, 2<<20, tt) })
	}
}

// spillEndCase is a query that spills and then ends otherwise than by
// returning its rows.
type spillEndCase struct {
	name, sql string
	// cancelAfterFirst cancels the query's context once the first batch
	// is read (it has spilled by then).
	cancelAfterFirst bool
	timeout          string
	want             string // SQLSTATE
}

// checkSpillEnd runs tc under a memory limit of limit bytes: it must end
// with tc.want, have spilled (unless a timeout ended it) and leave no
// spill area behind.
func checkSpillEnd(t *testing.T, limit int64, tc spillEndCase) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "spill")
	s := newSpillingSession(t, limit, dir)
	if tc.timeout != "" {
		if _, _, err := run(t, s, "SET statement_timeout = '"+tc.timeout+"'"); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	if tc.cancelAfterFirst {
		err = runCancelledAfterFirstBatch(t, s, tc.sql, func() {
			if len(spillAreas(t, dir)) == 0 {
				t.Error("nothing spilled before the cancel")
			}
		})
	} else {
		_, _, err = run(t, s, tc.sql)
	}
	if got := pgerror.Code(err); got != tc.want {
		t.Fatalf("err = %v (%s), want %s", err, got, tc.want)
	}
	if tc.timeout == "" && s.engine.cfg.Spill.Totals().Files == 0 {
		t.Error("nothing spilled before the error")
	}
	if left := spillAreas(t, dir); len(left) != 0 {
		t.Errorf("spill areas left: %v", left)
	}
}

// runCancelledAfterFirstBatch runs query, reads one batch, calls
// atFirst, cancels, and returns the error the next read gives.
func runCancelledAfterFirstBatch(t *testing.T, s *Session, query string, atFirst func()) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stmts, err := s.Parse(ctx, query)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Execute(ctx, stmts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	b, err := res.Next(ctx)
	if err != nil || b == nil {
		t.Fatalf("first batch: %v, %v", b, err)
	}
	b.Release()
	atFirst()
	cancel()
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		b.Release()
	}
}

// TestUnwritableSpillDir: a spill directory the server cannot create
// (its parent is a file) fails the query with 58030 and a hint that names
// spill_dir but no path, and the session carries on.
func TestUnwritableSpillDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(parent, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newSpillingSession(t, 2<<20, filepath.Join(parent, "spill"))
	_, _, err := run(t, s, "SELECT a, b FROM "+spillRows+" ORDER BY b")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.IOError {
		t.Fatalf("err = %v, want 58030", err)
	}
	if pe.Message != "could not create temporary directory: Not a directory" {
		t.Errorf("message %q", pe.Message)
	}
	if !strings.Contains(pe.Hint, "spill_dir") {
		t.Errorf("hint %q does not name spill_dir", pe.Hint)
	}
	if rows, _, err := run(t, s, "SELECT 1"); err != nil || len(rows) != 1 {
		t.Errorf("after the error: %v, %v", rows, err)
	}
}
