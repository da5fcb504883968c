package compattests

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// refusedLogin is the only thing a refused client learns, whatever the
// reason.
const refusedLogin = `password authentication failed for user "alice"`

// TestRefusedLogins runs on a private server: the failures it causes drain
// the per-address login limiter, which would refuse other tests' logins
// on the shared server.
func TestRefusedLogins(t *testing.T) {
	t.Parallel()
	srv := startTestServer(t, false)
	forge := newTokenForge(t, srv.dataDir)
	cliToken, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	if kid := tokenHeader(t, cliToken)["kid"]; kid != forge.kid {
		t.Fatalf("sqe token uses kid %v, the forge computes %q: the crafted tokens would not test what they claim", kid, forge.kid)
	}
	bobToken, err := srv.mintCLI("bob")
	if err != nil {
		t.Fatal(err)
	}

	now := time.Now().Unix()
	expired := validClaims("alice")
	expired.IssuedAt, expired.NotBefore, expired.Expiry = now-7200, now-7200, now-3600
	notYetValid := validClaims("alice")
	notYetValid.NotBefore = now + 3600
	notYetValid.Expiry = now + 7200
	wrongAudience := validClaims("alice")
	wrongAudience.Audience = []string{"some-other-service"}
	wrongIssuer := validClaims("alice")
	wrongIssuer.Issuer = "https://issuer.example.com"

	tests := []loginCase{
		{"garbage", "not-a-jwt-at-all"},
		{"expired", forge.signES256(t, expired)},
		{"not yet valid", forge.signES256(t, notYetValid)},
		{"wrong audience", forge.signES256(t, wrongAudience)},
		{"wrong issuer", forge.signES256(t, wrongIssuer)},
		{"alg none", forge.unsigned(t, validClaims("alice"))},
		{"HS256 keyed with the public key", forge.signHS256WithPublicKey(t, validClaims("alice"))},
		{"other ECDSA key same kid", forge.signOtherKey(t, validClaims("alice"))},
		{"bob's token as alice", bobToken},
	}

	// Controls: tokens from the CLI and from the forge with valid claims
	// are accepted, so each refusal below is down to its one defect.
	crafted := forge.signES256(t, validClaims("alice"))
	for name, token := range map[string]string{"sqe token": cliToken, "forged valid": crafted} {
		res := runPsql(t, srv, psqlRun{password: token, args: unaligned("SELECT 1")})
		if res.exitCode != 0 || strings.TrimSpace(res.stdout) != "1" {
			t.Fatalf("control %s: psql exited %d, stdout %q, stderr %q", name, res.exitCode, res.stdout, res.stderr)
		}
	}

	for _, tt := range tests {
		t.Run("psql/"+tt.name, func(t *testing.T) {
			res := runPsql(t, srv, psqlRun{password: tt.token, args: unaligned("SELECT 1")})
			if res.exitCode == 0 {
				t.Fatalf("login accepted; stdout %q", res.stdout)
			}
			if !strings.Contains(res.stderr, "FATAL:  "+refusedLogin) {
				t.Errorf("stderr = %q, want FATAL %s", res.stderr, refusedLogin)
			}
		})
		t.Run("pgx/"+tt.name, func(t *testing.T) {
			ctx := testContext(t, 30*time.Second)
			conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, srv, "alice", demoDatabase, "disable", tt.token))
			if err == nil {
				conn.Close(ctx)
				t.Fatal("login accepted")
			}
			pe := asPgError(t, err)
			if pe.Severity != "FATAL" || pe.Code != "28P01" || pe.Message != refusedLogin {
				t.Errorf("error = %s %s %q, want FATAL 28P01 %q", pe.Severity, pe.Code, pe.Message, refusedLogin)
			}
		})
	}

	t.Run("psql/empty password", func(t *testing.T) {
		// libpq never sends an empty password: it gives up on the client
		// side. The pgx case below puts an empty password on the wire.
		res := runPsql(t, srv, psqlRun{password: "", args: unaligned("SELECT 1")})
		if res.exitCode == 0 {
			t.Fatalf("login accepted; stdout %q", res.stdout)
		}
		if !strings.Contains(res.stderr, "fe_sendauth: no password supplied") {
			t.Errorf("stderr = %q, want libpq's refusal to send an empty password", res.stderr)
		}
	})
	t.Run("pgx/empty password", func(t *testing.T) {
		ctx := testContext(t, 30*time.Second)
		conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, srv, "alice", demoDatabase, "disable", ""))
		if err == nil {
			conn.Close(ctx)
			t.Fatal("login accepted")
		}
		pe := asPgError(t, err)
		if pe.Code != "28P01" || pe.Message != refusedLogin {
			t.Errorf("error = %s %q, want 28P01 %q", pe.Code, pe.Message, refusedLogin)
		}
	})

	serverLog := srv.log()
	if !strings.Contains(serverLog, "login refused") {
		t.Errorf("server log records no refused login:\n%s", serverLog)
	}
	all := append([]string{cliToken, crafted}, tokensOf(tests)...)
	assertNoTokens(t, serverLog, all)
}

// loginCase is a token the server must refuse.
type loginCase struct {
	name  string
	token string
}

func tokensOf(tests []loginCase) []string {
	out := make([]string, len(tests))
	for i, tt := range tests {
		out[i] = tt.token
	}
	return out
}

// assertNoTokens fails if log holds any token, or the signature part of a
// signed one (a token cut short in a log line still leaks it).
func assertNoTokens(t *testing.T, log string, tokens []string) {
	t.Helper()
	for _, tok := range tokens {
		if strings.Contains(log, tok) {
			t.Errorf("server log contains a token (%.20s...)", tok)
			continue
		}
		if parts := strings.Split(tok, "."); len(parts) == 3 && len(parts[2]) >= 16 && strings.Contains(log, parts[2]) {
			t.Errorf("server log contains a token's signature (%.20s...)", tok)
		}
	}
}

func TestHugeTokenIsAccepted(t *testing.T) {
	t.Parallel()
	forge := newTokenForge(t, shared.server.dataDir)
	c := validClaims("alice")
	for i := range 800 {
		c.Groups = append(c.Groups, fmt.Sprintf("org-unit-%04d-with-a-long-group-name", i))
	}
	token := forge.signES256(t, c)
	if len(token) < 16<<10 {
		t.Fatalf("token is %d bytes, want at least 16 KiB", len(token))
	}

	res := mustPsql(t, shared.server, psqlRun{password: token, args: unaligned("SELECT count(*) FROM acdemo.orders")})
	if got := strings.TrimSpace(res.stdout); got != "3" {
		t.Errorf("psql count(*) = %q, want 3", got)
	}

	ctx := testContext(t, 30*time.Second)
	conn := connect(t, ctx, shared.server, token)
	var n int64
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM acdemo.orders").Scan(&n); err != nil {
		t.Fatalf("pgx count(*): %v", err)
	}
	if n != 3 {
		t.Errorf("pgx count(*) = %d, want 3", n)
	}
	assertNoTokens(t, shared.server.log(), []string{token, shared.token})
}

func TestUnknownDatabase(t *testing.T) {
	t.Parallel()
	const want = `database "nope" does not exist`

	res := runPsql(t, shared.server, psqlRun{dbname: "nope", password: shared.token, args: unaligned("SELECT 1")})
	if res.exitCode == 0 {
		t.Fatalf("psql connected to database nope; stdout %q", res.stdout)
	}
	if !strings.Contains(res.stderr, "FATAL:  "+want) {
		t.Errorf("psql stderr = %q, want FATAL %s", res.stderr, want)
	}

	ctx := testContext(t, 30*time.Second)
	conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, shared.server, "alice", "nope", "disable", shared.token))
	if err == nil {
		conn.Close(ctx)
		t.Fatal("pgx connected to database nope")
	}
	pe := asPgError(t, err)
	if pe.Severity != "FATAL" || pe.Code != "3D000" || pe.Message != want {
		t.Errorf("pgx error = %s %s %q, want FATAL 3D000 %q", pe.Severity, pe.Code, pe.Message, want)
	}
}
