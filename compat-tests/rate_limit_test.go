package compattests

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// rateLimitConfig limits each user to 60 queries a minute (one comes back
// every second) and two connections.
const rateLimitConfig = `[rate_limit]
enabled = true
per_user_queries_per_minute = 60
global_queries_per_minute = 1000

[pgwire]
max_connections_per_user = 2
`

// TestRateLimits runs a private server whose sqe.toml limits each user to
// 60 queries a minute: alice's 61st query in a burst is refused with
// 53400, bob is unaffected, and alice's session answers again once a
// token is back. A third connection of one user is refused with 53300.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte(rateLimitConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), false)
	aliceToken, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	bobToken, err := srv.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t, 2*time.Minute)
	alice := connect(t, ctx, srv, aliceToken)

	// The bucket holds 60 and refills one a second: the 61st query of a
	// burst is refused, unless the burst itself took seconds on a busy
	// machine, in which case as many more may pass.
	start := time.Now()
	refusedAt := 0
	for i := 1; i <= 90 && refusedAt == 0; i++ {
		var one int32
		err := alice.QueryRow(ctx, "SELECT 1").Scan(&one)
		if err == nil {
			continue
		}
		pe := asPgError(t, err)
		if pe.Code != "53400" || !strings.Contains(pe.Message, `per-user rate limit exceeded: user "alice" may run 60 queries per minute`) {
			t.Fatalf("query %d: %s %q, want 53400 naming the per-user limit", i, pe.Code, pe.Message)
		}
		refusedAt = i
	}
	elapsed := time.Since(start)
	if refusedAt < 61 || refusedAt > 61+int(elapsed.Seconds()) {
		t.Fatalf("first refusal at query %d after %s, want query 61 (plus one per second the burst took)", refusedAt, elapsed)
	}

	bob := connectConfig(t, ctx, pgxConfig(t, srv, "bob", demoDatabase, "disable", bobToken))
	assertSelectOne(t, ctx, bob)

	// The refused session is still open and answers once a token is back.
	deadline := time.Now().Add(15 * time.Second)
	for {
		var one int32
		err := alice.QueryRow(ctx, "SELECT 1").Scan(&one)
		if err == nil && one == 1 {
			break
		}
		if err != nil && asPgError(t, err).Code != "53400" {
			t.Fatalf("alice after the refusal: %v", err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("alice still refused 15 s after the burst: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Two connections per user: alice holds one, a second is fine, a
	// third is refused; bob's count is his own.
	connect(t, ctx, srv, aliceToken)
	_, err = pgx.ConnectConfig(ctx, pgxConfig(t, srv, "alice", demoDatabase, "disable", aliceToken))
	if err == nil {
		t.Fatal("alice's third connection was accepted")
	}
	if pe := asPgError(t, err); pe.Code != "53300" || pe.Message != `too many connections for role "alice"` {
		t.Fatalf("alice's third connection: %s %q, want 53300", pe.Code, pe.Message)
	}
	bob2 := connectConfig(t, context.Background(), pgxConfig(t, srv, "bob", demoDatabase, "disable", bobToken))
	assertSelectOne(t, ctx, bob2)
}
