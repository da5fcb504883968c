package compattests

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// pg_stat_activity on the shared server while bob runs a long query: an
// administrator sees bob's session with its running statement, bob sees
// it from another of his sessions, and alice (no administrator) sees only
// her own sessions.
func TestStatActivityShowsLiveSessions(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 120*time.Second)
	bobToken, err := shared.server.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}
	adminToken, err := shared.server.mintAdmin("carol")
	if err != nil {
		t.Fatal(err)
	}
	bob := connectConfig(t, ctx, pgxConfig(t, shared.server, "bob", demoDatabase, "disable", bobToken))
	bobAgain := connectConfig(t, ctx, pgxConfig(t, shared.server, "bob", demoDatabase, "disable", bobToken))
	admin := connectConfig(t, ctx, pgxConfig(t, shared.server, "carol", demoDatabase, "disable", adminToken))
	alice := connect(t, ctx, shared.server, shared.analystToken)
	bobPID := int32(bob.PgConn().PID())

	queryCtx, stopQuery := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- readSlowly(queryCtx, bob) }()
	defer func() {
		stopQuery()
		<-done
	}()

	const byPID = "SELECT usename, state, query, query_start IS NOT NULL, backend_start IS NOT NULL FROM pg_stat_activity WHERE pid = $1"
	type session struct {
		user, state, query    string
		queryStart, backStart bool
	}
	lookup := func(conn *pgx.Conn, pid int32) (session, bool) {
		t.Helper()
		var s session
		err := conn.QueryRow(ctx, byPID, pid).Scan(&s.user, &s.state, &s.query, &s.queryStart, &s.backStart)
		if err == pgx.ErrNoRows {
			return s, false
		}
		if err != nil {
			t.Fatalf("pg_stat_activity: %v", err)
		}
		return s, true
	}

	// Wait (generously) for bob's statement to show as running.
	deadline := time.Now().Add(30 * time.Second)
	for {
		s, ok := lookup(admin, bobPID)
		if ok && s.state == "active" {
			if want := (session{"bob", "active", slowQuery, true, true}); s != want {
				t.Fatalf("admin sees bob's session as %+v, want %+v", s, want)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("admin never saw bob's statement running (last: %+v, listed %v)", s, ok)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if s, ok := lookup(bobAgain, bobPID); !ok || s.query != slowQuery || s.state != "active" {
		t.Errorf("bob's other session sees %+v (listed %v), want his running statement", s, ok)
	}
	if _, ok := lookup(alice, bobPID); ok {
		t.Error("alice, not an administrator, sees bob's session")
	}
	var others int
	if err := alice.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE usename <> 'alice'").Scan(&others); err != nil {
		t.Fatal(err)
	}
	if others != 0 {
		t.Errorf("alice sees %d sessions of other users, want none", others)
	}
	// The simple protocol sends the statement with its parameter inlined.
	if s, ok := lookup(alice, int32(alice.PgConn().PID())); !ok || s.state != "active" || !strings.HasPrefix(s.query, "SELECT usename, state, query") {
		t.Errorf("alice sees her own session as %+v (listed %v), want the statement she runs", s, ok)
	}
}
