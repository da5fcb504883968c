package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/pgwire/metrics"
)

// startTestOps starts the HTTP endpoint with profiling on or off, and
// stops it when the test ends.
func startTestOps(t *testing.T, profiling bool) (*opsServer, string) {
	t.Helper()
	ops, err := startOpsServer("127.0.0.1:0", metrics.New().Handler(), profiling, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := ops.shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return ops, "http://" + ops.ln.Addr().String()
}

// testAdminGate is the gate serve builds, over a fresh embedded issuer
// and governance store in which the user "dana" holds sqe_admin through
// a role grant (her tokens carry no role). It returns the issuer to mint
// tokens with.
func testAdminGate(t *testing.T) (*adminGate, *auth.EmbeddedIssuer) {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	iss, err := auth.OpenEmbeddedIssuer(dir)
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := auth.NewVerifier(ctx, auth.Config{ClockSkew: 30 * time.Second}, iss, nil)
	if err != nil {
		t.Fatal(err)
	}
	gov, err := governance.OpenStore(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = gov.Close() })
	if err := gov.CreateRole(ctx, "sqe_admin", true); err != nil {
		t.Fatal(err)
	}
	if err := gov.GrantRole(ctx, "sqe_admin", governance.MemberUser, "dana"); err != nil {
		t.Fatal(err)
	}
	return &adminGate{verifier: verifier, roles: gov, adminRoles: []string{"sqe_admin"},
		limiter: auth.NewLoginLimiter(1000, 1000), logger: slog.New(slog.DiscardHandler)}, iss
}

func mintToken(t *testing.T, iss *auth.EmbeddedIssuer, user string, roles ...string) string {
	t.Helper()
	token, err := iss.Mint(auth.TokenRequest{User: user, Roles: roles, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// getProfile sends GET path with the Authorization header auth (none
// when empty) and returns the status and body.
func getProfile(t *testing.T, base, path, authorization string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	if resp.StatusCode == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("GET %s: 401 without WWW-Authenticate", path)
	}
	return resp.StatusCode, body
}

// isProfile reports whether body is a pprof profile: a gzipped protocol
// buffer, not empty once inflated.
func isProfile(body []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return false
	}
	data, err := io.ReadAll(zr)
	return err == nil && len(data) > 0
}

// /debug/pprof/ exists only with [http] pprof on, and then serves
// administrators only: no token or a bad one is 401, a valid token
// without an admin role 403, and neither gets a profile.
func TestOpsServerProfiles(t *testing.T) {
	gate, iss := testAdminGate(t)
	other, err := auth.OpenEmbeddedIssuer(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	adminByToken := "Bearer " + mintToken(t, iss, "carol", "sqe_admin")
	adminByGrant := "bearer " + mintToken(t, iss, "dana")
	analyst := "Bearer " + mintToken(t, iss, "bob", "analyst")
	foreign := "Bearer " + mintToken(t, other, "carol", "sqe_admin")

	_, offBase := startTestOps(t, false)
	onOps, onBase := startTestOps(t, true)
	_, ungatedBase := startTestOps(t, true)
	onOps.setAdminGate(gate)

	tests := []struct {
		name          string
		base          string
		path          string
		authorization string
		wantStatus    int
		wantProfile   bool
	}{
		{"off: no such path", offBase, "/debug/pprof/heap", adminByToken, http.StatusNotFound, false},
		{"off: no such index", offBase, "/debug/pprof/", adminByToken, http.StatusNotFound, false},
		{"on, gate not yet set", ungatedBase, "/debug/pprof/heap", adminByToken, http.StatusServiceUnavailable, false},
		{"no token", onBase, "/debug/pprof/heap", "", http.StatusUnauthorized, false},
		{"no token, CPU", onBase, "/debug/pprof/profile?seconds=1", "", http.StatusUnauthorized, false},
		{"not a bearer token", onBase, "/debug/pprof/heap", "Basic YWxpY2U6c2VjcmV0", http.StatusUnauthorized, false},
		{"malformed token", onBase, "/debug/pprof/heap", "Bearer not-a-jwt", http.StatusUnauthorized, false},
		{"token of another issuer", onBase, "/debug/pprof/heap", foreign, http.StatusUnauthorized, false},
		{"not an administrator", onBase, "/debug/pprof/heap", analyst, http.StatusForbidden, false},
		{"not an administrator, CPU", onBase, "/debug/pprof/profile?seconds=1", analyst, http.StatusForbidden, false},
		{"not an administrator, index", onBase, "/debug/pprof/", analyst, http.StatusForbidden, false},
		{"admin by token role: CPU profile", onBase, "/debug/pprof/profile?seconds=1", adminByToken, http.StatusOK, true},
		{"admin by token role: heap", onBase, "/debug/pprof/heap", adminByToken, http.StatusOK, true},
		{"admin by governance grant: heap", onBase, "/debug/pprof/heap", adminByGrant, http.StatusOK, true},
		{"admin by governance grant: allocs", onBase, "/debug/pprof/allocs", adminByGrant, http.StatusOK, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, body := getProfile(t, tc.base, tc.path, tc.authorization)
			if status != tc.wantStatus {
				t.Fatalf("GET %s = %d, want %d (%s)", tc.path, status, tc.wantStatus, firstBytes(body))
			}
			if got := isProfile(body); got != tc.wantProfile {
				t.Errorf("GET %s: body is a profile = %v, want %v (%s)", tc.path, got, tc.wantProfile, firstBytes(body))
			}
		})
	}
}

func firstBytes(b []byte) string {
	return string(b[:min(len(b), 80)])
}

// bearerToken takes the token of a Bearer Authorization header only.
func TestBearerToken(t *testing.T) {
	tests := []struct {
		header string
		want   string
		wantOK bool
	}{
		{"Bearer abc.def.ghi", "abc.def.ghi", true},
		{"bearer abc", "abc", true},
		{"BEARER  abc ", "abc", true},
		{"Bearer ", "", false},
		{"Bearer", "", false},
		{"Basic YWxpY2U6c2VjcmV0", "", false},
		{"", "", false},
		{"Bearerabc", "", false},
	}
	for _, tt := range tests {
		got, ok := bearerToken(tt.header)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("bearerToken(%q) = %q, %v; want %q, %v", tt.header, got, ok, tt.want, tt.wantOK)
		}
	}
}
