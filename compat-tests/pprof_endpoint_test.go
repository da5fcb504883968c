package compattests

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// /debug/pprof/ of a real server with [http] pprof on: the server wires
// its token verifier and roles into the endpoint, so an administrator's
// token gets profiles and nobody else does. (Off, the default, the path
// does not exist: TestHealthEndpointMethods' 404 for any other path.)
func TestProfileEndpoint(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[http]\npprof = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTestServerIn(t, filepath.Join(dir, "data"), false)
	addr := s.httpAddr(t)
	admin, err := s.mintAdmin("carol")
	if err != nil {
		t.Fatal(err)
	}
	analyst, err := s.mintCLI("bob", "--role", "analyst")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		path        string
		token       string
		wantStatus  int
		wantProfile bool
	}{
		{"no token", "/debug/pprof/heap", "", http.StatusUnauthorized, false},
		{"not a token", "/debug/pprof/heap", "not-a-jwt", http.StatusUnauthorized, false},
		{"analyst", "/debug/pprof/heap", analyst, http.StatusForbidden, false},
		{"analyst, CPU", "/debug/pprof/profile?seconds=1", analyst, http.StatusForbidden, false},
		{"administrator, heap", "/debug/pprof/heap", admin, http.StatusOK, true},
		{"administrator, CPU", "/debug/pprof/profile?seconds=1", admin, http.StatusOK, true},
	}
	client := http.Client{Timeout: time.Minute}
	for _, tc := range tests {
		req, err := http.NewRequest(http.MethodGet, "http://"+addr+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: GET %s: %v", tc.name, tc.path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if resp.StatusCode != tc.wantStatus {
			t.Errorf("%s: GET %s = %d, want %d", tc.name, tc.path, resp.StatusCode, tc.wantStatus)
		}
		if got := isGzippedProfile(body); got != tc.wantProfile {
			t.Errorf("%s: GET %s returned a profile = %v, want %v", tc.name, tc.path, got, tc.wantProfile)
		}
	}
}

// isGzippedProfile reports whether body is a gzipped, non-empty pprof
// profile.
func isGzippedProfile(body []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return false
	}
	data, err := io.ReadAll(zr)
	return err == nil && len(data) > 0
}
