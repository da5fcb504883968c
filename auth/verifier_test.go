package auth

import (
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestMintVerifyRoundTrip(t *testing.T) {
	iss := newTestIssuer(t)
	tests := []struct {
		name       string
		cfg        Config
		req        TokenRequest
		wantRoles  []string
		wantGroups []string
	}{
		{
			name: "user only",
			req:  TokenRequest{User: "alice"},
		},
		{
			name:      "roles",
			req:       TokenRequest{User: "alice", Roles: []string{"analyst", "engineer"}},
			wantRoles: []string{"analyst", "engineer"},
		},
		{
			name:      "groups ignored without groups claim",
			req:       TokenRequest{User: "bob", Roles: []string{"analyst"}, Groups: []string{"sales"}},
			wantRoles: []string{"analyst"},
		},
		{
			name:       "groups mapped with groups claim",
			cfg:        Config{GroupsClaim: "groups"},
			req:        TokenRequest{User: "bob", Groups: []string{"sales", "emea"}},
			wantGroups: []string{"sales", "emea"},
		},
		{
			name: "custom audience",
			cfg:  Config{Audience: "warehouse"},
			req:  TokenRequest{User: "carol", Audience: "warehouse"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEmbeddedVerifier(t, tc.cfg, iss)
			token, err := iss.Mint(tc.req)
			if err != nil {
				t.Fatalf("Mint: %v", err)
			}
			before := time.Now()
			id, err := v.Verify(t.Context(), token, tc.req.User)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if id.User != tc.req.User || id.Token != token {
				t.Errorf("identity user=%q tokenMatches=%v", id.User, id.Token == token)
			}
			if !slices.Equal(id.Roles, tc.wantRoles) {
				t.Errorf("roles = %v, want %v", id.Roles, tc.wantRoles)
			}
			if !slices.Equal(id.Groups, tc.wantGroups) {
				t.Errorf("groups = %v, want %v", id.Groups, tc.wantGroups)
			}
			if d := id.Expiry.Sub(before); d < 59*time.Minute || d > 61*time.Minute {
				t.Errorf("expiry %v is %v from now, want about an hour", id.Expiry, d)
			}
		})
	}
}

func TestVerifyRefusals(t *testing.T) {
	iss := newTestIssuer(t)
	other := newTestIssuer(t)
	now := time.Now()
	good := validClaims("alice", now)

	pubDER, err := x509.MarshalPKIXPublicKey(iss.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	pubPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER})

	es256 := func(claims map[string]any) string {
		return signJWT(t, jose.ES256, iss.key, iss.KeyID(), claims)
	}
	minted, err := iss.Mint(TokenRequest{User: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	// Keep a valid header and payload but sign with another key.
	forged := func() string {
		otherSig := strings.Split(signJWT(t, jose.ES256, other.key, iss.KeyID(), good), ".")
		mine := strings.Split(es256(good), ".")
		return mine[0] + "." + mine[1] + "." + otherSig[2]
	}

	tests := []struct {
		name        string
		token       string
		startupUser string
		wantReason  string
	}{
		{"empty token", "", "alice", "empty token"},
		{"garbage", "not-a-jwt", "alice", "malformed"},
		{"alg none", unsignedJWT(t, good), "alice", "malformed"},
		{"HS256 with public key PEM", signJWT(t, jose.HS256, pubPEM, iss.KeyID(), good), "alice", "malformed"},
		{"HS256 with public key DER", signJWT(t, jose.HS256, pubDER, iss.KeyID(), good), "alice", "malformed"},
		{"signed by another key", signJWT(t, jose.ES256, other.key, other.KeyID(), good), "alice", "signature"},
		{"signature swapped from another key", forged(), "alice", "signature"},
		{"ES384 not allowed for embedded", signJWT(t, jose.ES384, newP384Key(t), "", good), "alice", "malformed"},
		{"expired", es256(with(good, map[string]any{"exp": now.Add(-time.Minute).Unix()})), "alice", "expired"},
		{"no exp", es256(with(good, map[string]any{"exp": nil})), "alice", "no exp claim"},
		{"nbf in the future", es256(with(good, map[string]any{"nbf": now.Add(2 * time.Minute).Unix()})), "alice", "not valid before"},
		{"wrong audience", es256(with(good, map[string]any{"aud": "someone-else"})), "alice", "audience"},
		{"no audience", es256(with(good, map[string]any{"aud": nil})), "alice", "audience"},
		{"wrong issuer", es256(with(good, map[string]any{"iss": "https://evil.example"})), "alice", "issued by a different provider"},
		{"user mismatch", minted, "bob", `not startup user "bob"`},
		{"user differs in case", minted, "Alice", `not startup user "Alice"`},
		{"no user claims", es256(with(good, map[string]any{"sub": nil, "preferred_username": nil})), "alice", "names no user"},
		{"empty preferred_username", es256(with(good, map[string]any{"preferred_username": ""})), "alice", "names no user"},
		{"non-string user", es256(with(good, map[string]any{"preferred_username": 42})), "alice", "want string"},
		{"malformed roles", es256(with(good, map[string]any{"roles": map[string]any{"a": 1}})), "alice", "map roles"},
		{"truncated", minted[:len(minted)-10], "alice", ""},
	}
	v := newEmbeddedVerifier(t, Config{}, iss)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, err := v.Verify(t.Context(), tc.token, tc.startupUser)
			if err == nil {
				t.Fatalf("Verify accepted the token: %v", id)
			}
			if !errors.Is(err, ErrAuthenticationFailed) {
				t.Errorf("error %v does not wrap ErrAuthenticationFailed", err)
			}
			if !strings.Contains(err.Error(), tc.wantReason) {
				t.Errorf("error %q does not give reason %q", err, tc.wantReason)
			}
			assertNoTokenIn(t, err.Error(), tc.token)
			if id.User != "" || id.Token != "" {
				t.Errorf("refusal returned a non-empty identity %v", id)
			}
			// A bearer token is held to every check but the startup user's.
			if strings.Contains(tc.wantReason, "startup user") {
				return
			}
			if id, err := v.VerifyBearer(t.Context(), tc.token); err == nil || !errors.Is(err, ErrAuthenticationFailed) {
				t.Errorf("VerifyBearer = %v, %v; want a refusal", id, err)
			}
		})
	}
}

// VerifyBearer takes the user from the token itself, with its roles.
func TestVerifyBearer(t *testing.T) {
	iss := newTestIssuer(t)
	v := newEmbeddedVerifier(t, Config{}, iss)
	token, err := iss.Mint(TokenRequest{User: "alice", Roles: []string{"sqe_admin"}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := v.VerifyBearer(t.Context(), token)
	if err != nil {
		t.Fatalf("VerifyBearer: %v", err)
	}
	if id.User != "alice" || !slices.Equal(id.Roles, []string{"sqe_admin"}) || id.Token != token {
		t.Errorf("identity = %#v, want alice with role sqe_admin and the token", id)
	}
}

// assertNoTokenIn fails if msg quotes token or any sizeable part of it.
func assertNoTokenIn(t *testing.T, msg, token string) {
	t.Helper()
	if token == "" {
		return
	}
	if strings.Contains(msg, token) {
		t.Fatalf("error message contains the token")
	}
	for _, seg := range strings.Split(token, ".") {
		if len(seg) >= minRedactLen && strings.Contains(msg, seg) {
			t.Fatalf("error message contains a token segment")
		}
	}
}

func TestVerifyClockSkew(t *testing.T) {
	iss := newTestIssuer(t)
	now := time.Now()
	good := validClaims("alice", now)
	tests := []struct {
		name   string
		skew   time.Duration
		claims map[string]any
		ok     bool
	}{
		{"expired within skew", 30 * time.Second, with(good, map[string]any{"exp": now.Add(-10 * time.Second).Unix()}), true},
		{"expired beyond skew", 30 * time.Second, with(good, map[string]any{"exp": now.Add(-time.Minute).Unix()}), false},
		{"nbf within skew", 30 * time.Second, with(good, map[string]any{"nbf": now.Add(10 * time.Second).Unix()}), true},
		// go-oidc alone tolerates nbf up to five minutes ahead; the skew is stricter.
		{"nbf beyond skew", 30 * time.Second, with(good, map[string]any{"nbf": now.Add(2 * time.Minute).Unix()}), false},
		{"nbf ahead without skew", 0, with(good, map[string]any{"nbf": now.Add(5 * time.Second).Unix()}), false},
		{"negative skew counts as zero", -time.Hour, good, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEmbeddedVerifier(t, Config{ClockSkew: tc.skew}, iss)
			v.now = func() time.Time { return now }
			token := signJWT(t, jose.ES256, iss.key, iss.KeyID(), tc.claims)
			_, err := v.Verify(t.Context(), token, "alice")
			if (err == nil) != tc.ok {
				t.Fatalf("Verify error = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestVerifyLargeToken(t *testing.T) {
	iss := newTestIssuer(t)
	groups := make([]string, 800)
	for i := range groups {
		groups[i] = fmt.Sprintf("/org/department-%04d/team", i)
	}
	token, err := iss.Mint(TokenRequest{User: "alice", Groups: groups})
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	if len(token) < 16<<10 {
		t.Fatalf("token is %d bytes; the test needs at least 16 KiB", len(token))
	}
	v := newEmbeddedVerifier(t, Config{GroupsClaim: "groups"}, iss)
	id, err := v.Verify(t.Context(), token, "alice")
	if err != nil {
		t.Fatalf("Verify of a %d byte token: %v", len(token), err)
	}
	if !slices.Equal(id.Groups, groups) {
		t.Errorf("got %d groups, want %d", len(id.Groups), len(groups))
	}
}

func TestVerifyKeycloakClaims(t *testing.T) {
	iss := newTestIssuer(t)
	raw, err := os.ReadFile("testdata/keycloak_claims.json")
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(raw, &claims); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims["iss"] = EmbeddedIssuerURL
	claims["iat"] = now.Unix()
	claims["exp"] = now.Add(5 * time.Minute).Unix()
	token := signJWT(t, jose.ES256, iss.key, iss.KeyID(), claims)

	tests := []struct {
		name       string
		cfg        Config
		wantRoles  []string
		wantGroups []string
	}{
		{
			name:       "realm roles",
			cfg:        Config{RolesClaim: "realm_access.roles", GroupsClaim: "groups"},
			wantRoles:  []string{"offline_access", "analyst", "uma_authorization"},
			wantGroups: []string{"/sales", "/sales/emea"},
		},
		{
			name:      "client roles",
			cfg:       Config{RolesClaim: "resource_access.account.roles"},
			wantRoles: []string{"manage-account", "view-profile"},
		},
		{
			name: "default roles claim absent",
			cfg:  Config{},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEmbeddedVerifier(t, tc.cfg, iss)
			id, err := v.Verify(t.Context(), token, "alice")
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if !slices.Equal(id.Roles, tc.wantRoles) {
				t.Errorf("roles = %v, want %v", id.Roles, tc.wantRoles)
			}
			if !slices.Equal(id.Groups, tc.wantGroups) {
				t.Errorf("groups = %v, want %v", id.Groups, tc.wantGroups)
			}
		})
	}
}

func TestVerifyUserClaimFallback(t *testing.T) {
	iss := newTestIssuer(t)
	good := validClaims("alice", time.Now())
	tests := []struct {
		name     string
		cfg      Config
		claims   map[string]any
		wantUser string
	}{
		{"preferred_username", Config{}, with(good, map[string]any{"sub": "uuid-1"}), "alice"},
		{"falls back to sub", Config{}, with(good, map[string]any{"preferred_username": nil, "sub": "alice"}), "alice"},
		{"configured claim", Config{UserClaim: "email"}, with(good, map[string]any{"email": "alice@example.com"}), "alice@example.com"},
		{"configured claim absent falls back to sub", Config{UserClaim: "email"}, with(good, map[string]any{"sub": "alice"}), "alice"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEmbeddedVerifier(t, tc.cfg, iss)
			token := signJWT(t, jose.ES256, iss.key, iss.KeyID(), tc.claims)
			id, err := v.Verify(t.Context(), token, tc.wantUser)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if id.User != tc.wantUser {
				t.Errorf("user = %q, want %q", id.User, tc.wantUser)
			}
		})
	}
}

func TestNewVerifierConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"embedded mode without issuer", Config{}},
		{"relative issuer URL", Config{Issuer: "keycloak/realms/sqe"}},
		{"unsupported scheme", Config{Issuer: "ftp://idp.example"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewVerifier(t.Context(), tc.cfg, nil, nil); err == nil {
				t.Fatal("NewVerifier accepted the configuration")
			}
		})
	}
}

func TestFailedLogin(t *testing.T) {
	tests := []struct {
		user, want string
	}{
		{"alice", `password authentication failed for user "alice"`},
		{"", `password authentication failed for user ""`},
	}
	for _, tc := range tests {
		e := FailedLogin(tc.user)
		if e.Severity != pgerror.SeverityFatal || e.Code != pgerror.InvalidPassword || e.Message != tc.want {
			t.Errorf("FailedLogin(%q) = %+v", tc.user, e)
		}
		if e.Detail != "" || e.Hint != "" {
			t.Errorf("FailedLogin(%q) discloses detail %q / hint %q", tc.user, e.Detail, e.Hint)
		}
	}
}

func TestIdentityFormattingHidesToken(t *testing.T) {
	id := Identity{User: "alice", Token: "eyJhbGciOiJFUzI1NiJ9.secret-payload.signature"}
	for _, s := range []string{fmt.Sprint(id), fmt.Sprintf("%v", id), fmt.Sprintf("%s", id), fmt.Sprintf("%+v", id), fmt.Sprintf("%#v", id), id.LogValue().String()} {
		if strings.Contains(s, "secret-payload") {
			t.Errorf("formatted identity %q contains the token", s)
		}
		if !strings.Contains(s, "alice") {
			t.Errorf("formatted identity %q lacks the user", s)
		}
	}
}
