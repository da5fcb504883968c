package auth

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/faultproxy"
)

// TestIssuerOutage puts the OIDC provider behind a fault proxy and takes
// it away in each way it can fail: tokens signed with a key already
// fetched keep logging in from the cache, a token naming a key the
// verifier has not seen is refused (its refetch fails), no login waits
// past its own deadline on a provider that hangs, and once the provider
// answers again the new key is fetched and accepted, all on the same
// Verifier.
func TestIssuerOutage(t *testing.T) {
	upstream := listenLoopback(t, "127.0.0.1:0")
	proxy, err := faultproxy.Start(upstream.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	// The issuer users see is the proxy's address.
	p := newFakeProvider(t, proxy.URL())
	known := newRSASigner(t, "key-1")
	rotated := newRSASigner(t, "key-2") // published while the provider is away
	p.publish(known)
	startProvider(t, upstream, p)

	v, err := NewVerifier(t.Context(), Config{Issuer: p.issuer}, nil, nil)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	// loginBound is each login's deadline; a hung provider must not hold
	// a login past it.
	const loginBound = 2 * time.Second
	// asks says whether the login sends the provider a request (a JWKS
	// fetch): only for a key not in the cache.
	steps := []struct {
		name   string
		fault  func()
		signer rsaSigner
		ok     bool
		asks   bool
	}{
		{name: "provider up: first login fetches the keys", fault: proxy.Forward, signer: known, ok: true, asks: true},
		{name: "unreachable: cached key logs in", fault: func() { proxy.Drop(); p.publish(known, rotated) }, signer: known, ok: true},
		{name: "unreachable: unknown key is refused", signer: rotated, asks: true},
		{name: "503: cached key logs in", fault: func() { proxy.Fail(http.StatusServiceUnavailable) }, signer: known, ok: true},
		{name: "503: unknown key is refused", signer: rotated, asks: true},
		{name: "hanging: cached key logs in", fault: proxy.Hang, signer: known, ok: true},
		{name: "hanging: unknown key is refused by the deadline", signer: rotated, asks: true},
		{name: "back: the rotated key is fetched", fault: proxy.Forward, signer: rotated, ok: true, asks: true},
		{name: "back: the first key still logs in", signer: known, ok: true},
	}
	for _, s := range steps {
		if s.fault != nil {
			s.fault()
			// A refetch cut off by the change finishes before the login.
			time.Sleep(jwksCacheSettle)
		}
		accepted := proxy.Accepted()
		token := p.token(s.signer, "alice", nil)
		ctx, cancel := context.WithTimeout(t.Context(), loginBound)
		start := time.Now()
		id, err := v.Verify(ctx, token, "alice")
		took := time.Since(start)
		cancel()
		if (err == nil) != s.ok {
			t.Fatalf("%s: Verify error = %v, want ok=%v", s.name, err, s.ok)
		}
		assertVerifiedAlice(t, s.name, id, err, token)
		// The deadline is the bound; a generous margin keeps a loaded
		// machine from failing the test.
		if took > loginBound+5*time.Second {
			t.Errorf("%s: Verify took %s, past the login's %s deadline", s.name, took, loginBound)
		}
		if asked := proxy.Accepted() > accepted; asked != s.asks {
			t.Errorf("%s: the provider was asked: %t, want %t", s.name, asked, s.asks)
		}
		time.Sleep(jwksCacheSettle)
	}
	if got := p.discoHits.Load(); got != 1 {
		t.Errorf("discovery ran %d times, want once: the outage must not undo it", got)
	}
}
