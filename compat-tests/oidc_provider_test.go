package compattests

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// The tests of this file log in with tokens from a real OpenID provider,
// Ory Hydra (hydra_helper_test.go), driven through its authorization code
// flow as a browser, login app and consent app would. SQE is configured
// the way an operator would configure it for Hydra: the issuer URL, the
// audience and the claim names, nothing else. Hydra writes what the
// consent app puts into the session's access_token part under the "ext"
// claim of its JWT access tokens (unless oauth2.allowed_top_level_claims
// lifts names to the top level), so the roles and groups claims are
// ext.roles and ext.groups; the user is the subject, which SQE takes
// when the token has no preferred_username.

// hydraRolesClaim and hydraGroupsClaim are where Hydra's JWT access
// tokens carry the consent session's roles and groups.
const (
	hydraRolesClaim  = "ext.roles"
	hydraGroupsClaim = "ext.groups"
)

// oidcEnv configures SQE to trust Hydra h with audience "sqe".
func oidcEnv(h *hydra, extra ...string) []string {
	return append([]string{
		"SQE_AUTH__ISSUER=" + h.issuer,
		"SQE_AUTH__AUDIENCE=sqe",
		"SQE_AUTH__ROLES_CLAIM=" + hydraRolesClaim,
		"SQE_AUTH__GROUPS_CLAIM=" + hydraGroupsClaim,
	}, extra...)
}

// startOIDCServer starts a private SQE trusting h.
func startOIDCServer(t *testing.T, h *hydra, demo bool, extra ...string) *server {
	t.Helper()
	return startTestServerIn(t, filepath.Join(t.TempDir(), "data"), demo, oidcEnv(h, extra...)...)
}

// userToken is a Hydra token for user with the given roles and groups.
func userToken(t *testing.T, h *hydra, c hydraClient, user string, roles, groups []string) string {
	t.Helper()
	claims := map[string]any{}
	if roles != nil {
		claims["roles"] = roles
	}
	if groups != nil {
		claims["groups"] = groups
	}
	return h.accessToken(t, c, tokenRequest{subject: user, claims: claims})
}

// pgxLogin opens a pgx connection as user with token and closes it when
// the test ends.
func pgxLogin(t *testing.T, s *server, user, token string) *pgx.Conn {
	t.Helper()
	ctx := testContext(t, 30*time.Second)
	return connectConfig(t, ctx, pgxConfig(t, s, user, demoDatabase, "disable", token))
}

// assertLoginRefused checks that both psql and pgx are refused with the
// message PostgreSQL gives for a wrong password, FATAL 28P01.
func assertLoginRefused(t *testing.T, s *server, user, token string) {
	t.Helper()
	want := `password authentication failed for user "` + user + `"`
	res := runPsql(t, s, psqlRun{user: user, password: token, args: unaligned("SELECT 1")})
	if res.exitCode == 0 {
		t.Errorf("psql: login accepted; stdout %q", res.stdout)
	} else if !strings.Contains(res.stderr, "FATAL:  "+want) {
		t.Errorf("psql stderr = %q, want FATAL %s", res.stderr, want)
	}
	ctx := testContext(t, 30*time.Second)
	conn, err := pgx.ConnectConfig(ctx, pgxConfig(t, s, user, demoDatabase, "disable", token))
	if err == nil {
		conn.Close(ctx)
		t.Errorf("pgx: login accepted")
		return
	}
	pe := asPgError(t, err)
	if pe.Severity != "FATAL" || pe.Code != "28P01" || pe.Message != want {
		t.Errorf("pgx error = %s %s %q, want FATAL 28P01 %q", pe.Severity, pe.Code, pe.Message, want)
	}
}

// assertCurrentUser checks that a pgx login with token is user.
func assertCurrentUser(t *testing.T, s *server, user, token string) {
	t.Helper()
	conn := pgxLogin(t, s, user, token)
	var got string
	if err := conn.QueryRow(testContext(t, 30*time.Second), "SELECT current_user").Scan(&got); err != nil {
		t.Fatalf("SELECT current_user: %v", err)
	}
	if got != user {
		t.Errorf("current_user = %q, want %q", got, user)
	}
}

// TestOIDCProviderDiscovery: given only Hydra's issuer URL, the audience
// and the claim names, SQE finds the keys through discovery and logs a
// Hydra user in. The token is checked first to hold what the claim
// configuration assumes of Hydra.
func TestOIDCProviderDiscovery(t *testing.T) {
	t.Parallel()
	h := startHydra(t)
	c := h.createClient(t, hydraClientSpec{})
	token := userToken(t, h, c, "alice", []string{"analyst"}, []string{"finance"})

	var discovered struct {
		Issuer  string `json:"issuer"`
		JWKSURI string `json:"jwks_uri"`
	}
	getJSON(t, h.issuer+"/.well-known/openid-configuration", &discovered)
	if discovered.Issuer != h.issuer || discovered.JWKSURI == "" {
		t.Fatalf("discovery document names issuer %q and jwks_uri %q; want issuer %q and a jwks_uri", discovered.Issuer, discovered.JWKSURI, h.issuer)
	}

	header, payload := jwtParts(t, token)
	if header["alg"] != "RS256" || header["kid"] == "" {
		t.Errorf("token header = %v, want alg RS256 and a kid", header)
	}
	ext, _ := payload["ext"].(map[string]any)
	checks := []struct {
		name      string
		got, want any
	}{
		{"iss", payload["iss"], h.issuer},
		{"sub", payload["sub"], "alice"},
		{"aud", payload["aud"], []any{"sqe"}},
		{"ext.roles", ext["roles"], []any{"analyst"}},
		{"ext.groups", ext["groups"], []any{"finance"}},
		{"top-level roles", payload["roles"], nil},
		{"preferred_username", payload["preferred_username"], nil},
	}
	for _, ck := range checks {
		if !jsonEqual(ck.got, ck.want) {
			t.Errorf("Hydra's access token: %s = %v, want %v", ck.name, ck.got, ck.want)
		}
	}

	srv := startOIDCServer(t, h, false)
	conn := pgxLogin(t, srv, "alice", token)
	var user string
	if err := conn.QueryRow(testContext(t, 30*time.Second), "SELECT current_user").Scan(&user); err != nil {
		t.Fatalf("SELECT current_user: %v", err)
	}
	if user != "alice" {
		t.Errorf("current_user = %q, want alice", user)
	}
	if !strings.Contains(srv.log(), "OIDC issuer discovered") {
		t.Errorf("server log does not record the discovery:\n%s", srv.log())
	}
	assertNoTokens(t, srv.log(), []string{token})
}

// TestOIDCProviderRolesAndGroups: the roles and groups of Hydra tokens,
// read from the configured claims, decide what psql and pgx sessions
// see. The users are unknown to the demo's governance store, so every
// role and group they hold is the token's: the analyst role opens the
// demo table (gate one), the engineer role brings the demo's row filter
// and mask (gate two), a group brings a mask an administrator creates for
// it, and an administrator role from the token lets that administrator
// create it.
func TestOIDCProviderRolesAndGroups(t *testing.T) {
	t.Parallel()
	h := startHydra(t)
	c := h.createClient(t, hydraClientSpec{})
	srv := startOIDCServer(t, h, true)

	admin := userToken(t, h, c, "olivia", []string{adminRole}, nil)
	mustPsql(t, srv, psqlRun{user: "olivia", password: admin, args: unaligned(
		"CREATE POLICY oidc_auditors_ssn ON TABLE sales_wh.acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO GROUP auditors ON COLUMN ssn")})

	const query = "SELECT id, region, ssn FROM sales_wh.acdemo.orders ORDER BY id"
	raw := []string{"1|EU|111-11-1111", "2|US|222-22-2222", "3|EU|333-33-3333"}
	masked := []string{"1|EU|xxx-xx-1111", "2|US|xxx-xx-2222", "3|EU|xxx-xx-3333"}
	engineer := []string{"1|EU|xxx-xx-1111", "3|EU|xxx-xx-3333"}
	tests := []struct {
		user          string
		roles, groups []string
		want          []string // rows as psql prints them unaligned
		wantCode      string   // or the SQLSTATE of the refusal
		wantMessage   string
	}{
		{user: "erin", roles: []string{"analyst"}, want: raw},
		{user: "gina", roles: []string{"analyst"}, groups: []string{"auditors"}, want: masked},
		{user: "hank", roles: []string{"analyst", "engineer"}, want: engineer},
		{user: "ivan", roles: []string{"analyst"}, groups: []string{"finance"}, want: raw},
		{user: "frank", wantCode: "42P01", wantMessage: `relation "sales_wh.acdemo.orders" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.user, func(t *testing.T) {
			token := userToken(t, h, c, tt.user, tt.roles, tt.groups)

			t.Run("psql", func(t *testing.T) {
				res := runPsql(t, srv, psqlRun{user: tt.user, password: token,
					args: []string{"-A", "-t", "-F", "|", "-c", "SELECT current_user", "-c", query}})
				got := lines(res.stdout)
				if len(got) == 0 || got[0] != tt.user {
					t.Fatalf("psql: current_user lines %q, want %q first; stderr %q", got, tt.user, res.stderr)
				}
				if tt.wantCode != "" {
					if res.exitCode == 0 || !strings.Contains(res.stderr, "ERROR:  "+tt.wantMessage) {
						t.Errorf("psql exited %d, stdout %q, stderr %q; want ERROR %s", res.exitCode, res.stdout, res.stderr, tt.wantMessage)
					}
					return
				}
				if res.exitCode != 0 || !slices.Equal(got[1:], tt.want) {
					t.Errorf("psql exited %d, rows %q, stderr %q; want %q", res.exitCode, got[1:], res.stderr, tt.want)
				}
			})

			t.Run("pgx", func(t *testing.T) {
				conn := pgxLogin(t, srv, tt.user, token)
				ctx := testContext(t, 30*time.Second)
				var user string
				if err := conn.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil || user != tt.user {
					t.Fatalf("SELECT current_user = %q, %v; want %q", user, err, tt.user)
				}
				rows, err := conn.Query(ctx, query)
				var got []string
				if err == nil {
					for rows.Next() {
						var id int64
						var region, ssn string
						if err := rows.Scan(&id, &region, &ssn); err != nil {
							t.Fatalf("scan: %v", err)
						}
						got = append(got, strings.Join([]string{strconv.FormatInt(id, 10), region, ssn}, "|"))
					}
					err = rows.Err()
				}
				if tt.wantCode != "" {
					if err == nil {
						t.Fatalf("query answered %q, want %s", got, tt.wantCode)
					}
					if pe := asPgError(t, err); pe.Code != tt.wantCode || pe.Message != tt.wantMessage {
						t.Errorf("error = %s %q, want %s %q", pe.Code, pe.Message, tt.wantCode, tt.wantMessage)
					}
					return
				}
				if err != nil {
					t.Fatalf("query: %v", err)
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("rows = %q, want %q", got, tt.want)
				}
			})
		})
	}
}

// TestOIDCProviderKeyRotation rotates Hydra's access-token signing key
// while SQE runs: a new key is created in the key set and the old one
// deleted. Once SQE's keys are older than auth.keys_max_age_secs (one
// second here) the old key's tokens are refused, though no token has yet
// named the new key; the new key's tokens log in, without a restart.
func TestOIDCProviderKeyRotation(t *testing.T) {
	t.Parallel()
	h := startHydra(t)
	c := h.createClient(t, hydraClientSpec{})
	srv := startOIDCServer(t, h, false, "SQE_AUTH__KEYS_MAX_AGE_SECS=1")

	oldToken := userToken(t, h, c, "alice", []string{"analyst"}, nil)
	oldHeader, _ := jwtParts(t, oldToken)
	oldKID, _ := oldHeader["kid"].(string)
	if oldKID == "" {
		t.Fatalf("token header %v names no kid", oldHeader)
	}
	assertCurrentUser(t, srv, "alice", oldToken)

	newKID := "sqe-rotated-" + randomString(t)[:8]
	h.createAccessTokenKey(t, newKID)
	h.deleteAccessTokenKey(t, oldKID)
	if kids := h.publishedKeyIDs(t); !slices.Contains(kids, newKID) || slices.Contains(kids, oldKID) {
		t.Fatalf("hydra publishes keys %q after the rotation, want %q and not %q", kids, newKID, oldKID)
	}

	// Past the keys' maximum age, the next login fetches them again.
	time.Sleep(1100 * time.Millisecond)
	assertLoginRefused(t, srv, "alice", oldToken)

	newToken := userToken(t, h, c, "alice", []string{"analyst"}, nil)
	if header, _ := jwtParts(t, newToken); header["kid"] != newKID {
		t.Fatalf("hydra signed with kid %v after the rotation, want %q", header["kid"], newKID)
	}
	assertCurrentUser(t, srv, "alice", newToken)
	assertLoginRefused(t, srv, "alice", oldToken)

	if !strings.Contains(srv.log(), "login refused") {
		t.Errorf("server log records no refused login:\n%s", srv.log())
	}
	assertNoTokens(t, srv.log(), []string{oldToken, newToken})
}

// TestOIDCProviderTokenExpiry uses a client whose Hydra tokens live a few
// seconds, a server with no clock skew and a short grace: a session
// opened before the expiry runs statements until the grace is over and
// then ends with FATAL 28000; a login with the expired token is refused
// with 28P01.
func TestOIDCProviderTokenExpiry(t *testing.T) {
	t.Parallel()
	const (
		lifespan = 6 * time.Second
		grace    = 3 * time.Second
	)
	h := startHydra(t)
	c := h.createClient(t, hydraClientSpec{accessTokenLifespan: lifespan.String()})
	srv := startOIDCServer(t, h, false, "SQE_AUTH__CLOCK_SKEW=0s", "SQE_SESSION__TOKEN_EXPIRY_GRACE_SECS=3")

	token := userToken(t, h, c, "alice", []string{"analyst"}, nil)
	_, payload := jwtParts(t, token)
	exp, _ := payload["exp"].(float64)
	iat, _ := payload["iat"].(float64)
	// Hydra rounds exp and iat to seconds separately: one second either
	// way is the lifespan.
	if got := time.Duration(exp-iat) * time.Second; got < lifespan-time.Second || got > lifespan+time.Second {
		t.Fatalf("token lives %s (iat %.0f, exp %.0f), want the client's lifespan %s", got, iat, exp, lifespan)
	}
	expiry := time.Unix(int64(exp), 0)

	conn := pgxLogin(t, srv, "alice", token)
	if time.Now().After(expiry) {
		t.Fatalf("the token expired before the session opened; the machine is too slow for a %s lifespan", lifespan)
	}
	ctx := testContext(t, 60*time.Second)
	assertSelectOne(t, ctx, conn)

	// Past the expiry, within the grace: the open session goes on, a new
	// login is refused.
	sleepUntil(expiry.Add(time.Second))
	assertSelectOne(t, ctx, conn)
	assertLoginRefused(t, srv, "alice", token)

	// Past the grace: the session's next statement ends it.
	sleepUntil(expiry.Add(grace + time.Second))
	var one int32
	err := conn.QueryRow(ctx, "SELECT 1").Scan(&one)
	if err == nil {
		t.Fatal("SELECT 1 answered past the token's expiry and grace")
	}
	pe := asPgError(t, err)
	if pe.Severity != "FATAL" || pe.Code != "28000" || pe.Message != "terminating connection because the session's token has expired" {
		t.Errorf("error = %s %s %q, want FATAL 28000 terminating connection because the session's token has expired", pe.Severity, pe.Code, pe.Message)
	}
	assertNoTokens(t, srv.log(), []string{token})
}

// TestOIDCProviderWrongAudience: a Hydra token granted for another
// audience of the same client is refused; the same flow with audience
// "sqe" logs in.
func TestOIDCProviderWrongAudience(t *testing.T) {
	t.Parallel()
	h := startHydra(t)
	c := h.createClient(t, hydraClientSpec{audiences: []string{"sqe", "reporting"}})
	srv := startOIDCServer(t, h, false)

	claims := map[string]any{"roles": []string{"analyst"}}
	other := h.accessToken(t, c, tokenRequest{subject: "alice", audience: "reporting", claims: claims})
	if _, payload := jwtParts(t, other); !jsonEqual(payload["aud"], []any{"reporting"}) {
		t.Fatalf("token aud = %v, want [reporting]", payload["aud"])
	}
	right := h.accessToken(t, c, tokenRequest{subject: "alice", audience: "sqe", claims: claims})
	assertCurrentUser(t, srv, "alice", right)
	assertLoginRefused(t, srv, "alice", other)
	assertNoTokens(t, srv.log(), []string{other, right})
}

// TestOIDCProviderOtherIssuer: a token from a second Hydra, for the same
// user and audience, is refused by a server that trusts the first.
func TestOIDCProviderOtherIssuer(t *testing.T) {
	t.Parallel()
	trusted, other := startHydra(t), startHydra(t)
	srv := startOIDCServer(t, trusted, false)

	good := userToken(t, trusted, trusted.createClient(t, hydraClientSpec{}), "alice", []string{"analyst"}, nil)
	foreign := userToken(t, other, other.createClient(t, hydraClientSpec{}), "alice", []string{"analyst"}, nil)
	if _, payload := jwtParts(t, foreign); payload["iss"] != other.issuer {
		t.Fatalf("second Hydra's token iss = %v, want %q", payload["iss"], other.issuer)
	}
	assertCurrentUser(t, srv, "alice", good)
	assertLoginRefused(t, srv, "alice", foreign)
	assertNoTokens(t, srv.log(), []string{good, foreign})
}

// sleepUntil waits until t, the point a check depends on.
func sleepUntil(t time.Time) {
	time.Sleep(time.Until(t))
}

// jsonEqual compares decoded JSON values.
func jsonEqual(got, want any) bool {
	a, errA := json.Marshal(got)
	b, errB := json.Marshal(want)
	return errA == nil && errB == nil && string(a) == string(b)
}
