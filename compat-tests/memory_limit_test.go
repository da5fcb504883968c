package compattests

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// TestQueryMemoryLimit runs a private server whose sqe.toml (read from its
// working directory) gives each query 16 MiB: a window partition that must
// hold more fails with 53200 and the server, and the session, carry on; a
// join, a sort, a DISTINCT, an INTERSECT and a window of many partitions
// that must hold more spill to the spill directory and return their rows,
// and leave nothing there. At start the server removed a
// spill area an earlier process left, and nothing else.
func TestQueryMemoryLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spillDir := filepath.Join(dir, "spill")
	stale := filepath.Join(spillDir, "sqe-spill-2147483646-stale")
	foreign := filepath.Join(spillDir, "not-ours.txt")
	if err := os.MkdirAll(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, "sort-1.arrow"), []byte("rows"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(foreign, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	conf := "[query]\nmemory_limit = \"16MiB\"\nspill_dir = \"" + spillDir + "\"\n"
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), false)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale spill area is still there (%v)", err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("a file the server did not make was removed: %v", err)
	}
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, srv, token)

	tests := []struct {
		name, sql string
		// wantContext is the memory context of the 53200; "" when the
		// query fits and returns want.
		wantContext string
		want        int64
	}{
		{"small join fits", "SELECT count(*) FROM generate_series(1, 1000) AS a JOIN generate_series(1, 1000) AS b ON a = b", "", 1000},
		// Past the limit the hash join, the hash aggregate, the sort, a
		// set operation and a window's partitions spill; a window
		// partition larger than the limit does not.
		{"large join build spills", "SELECT count(*) FROM (SELECT a * 1000 + b AS k FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b) AS l JOIN (SELECT a * 1000 + b AS k FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b) AS r ON l.k = r.k", "", 1000000},
		{"large window partition", "SELECT count(*) FROM (SELECT row_number() OVER (ORDER BY a * 1000 + b) FROM generate_series(1, 1000) AS a, generate_series(1, 3000) AS b) AS w", "WindowAgg", 0},
		{"window partitions spill", "SELECT count(*) FROM (SELECT row_number() OVER (PARTITION BY a ORDER BY b DESC) FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b) AS w", "", 1000000},
		{"large intersect spills", "SELECT count(*) FROM (SELECT a * 1000 + b FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b INTERSECT SELECT a * 1000 + b + 500000 FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b) AS i", "", 500000},
		{"large distinct spills", "SELECT count(*) FROM (SELECT DISTINCT a * 1000 + b FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b) AS d", "", 1000000},
		// A whole sort (OFFSET, no LIMIT); with a LIMIT the top-N sort
		// keeps only the rows it returns.
		{"large sort spills", "SELECT a * 1000 + b AS v FROM generate_series(1, 3000) AS a, generate_series(1, 1000) AS b ORDER BY v DESC OFFSET 2999999", "", 1001},
		{"large top-N sort fits", "SELECT a * 1000 + b AS v FROM generate_series(1, 3000) AS a, generate_series(1, 1000) AS b ORDER BY v DESC LIMIT 1", "", 3001000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n int64
			err := conn.QueryRow(ctx, tt.sql).Scan(&n)
			if tt.wantContext == "" {
				if err != nil || n != tt.want {
					t.Fatalf("got %d, err %v; want %d", n, err, tt.want)
				}
				if left, _ := filepath.Glob(filepath.Join(spillDir, "sqe-spill-*")); len(left) != 0 {
					t.Errorf("spill areas left after the query: %v", left)
				}
				return
			}
			pe := asPgError(t, err)
			if pe.Code != "53200" || pe.Message != "out of memory" {
				t.Fatalf("error %s %q, want 53200 out of memory", pe.Code, pe.Message)
			}
			if !strings.Contains(pe.Detail, "in memory context \""+tt.wantContext) || !strings.Contains(pe.Detail, "memory_limit 16777216 bytes") {
				t.Errorf("detail %q, want the memory context %s and the limit", pe.Detail, tt.wantContext)
			}
			assertSelectOne(t, ctx, conn)
		})
	}
}

// TestStatementTimeoutOverWire sets statement_timeout and runs a query
// far longer than it: the server stops it with 57014 and the reason.
func TestStatementTimeoutOverWire(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)
	if _, err := conn.Exec(ctx, "SET statement_timeout = '200ms'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var n int64
	err := conn.QueryRow(ctx, "SELECT count(*) FROM generate_series(1, 30000) AS a, generate_series(1, 30000) AS b WHERE a + b < 0").Scan(&n)
	elapsed := time.Since(start)
	pe := asPgError(t, err)
	if pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
		t.Fatalf("error %s %q, want 57014 canceling statement due to statement timeout", pe.Code, pe.Message)
	}
	if elapsed > 5*time.Second {
		t.Errorf("the statement ran %s under a 200ms timeout", elapsed.Round(time.Millisecond))
	}
	assertSelectOne(t, ctx, conn)
}

// TestCancelRequestStopsComputation cancels a query that computes for a
// long time before its first row (a nested-loop join over 900 million
// pairs): the CancelRequest must stop the work, not only the reply.
func TestCancelRequestStopsComputation(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 10 * time.Second}
	}
	conn := connectConfig(t, ctx, cfg)
	qctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int64
	err := conn.QueryRow(qctx, "SELECT count(*) FROM generate_series(1, 30000) AS a, generate_series(1, 30000) AS b WHERE a + b < 0").Scan(&n)
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("the query finished; it is meant to run for minutes")
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to user request" {
		t.Fatalf("error %v, want the server's 57014 canceling statement due to user request", err)
	}
	if elapsed > 5*time.Second {
		t.Errorf("the query ran %s after a 300ms deadline", elapsed.Round(time.Millisecond))
	}
	assertSelectOne(t, ctx, conn)
}
