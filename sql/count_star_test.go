package sql

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/storage"
)

// newCountSession is a session over an empty embedded warehouse in dir,
// with the namespace w on its search path.
func newCountSession(t testing.TB, dir string) *Session {
	t.Helper()
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", dir, storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := cat.CreateNamespace(ctx, "w"); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", []StartupSetting{{Name: "search_path", Value: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// countedFromFiles reports whether s plans query with a count answered
// from the files' record counts.
func countedFromFiles(t *testing.T, s *Session, query string) bool {
	t.Helper()
	return planHolds(t, s, query, func(n planner.Node) bool {
		_, ok := n.(*planner.RowCount)
		return ok
	})
}

// TestCountStarFromFileRecordCounts: count(*) of a whole table is
// answered from its files' record counts (EXPLAIN shows it, and it
// answers with the data files gone) and equals the rows a scan returns:
// empty, after INSERTs, after a copy-on-write DELETE, inside a
// transaction block with staged rows. A WHERE clause or count of a
// column is scanned.
func TestCountStarFromFileRecordCounts(t *testing.T) {
	dir := t.TempDir()
	s := newCountSession(t, dir)
	const count = "SELECT count(*) FROM w.cnt"
	steps := []struct {
		sql   string
		count int // rows of w.cnt after sql
	}{
		{"CREATE TABLE w.cnt (id bigint, v text)", 0},
		{"INSERT INTO w.cnt VALUES (1, 'a'), (2, 'b'), (3, 'c')", 3},
		{"INSERT INTO w.cnt SELECT g, 'g' FROM generate_series(10, 2009) g", 2003},
		{"DELETE FROM w.cnt WHERE id = 2", 2002},
		{"BEGIN", 2002},
		{"INSERT INTO w.cnt VALUES (4, 'd'), (5, NULL)", 2004},
		{"DELETE FROM w.cnt WHERE id IN (1, 11)", 2002},
		{"INSERT INTO w.cnt VALUES (6, 'f')", 2003},
		{"ROLLBACK", 2002},
		{"BEGIN", 2002},
		{"DELETE FROM w.cnt WHERE id = 3", 2001},
		{"INSERT INTO w.cnt VALUES (NULL, 'n')", 2002},
		{"COMMIT", 2002},
	}
	for _, st := range steps {
		if _, _, err := run(t, s, st.sql); err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		want := strconv.Itoa(st.count)
		scanned, _, err := run(t, s, "SELECT id FROM w.cnt")
		if err != nil {
			t.Fatal(err)
		}
		if len(scanned) != st.count {
			t.Fatalf("after %s: a scan returns %d rows, want %d", st.sql, len(scanned), st.count)
		}
		for _, q := range []string{count, "SELECT count(1), count(*) FROM w.cnt"} {
			rows, _, err := run(t, s, q)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Split(rows[0], "|")[0]; len(rows) != 1 || got != want {
				t.Errorf("after %s: %s = %q, want %s", st.sql, q, rows, want)
			}
			if !countedFromFiles(t, s, q) {
				t.Errorf("after %s: %s is not counted from the files", st.sql, q)
			}
		}
	}
	plan, _, err := run(t, s, "EXPLAIN (COSTS OFF) "+count)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plan, "\n"), "RowCount") {
		t.Errorf("EXPLAIN does not show the count from the files:\n%s", strings.Join(plan, "\n"))
	}
	// Scanned: a WHERE clause, and count of a column (its NULLs do not
	// count).
	for _, tc := range []struct{ sql, want string }{
		{"SELECT count(*) FROM w.cnt WHERE id > 2000", "9"},
		{"SELECT count(id) FROM w.cnt", "2001"},
		{"SELECT count(*) FROM w.cnt WHERE true", "2002"},
	} {
		if countedFromFiles(t, s, tc.sql) {
			t.Errorf("%s is counted from the files", tc.sql)
		}
		if rows, _, err := run(t, s, tc.sql); err != nil || !slices.Equal(rows, []string{tc.want}) {
			t.Errorf("%s = %q (%v), want %s", tc.sql, rows, err, tc.want)
		}
	}
	// No data file is read: without them, the count still answers and a
	// scan fails.
	removed := 0
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".parquet") && strings.Contains(path, "cnt") {
			removed++
			return os.Remove(path)
		}
		return err
	})
	if err != nil || removed == 0 {
		t.Fatalf("removed %d data files: %v", removed, err)
	}
	for _, tc := range []struct{ sql, want string }{
		{count, "2002"},
		{"SELECT count(*) FROM w.cnt HAVING count(*) > 5", "2002"},
		{"SELECT (SELECT count(*) FROM w.cnt) + 1", "2003"},
		{"SELECT 1 WHERE 2002 IN (SELECT count(*) FROM w.cnt)", "1"},
		{"SELECT n FROM (SELECT count(*) AS n FROM (SELECT id FROM w.cnt) s) c, LATERAL (SELECT count(1) FROM w.cnt) l", "2002"},
	} {
		if rows, _, err := run(t, s, tc.sql); err != nil || !slices.Equal(rows, []string{tc.want}) {
			t.Errorf("without the data files, %s = %q (%v), want %s", tc.sql, rows, err, tc.want)
		}
	}
	if _, _, err := run(t, s, "SELECT id FROM w.cnt"); err == nil {
		t.Error("a scan without the data files succeeded")
	}
}

// TestCountStarUnderRowFilter: under a row filter, count(*) is answered
// from the files' record counts only while their statistics prove the
// filter for every row, the caller's staged rows included; EXPLAIN
// ANALYZE runs and shows the count under a proven filter as under an
// unproven one.
func TestCountStarUnderRowFilter(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "engineer")
	const count = "SELECT count(*) FROM acdemo.orders"
	const analyze = "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + count
	var analyzed [][]string
	steps := []struct {
		s       *Session
		sql     string
		rows    []string
		counted string // "yes" or "no": whether s counts from the files
		analyze bool   // keep EXPLAIN ANALYZE's output
	}{
		{s: carol, sql: "GRANT SELECT, INSERT ON acdemo.orders TO ROLE engineer"},
		{s: carol, sql: "CREATE POLICY not_xx ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region <> 'XX')"},
		{s: bob, counted: "yes"},
		{s: bob, sql: count, rows: []string{"3"}},
		{s: bob, sql: analyze, analyze: true},
		{s: bob, sql: "BEGIN"},
		{s: bob, sql: "INSERT INTO acdemo.orders (id, region) VALUES (6, 'XX')"},
		{s: bob, counted: "no"},
		{s: bob, sql: count, rows: []string{"3"}},
		{s: bob, sql: "INSERT INTO acdemo.orders (id, region) VALUES (7, 'EU')"},
		{s: bob, sql: count, rows: []string{"4"}},
		{s: bob, sql: "ROLLBACK"},
		{s: bob, sql: "BEGIN"},
		{s: bob, sql: "INSERT INTO acdemo.orders (id, region) VALUES (7, 'EU')"},
		{s: bob, counted: "yes"},
		{s: bob, sql: count, rows: []string{"4"}},
		{s: bob, sql: "ROLLBACK"},
		{s: carol, sql: "INSERT INTO acdemo.orders (id, region) VALUES (4, NULL)"},
		{s: bob, counted: "no"},
		{s: bob, sql: count, rows: []string{"3"}},
		{s: bob, sql: analyze, analyze: true},
		{s: carol, counted: "yes"},
		{s: carol, sql: count, rows: []string{"4"}},
	}
	for i, st := range steps {
		who := st.s.identity.User
		if st.counted != "" {
			if got := countedFromFiles(t, st.s, count); got != (st.counted == "yes") {
				t.Errorf("step %d, %s: counted from the files %v, want %s", i, who, got, st.counted)
			}
			continue
		}
		rows, _, err := run(t, st.s, st.sql)
		if err != nil {
			t.Fatalf("step %d, %s: %s: %v", i, who, st.sql, err)
		}
		if st.rows != nil && !slices.Equal(rows, st.rows) {
			t.Errorf("step %d, %s: %s: rows %q, want %q", i, who, st.sql, rows, st.rows)
		}
		if st.analyze {
			analyzed = append(analyzed, slices.DeleteFunc(rows, func(l string) bool { return strings.Contains(l, " Time: ") }))
		}
	}
	if len(analyzed) != 2 || !slices.Equal(analyzed[0], analyzed[1]) {
		t.Errorf("EXPLAIN ANALYZE tells a proven row filter from an unproven one:\n%s",
			fmt.Sprint(analyzed))
	}
}

// BenchmarkCountStar times count(*) of a table of eight data files
// (80,000 rows) through a session, parse to result: "from files" answers
// from the files' record counts, "scanned" (a WHERE clause that keeps
// every row) reads the rows, for comparison.
func BenchmarkCountStar(b *testing.B) {
	s := newCountSession(b, b.TempDir())
	mustRun(b, s, "CREATE TABLE w.cnt (id bigint, v text)")
	const files, perFile = 8, 10_000
	for f := range files {
		mustRun(b, s, fmt.Sprintf("INSERT INTO w.cnt SELECT g, 'v' || g FROM generate_series(%d, %d) g", f*perFile, (f+1)*perFile-1))
	}
	for _, bc := range []struct{ name, sql string }{
		{"from files", "SELECT count(*) FROM w.cnt"},
		{"scanned", "SELECT count(*) FROM w.cnt WHERE id >= 0"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rows, _, err := run(b, s, bc.sql)
			if err != nil || !slices.Equal(rows, []string{strconv.Itoa(files * perFile)}) {
				b.Fatalf("%s = %q (%v), want %d", bc.sql, rows, err, files*perFile)
			}
			for b.Loop() {
				mustRun(b, s, bc.sql)
			}
		})
	}
}
