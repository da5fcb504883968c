package pgwire

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgproto3/v2"
	"go.uber.org/goleak"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// engineSessions opens real SQL sessions, so that what a statement starts
// (parallel scan workers, storage readers, join and sort state) is the
// engine's own.
type engineSessions struct{ engine *sql.Engine }

func (f engineSessions) NewSession(ctx context.Context, id auth.Identity, st Startup) (Session, error) {
	return f.engine.NewSession(ctx, id, st.Database, st.Settings)
}

// newEngineSessions is an engine over a catalog "sales" holding the demo
// tables, whose queries scan in two parallel workers.
func newEngineSessions(t *testing.T) engineSessions {
	t.Helper()
	return demoEngineSessions(t, 20000, sql.EngineConfig{ParallelWorkers: 2})
}

// demoEngineSessions is an engine configured by cfg over a catalog
// "sales" holding the demo tables with salesRows rows of sales.
func demoEngineSessions(t *testing.T, salesRows int, cfg sql.EngineConfig) engineSessions {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := demo.Load(storage.WithPrincipal(ctx, storage.Principal{User: "loader"}), cat, salesRows); err != nil {
		t.Fatal(err)
	}
	return engineSessions{sql.NewEngine(cfg, []storage.Catalog{cat}, governance.Passthrough{})}
}

// TestDisconnectStopsRunningQuery closes the socket of a client whose
// query would run for minutes: the server must stop the query, close the
// session and leave no goroutine of it behind.
func TestDisconnectStopsRunningQuery(t *testing.T) {
	sessions := newEngineSessions(t)
	tests := []struct {
		name, sql string
	}{
		{"pg_sleep", "SELECT pg_sleep(600)"},
		{"cross join", "SELECT count(*) FROM generate_series(1, 100000) AS a, generate_series(1, 100000) AS b WHERE a + b < 0"},
		{"join of parallel scans", "SELECT count(*) FROM acdemo.sales AS a JOIN acdemo.sales AS b ON a.id + b.id < 0"},
		{"sort of a cross join", "SELECT a * b FROM generate_series(1, 100000) AS a, generate_series(1, 100000) AS b ORDER BY 1 DESC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			ts := startServerWith(t, nil, sessions)
			c := ts.dialRaw(t)
			if got := c.startup("alice", goodToken); got[len(got)-1] != "ReadyForQuery[I]" {
				t.Fatalf("startup: %v", got)
			}
			c.send(&pgproto3.Query{String: tt.sql})
			// The query is still running: nothing comes back for a while.
			_ = c.conn.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
			if msg, err := c.fe.Receive(); err == nil {
				t.Fatalf("the query answered %s before its client left", describe(msg))
			}
			c.conn.Close()
			start := time.Now()
			deadline := start.Add(10 * time.Second)
			for ts.connections() > 0 {
				if time.Now().After(deadline) {
					t.Fatalf("the query still runs 10s after its client left")
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("the connection ended %s after its client left", time.Since(start).Round(time.Millisecond))
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := ts.srv.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			goleak.VerifyNone(t, before)
		})
	}
}

// connections is how many connections the server is handling.
func (ts *testServer) connections() int {
	ts.srv.mu.Lock()
	defer ts.srv.mu.Unlock()
	return len(ts.srv.conns)
}
