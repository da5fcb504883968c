package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fetchProfile sends the token as a bearer token and writes what a 200
// carries; any other status is an error and writes nothing.
func TestFetchProfile(t *testing.T) {
	tests := []struct {
		name    string
		token   string
		wantErr string
	}{
		{"administrator", "admin-token", ""},
		{"refused", "other-token", "403 Forbidden"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer admin-token" {
			http.Error(w, "Forbidden", http.StatusForbidden)
			return
		}
		_, _ = w.Write([]byte("profile of " + r.URL.RequestURI()))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "p.pb.gz")
			err := fetchProfile(t.Context(), addr, tc.token, "/debug/pprof/profile?seconds=1", file)
			data, readErr := os.ReadFile(file)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || readErr == nil {
					t.Errorf("err %v, file read %v; want %q and no file", err, readErr, tc.wantErr)
				}
				return
			}
			if err != nil || string(data) != "profile of /debug/pprof/profile?seconds=1" {
				t.Errorf("err %v, file %q", err, data)
			}
		})
	}
}
