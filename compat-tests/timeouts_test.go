package compattests

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// startConfiguredServer runs a private server whose sqe.toml (read from
// its working directory) is config.
func startConfiguredServer(t *testing.T, config string) *server {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return startTestServerIn(t, filepath.Join(dir, "data"), false)
}

// TestQueryTimeout: under [query] timeout_secs = 1 a long statement ends
// with 57014 and the session carries on; an administrator, whose role
// override lifts the bound, runs past it.
func TestQueryTimeout(t *testing.T) {
	t.Parallel()
	srv := startConfiguredServer(t, "[query]\ntimeout_secs = 1\n[query.role_overrides]\nsqe_admin = 0\n")
	ctx := testContext(t, 60*time.Second)
	userToken, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	adminToken, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, token, sql string
		timeout          bool
	}{
		{"pg_sleep", userToken, "SELECT pg_sleep(30)", true},
		{"large cross join", userToken, "SELECT count(*) FROM generate_series(1, 100000) AS a, generate_series(1, 100000) AS b WHERE a + b < 0", true},
		{"a shorter statement_timeout is kept", userToken, "SET statement_timeout = '200ms'; SELECT pg_sleep(30)", true},
		{"admin override", adminToken, "SELECT pg_sleep(3)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn := connect(t, ctx, srv, tt.token)
			start := time.Now()
			_, err := conn.Exec(ctx, tt.sql)
			elapsed := time.Since(start)
			if !tt.timeout {
				if err != nil {
					t.Fatalf("%s under the override: %v", tt.sql, err)
				}
				return
			}
			pe := asPgError(t, err)
			if pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
				t.Fatalf("error %s %q, want 57014 canceling statement due to statement timeout", pe.Code, pe.Message)
			}
			if elapsed > 10*time.Second {
				t.Errorf("the statement ran %s under a 1s timeout", elapsed.Round(time.Millisecond))
			}
			assertSelectOne(t, ctx, conn)
		})
	}
}

// TestIdleSessionTimeout: a session idle past [session] idle_timeout_secs
// is closed, and its client reads the FATAL error.
func TestIdleSessionTimeout(t *testing.T) {
	t.Parallel()
	srv := startConfiguredServer(t, "[session]\nidle_timeout_secs = 1\n")
	ctx := testContext(t, 60*time.Second)
	token, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, ctx, srv, token)
	assertSelectOne(t, ctx, conn)
	// The next read of the idle client is the server's FATAL error.
	start := time.Now()
	err = conn.PgConn().WaitForNotification(ctx)
	pe := asPgError(t, err)
	if pe.Severity != "FATAL" || pe.Code != "57P05" || pe.Message != "terminating connection due to idle-session timeout" {
		t.Fatalf("got %s %s %q, want FATAL 57P05 terminating connection due to idle-session timeout", pe.Severity, pe.Code, pe.Message)
	}
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("the idle session was closed after %s under a 1s timeout", elapsed.Round(time.Millisecond))
	}
	if _, err := conn.Exec(ctx, "SELECT 1"); err == nil {
		t.Error("the closed session still answers")
	}
}

// TestExpiredTokenEndsSession: a token minted with a few seconds'
// lifetime logs in and works; after its expiry (no grace) the session's
// next statement is refused with FATAL 28000.
func TestExpiredTokenEndsSession(t *testing.T) {
	t.Parallel()
	srv := startConfiguredServer(t, "[session]\ntoken_expiry_grace_secs = 0\n")
	ctx := testContext(t, 60*time.Second)
	token, err := srv.mintCLI("alice", "--ttl", "2s")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, ctx, srv, token)
	assertSelectOne(t, ctx, conn)
	time.Sleep(4 * time.Second) // past exp, which is in whole seconds
	_, err = conn.Exec(ctx, "SELECT 1")
	pe := asPgError(t, err)
	if pe.Severity != "FATAL" || pe.Code != "28000" {
		t.Fatalf("got %s %s %q, want FATAL 28000", pe.Severity, pe.Code, pe.Message)
	}
	if !conn.IsClosed() {
		t.Error("the connection is still open after the FATAL error")
	}
}

// TestCopyFromTimeout: the statement timeout bounds a COPY FROM STDIN
// whose client stalls mid-data: the server ends it with 57014 without
// waiting for the rest, commits nothing, and the session carries on.
func TestCopyFromTimeout(t *testing.T) {
	t.Parallel()
	srv := startConfiguredServer(t, "[query]\ntimeout_secs = 1\n")
	ctx := testContext(t, 60*time.Second)
	adminToken, err := srv.mintAdmin("alice")
	if err != nil {
		t.Fatal(err)
	}
	admin := connect(t, ctx, srv, adminToken)
	for _, q := range []string{"CREATE SCHEMA stall", "CREATE TABLE stall.t (id bigint)"} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	fe := rawFrontend(t, ctx, srv, adminToken, 30*time.Second)
	fe.Send(&pgproto3.Query{String: "COPY stall.t FROM STDIN"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	if msg, err := fe.Receive(); err != nil {
		t.Fatal(err)
	} else if _, ok := msg.(*pgproto3.CopyInResponse); !ok {
		t.Fatalf("got %T, want CopyInResponse", msg)
	}
	start := time.Now()
	fe.Send(&pgproto3.CopyData{Data: []byte("1\n2\n")})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	// The client now stalls: no more data, no CopyDone.
	got := receiveUntilReady(t, fe)
	elapsed := time.Since(start)
	want := []string{"ErrorResponse 57014 canceling statement due to statement timeout", "ReadyForQuery I"}
	if !slices.Equal(got, want) {
		t.Fatalf("stalled COPY: %q, want %q", got, want)
	}
	if elapsed > 10*time.Second {
		t.Errorf("the stalled COPY ran %s under a 1s timeout", elapsed.Round(time.Millisecond))
	}
	// What the client sends late is dropped, and the session carries on.
	fe.Send(&pgproto3.CopyData{Data: []byte("3\n")})
	fe.Send(&pgproto3.CopyDone{})
	fe.Send(&pgproto3.Query{String: "SELECT count(*) FROM stall.t"})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := receiveUntilReady(t, fe); !slices.Contains(got, "DataRow 0") {
		t.Errorf("after the timed-out COPY: %q, want a count of 0", got)
	}
}
