package auth

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// fakeProvider is a minimal OIDC provider: a discovery document and a JWKS
// whose keys the test can rotate.
type fakeProvider struct {
	t         *testing.T
	issuer    string
	jwksHits  atomic.Int32
	discoHits atomic.Int32

	mu   sync.Mutex
	keys []jose.JSONWebKey // public halves served in the JWKS
}

func newFakeProvider(t *testing.T, issuer string) *fakeProvider {
	return &fakeProvider{t: t, issuer: issuer}
}

func (p *fakeProvider) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/openid-configuration":
		p.discoHits.Add(1)
		writeJSON(w, map[string]any{
			"issuer":                                p.issuer,
			"jwks_uri":                              p.issuer + "/jwks",
			"authorization_endpoint":                p.issuer + "/auth",
			"token_endpoint":                        p.issuer + "/token",
			"id_token_signing_alg_values_supported": []string{"RS256"},
		})
	case "/jwks":
		p.jwksHits.Add(1)
		p.mu.Lock()
		set := jose.JSONWebKeySet{Keys: slices.Clone(p.keys)}
		p.mu.Unlock()
		writeJSON(w, set)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// rsaSigner is one of the provider's signing keys.
type rsaSigner struct {
	key *rsa.PrivateKey
	kid string
}

func newRSASigner(t *testing.T, kid string) rsaSigner {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatalf("generate RSA key: %v", err)
	}
	return rsaSigner{key: key, kid: kid}
}

// publish replaces the JWKS with the given keys.
func (p *fakeProvider) publish(signers ...rsaSigner) {
	keys := make([]jose.JSONWebKey, 0, len(signers))
	for _, s := range signers {
		keys = append(keys, jose.JSONWebKey{Key: &s.key.PublicKey, KeyID: s.kid, Algorithm: "RS256", Use: "sig"})
	}
	p.mu.Lock()
	p.keys = keys
	p.mu.Unlock()
}

func (p *fakeProvider) token(s rsaSigner, user string, extra map[string]any) string {
	now := time.Now()
	claims := map[string]any{
		"iss":                p.issuer,
		"sub":                "id-" + user,
		"preferred_username": user,
		"aud":                []string{"sqe", "account"},
		"iat":                now.Unix(),
		"exp":                now.Add(10 * time.Minute).Unix(),
	}
	for k, v := range extra {
		claims[k] = v
	}
	return signJWT(p.t, jose.RS256, s.key, s.kid, claims)
}

// startProvider serves p on a 127.0.0.1 listener for the rest of the test.
func startProvider(t *testing.T, l net.Listener, p http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(p)
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

func listenLoopback(t *testing.T, addr string) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen %s: %v", addr, err)
	}
	return l
}

// jwksCacheSettle is how long a test waits for go-oidc to store fetched keys.
const jwksCacheSettle = 100 * time.Millisecond

func TestExternalIssuerKeyRotation(t *testing.T) {
	l := listenLoopback(t, "127.0.0.1:0")
	p := newFakeProvider(t, "http://"+l.Addr().String())
	first := newRSASigner(t, "key-1")
	second := newRSASigner(t, "key-2") // published only mid-test
	p.publish(first)
	startProvider(t, l, p)

	v, err := NewVerifier(t.Context(), Config{Issuer: p.issuer, RolesClaim: "realm_access.roles"}, nil, nil)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}

	steps := []struct {
		name         string
		before       func()
		token        func() string
		ok           bool
		wantJWKSHits int32
	}{
		{
			name: "first login fetches the JWKS",
			token: func() string {
				return p.token(first, "alice", map[string]any{"realm_access": map[string]any{"roles": []string{"analyst"}}})
			},
			ok:           true,
			wantJWKSHits: 1,
		},
		{
			name:         "known kid is served from cache",
			token:        func() string { return p.token(first, "alice", nil) },
			ok:           true,
			wantJWKSHits: 1,
		},
		{
			name:         "rotated kid triggers a refetch",
			before:       func() { p.publish(second) },
			token:        func() string { return p.token(second, "alice", nil) },
			ok:           true,
			wantJWKSHits: 2,
		},
		{
			name:         "retired key is refused after refetch",
			token:        func() string { return p.token(first, "alice", nil) },
			ok:           false,
			wantJWKSHits: 3,
		},
		{
			name:         "HS256 with the JWKS key is refused",
			token:        func() string { return hs256WithRSAPublic(t, p, first) },
			ok:           false,
			wantJWKSHits: 3,
		},
		{
			name:         "wrong audience is refused",
			token:        func() string { return p.token(second, "alice", map[string]any{"aud": "other"}) },
			ok:           false,
			wantJWKSHits: 3,
		},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		token := s.token()
		id, err := v.Verify(t.Context(), token, "alice")
		if (err == nil) != s.ok {
			t.Fatalf("%s: Verify error = %v, want ok=%v (JWKS fetched %d times)", s.name, err, s.ok, p.jwksHits.Load())
		}
		assertVerifiedAlice(t, s.name, id, err, token)
		if got := p.jwksHits.Load(); got != s.wantJWKSHits {
			t.Errorf("%s: JWKS fetched %d times, want %d", s.name, got, s.wantJWKSHits)
		}
		// go-oidc wakes the waiting login before its fetch goroutine stores
		// the new keys in the cache; let it finish so the next step sees
		// the cache this step produced.
		time.Sleep(jwksCacheSettle)
	}
	if got := p.discoHits.Load(); got != 1 {
		t.Errorf("discovery ran %d times, want once", got)
	}
}

// TestExternalIssuerKeysMaxAge: a key the provider stops publishing is
// trusted only until the keys are older than KeysMaxAge, even when no
// token names a new key; past that age the next login discovers the
// provider again. While the provider is down the last keys are kept.
func TestExternalIssuerKeysMaxAge(t *testing.T) {
	l := listenLoopback(t, "127.0.0.1:0")
	p := newFakeProvider(t, "http://"+l.Addr().String())
	first, second := newRSASigner(t, "key-1"), newRSASigner(t, "key-2")
	p.publish(first)
	var down atomic.Bool
	startProvider(t, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		p.ServeHTTP(w, r)
	}))
	v, err := NewVerifier(t.Context(), Config{Issuer: p.issuer, KeysMaxAge: time.Minute}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := v.source.(*discovery)
	var clock atomic.Int64
	start := time.Now()
	d.mu.Lock()
	d.now = func() time.Time { return start.Add(time.Duration(clock.Load())) }
	d.discoveredAt = d.now()
	d.mu.Unlock()
	verify := func(step string, s rsaSigner, ok bool) {
		t.Helper()
		_, err := v.Verify(t.Context(), p.token(s, "alice", nil), "alice")
		if (err == nil) != ok {
			t.Fatalf("%s: Verify error = %v, want ok=%v", step, err, ok)
		}
		time.Sleep(jwksCacheSettle)
	}
	verify("the first key", first, true)
	p.publish(second)
	verify("a removed key, within the keys' age", first, true)

	// The provider is down when the keys age out: the last keys stay.
	clock.Add(int64(2 * time.Minute))
	down.Store(true)
	verify("a removed key while the provider is down", first, true)
	down.Store(false)
	clock.Add(int64(time.Minute)) // past the retry interval too
	verify("a removed key once the provider is back", first, false)
	verify("the provider's current key", second, true)
	if got := p.discoHits.Load(); got != 2 {
		t.Errorf("discovery ran %d times, want twice (at start, and once the keys aged out)", got)
	}
}

// hs256WithRSAPublic forges a token "signed" with HS256 using the
// provider's public key bytes as the shared secret.
func hs256WithRSAPublic(t *testing.T, p *fakeProvider, s rsaSigner) string {
	t.Helper()
	pub, err := json.Marshal(jose.JSONWebKey{Key: &s.key.PublicKey, KeyID: s.kid})
	if err != nil {
		t.Fatal(err)
	}
	return signJWT(t, jose.HS256, pub, s.kid, map[string]any{
		"iss": p.issuer, "preferred_username": "alice", "aud": "sqe",
		"exp": time.Now().Add(time.Minute).Unix(),
	})
}

func TestExternalIssuerDownAtStart(t *testing.T) {
	// Reserve an address, then free it so the issuer is unreachable.
	reserved := listenLoopback(t, "127.0.0.1:0")
	addr := reserved.Addr().String()
	reserved.Close()

	p := newFakeProvider(t, "http://"+addr)
	signer := newRSASigner(t, "key-1")
	p.publish(signer)

	v, err := NewVerifier(t.Context(), Config{Issuer: p.issuer}, nil, nil)
	if err != nil {
		t.Fatalf("NewVerifier with the issuer down: %v", err)
	}
	d := v.source.(*discovery)
	d.retryInterval = 0
	token := p.token(signer, "alice", nil)

	_, err = v.Verify(t.Context(), token, "alice")
	if err == nil || !errors.Is(err, ErrAuthenticationFailed) || !strings.Contains(err.Error(), "discover issuer") {
		t.Fatalf("Verify with the issuer down: error = %v, want a discovery failure", err)
	}
	assertNoTokenIn(t, err.Error(), token)

	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot re-listen on %s: %v", addr, err)
	}
	startProvider(t, l, p)

	id, err := v.Verify(t.Context(), token, "alice")
	if err != nil {
		t.Fatalf("Verify after the issuer came up: %v", err)
	}
	if id.User != "alice" {
		t.Errorf("user = %q", id.User)
	}
	if _, err := v.Verify(t.Context(), token, "alice"); err != nil {
		t.Fatalf("second Verify: %v", err)
	}
	if got := p.discoHits.Load(); got != 1 {
		t.Errorf("discovery ran %d times once up, want once", got)
	}
}

func TestExternalDiscoveryRetryIsThrottled(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "unavailable", http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)

	v, err := NewVerifier(t.Context(), Config{Issuer: srv.URL}, nil, nil)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	d := v.source.(*discovery)
	d.retryInterval = time.Hour

	for i := range 3 {
		if _, err := v.Verify(t.Context(), "a.b.c", "alice"); !errors.Is(err, ErrAuthenticationFailed) {
			t.Fatalf("login %d: error = %v, want a refusal", i, err)
		}
	}
	if got := hits.Load(); got != 1 {
		t.Errorf("discovery requested %d times, want 1 (the start-up attempt only)", got)
	}
}

func TestExternalIssuerMismatchIsRefused(t *testing.T) {
	l := listenLoopback(t, "127.0.0.1:0")
	// The discovery document names a different issuer than configured.
	p := newFakeProvider(t, "http://issuer.invalid")
	startProvider(t, l, p)

	v, err := NewVerifier(t.Context(), Config{Issuer: "http://" + l.Addr().String()}, nil, nil)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	v.source.(*discovery).retryInterval = 0
	_, err = v.Verify(t.Context(), "a.b.c", "alice")
	if !errors.Is(err, ErrAuthenticationFailed) || !strings.Contains(err.Error(), "did not match") {
		t.Fatalf("error = %v, want an issuer mismatch refusal", err)
	}
}

// assertVerifiedAlice checks the outcome of verifying token as alice: a
// refusal wraps ErrAuthenticationFailed and does not quote the token; an
// acceptance is alice.
func assertVerifiedAlice(t *testing.T, name string, id Identity, err error, token string) {
	t.Helper()
	if err != nil {
		if !errors.Is(err, ErrAuthenticationFailed) {
			t.Errorf("%s: %v does not wrap ErrAuthenticationFailed", name, err)
		}
		assertNoTokenIn(t, err.Error(), token)
	} else if id.User != "alice" {
		t.Errorf("%s: user = %q", name, id.User)
	}
}
