package compattests

import (
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// The signalling functions as Superset's "stop query" uses them: one
// connection finds another's pid (pg_backend_pid, pg_stat_activity) and
// cancels its statement or terminates it.

func TestSignalBackend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		signal    string // SQL run by the signalling connection, $1 = the victim's pid
		wantCode  string // what the victim's running query gets
		wantAlive bool   // the victim's connection still answers afterwards
	}{
		{name: "terminate", signal: "SELECT pg_terminate_backend($1)", wantCode: "57P01"},
		{name: "terminate and wait", signal: "SELECT pg_terminate_backend($1, 10000)", wantCode: "57P01"},
		{name: "cancel", signal: "SELECT pg_cancel_backend($1)", wantCode: "57014", wantAlive: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t, 60*time.Second)
			victim := connect(t, ctx, shared.server, shared.token)
			killer := connect(t, ctx, shared.server, shared.token)

			pid := int32(victim.PgConn().PID())
			var own, listed int32
			if err := victim.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&own); err != nil {
				t.Fatalf("pg_backend_pid(): %v", err)
			}
			if err := victim.QueryRow(ctx, "SELECT pid FROM pg_stat_activity WHERE pid = pg_backend_pid()").Scan(&listed); err != nil {
				t.Fatalf("pg_stat_activity.pid: %v", err)
			}
			if own != pid || listed != pid {
				t.Fatalf("BackendKeyData pid %d, pg_backend_pid() %d, pg_stat_activity.pid %d: want one pid", pid, own, listed)
			}

			done := make(chan error, 1)
			go func() { done <- readSlowly(ctx, victim) }()
			time.Sleep(300 * time.Millisecond) // let the victim's statement start

			var ok bool
			if err := killer.QueryRow(ctx, tt.signal, pid).Scan(&ok); err != nil || !ok {
				t.Fatalf("%s = %v, %v; want true", tt.signal, ok, err)
			}
			select {
			case err := <-done:
				if pe := asPgError(t, err); pe.Code != tt.wantCode {
					t.Fatalf("victim got %s %q, want %s", pe.Code, pe.Message, tt.wantCode)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the victim's query was not stopped within 20s")
			}
			if tt.wantAlive {
				assertSelectOne(t, ctx, victim)
			} else if !victim.IsClosed() {
				if err := victim.Ping(ctx); err == nil {
					t.Error("the terminated connection still answers")
				}
			}
			assertSelectOne(t, ctx, killer)
		})
	}
}

func TestSignalBackendRefused(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	victim := connect(t, ctx, shared.server, shared.token)
	bobToken, err := shared.server.mintCLI("bob")
	if err != nil {
		t.Fatalf("token for bob: %v", err)
	}
	var mu sync.Mutex
	var notices []*pgconn.Notice
	cfg := pgxConfig(t, shared.server, "bob", demoDatabase, "disable", bobToken)
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		mu.Lock()
		defer mu.Unlock()
		notices = append(notices, n)
	}
	bob := connectConfig(t, ctx, cfg)
	pid := int32(victim.PgConn().PID())

	for _, q := range []string{"SELECT pg_terminate_backend($1)", "SELECT pg_cancel_backend($1)"} {
		var ok bool
		err := bob.QueryRow(ctx, q, pid).Scan(&ok)
		if pe := asPgError(t, err); pe.Code != "42501" {
			t.Errorf("bob: %s on alice's connection = %s %q, want 42501", q, pe.Code, pe.Message)
		}
	}
	assertSelectOne(t, ctx, victim)

	// A pid that is no connection: false and a warning, as PostgreSQL.
	const unknownPID = 2147483000
	for _, q := range []string{"SELECT pg_terminate_backend($1)", "SELECT pg_cancel_backend($1)"} {
		var ok bool
		if err := bob.QueryRow(ctx, q, int32(unknownPID)).Scan(&ok); err != nil || ok {
			t.Errorf("%s with an unknown pid = %v, %v; want false", q, ok, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notices) != 2 {
		t.Fatalf("notices %v, want two warnings", notices)
	}
	for _, n := range notices {
		if n.Severity != "WARNING" || n.Message != "PID 2147483000 is not a PostgreSQL backend process" {
			t.Errorf("notice %s %q, want WARNING \"PID 2147483000 is not a PostgreSQL backend process\"", n.Severity, n.Message)
		}
	}

	var n int
	err = bob.QueryRow(ctx, "SELECT pg_terminate_backend($1, -1)", pid).Scan(&n)
	if pe := asPgError(t, err); pe.Code != "22023" {
		t.Errorf("negative timeout: %s %q, want 22023", pe.Code, pe.Message)
	}
}
