package compattests

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// shutdownLimit is how long SIGTERM may take with clients connected.
const shutdownLimit = 10 * time.Second

func TestGracefulShutdownAndRestart(t *testing.T) {
	t.Parallel()
	dataDir := filepath.Join(t.TempDir(), "data")
	srv := startTestServerIn(t, dataDir, true)
	token, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}

	ctx := testContext(t, 60*time.Second)
	idle := connect(t, ctx, srv, token)
	assertSelectOne(t, ctx, idle)

	// A second client is in the middle of the long sort when the signal
	// comes.
	busy := connect(t, ctx, srv, token)
	busyErr := make(chan error, 1)
	go func() { busyErr <- readSlowly(ctx, busy) }()
	time.Sleep(300 * time.Millisecond)

	start := time.Now()
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	select {
	case <-srv.exited:
	case <-time.After(shutdownLimit):
		_ = srv.kill()
		t.Fatalf("server still running %s after SIGTERM with clients connected; log:\n%s", shutdownLimit, srv.log())
	}
	if srv.waitErr != nil {
		t.Fatalf("server exit after SIGTERM: %v; log:\n%s", srv.waitErr, srv.log())
	}
	t.Logf("shutdown took %s", time.Since(start).Round(time.Millisecond))

	// The idle client is told why, as PostgreSQL tells it.
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err = idle.Exec(qctx, "SELECT 1")
	if err == nil {
		t.Fatal("the idle connection still answers after the server exited")
	}
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Severity != "FATAL" || pe.Code != "57P01" {
		t.Errorf("idle connection error = %v, want FATAL 57P01", err)
	}
	// The busy one fails rather than hanging or ending as if complete.
	select {
	case err := <-busyErr:
		if err == nil {
			t.Error("the query in flight during shutdown completed normally")
		}
	case <-time.After(10 * time.Second):
		t.Error("the query in flight during shutdown never ended on the client")
	}

	// A restart on the same data directory, without --demo, serves what
	// the first run stored, and the token from before still verifies: the
	// issuer key persisted.
	again := startTestServerIn(t, dataDir, false)
	res := mustPsql(t, again, psqlRun{password: token, args: unaligned(ordersQuery)})
	if got := lines(res.stdout); !slices.Equal(got, ordersRows) {
		t.Errorf("rows after restart = %q, want %q", got, ordersRows)
	}
	if err := again.stop(); err != nil {
		t.Errorf("stop restarted server: %v", err)
	}
	if strings.Contains(again.log(), "level=ERROR") {
		t.Errorf("restarted server logged errors:\n%s", again.log())
	}
}
