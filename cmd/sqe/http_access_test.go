package main

import (
	"net/http"
	"strings"
	"testing"
)

// /access admits administrators only, and refuses everyone else with 403
// whatever is wrong with them; its page is served without a token (it
// holds no data) and keeps to its own origin.
func TestAccessPageGate(t *testing.T) {
	ops, base := startTestOps(t, false)
	gate, iss := testAdminGate(t)
	admin, analyst := mintToken(t, iss, "dana"), mintToken(t, iss, "bob", "analyst")
	const api = "/access/api/catalogs"

	// Before the gate is set, nothing is answered.
	if status, _ := getProfile(t, base, api, "Bearer "+admin); status != http.StatusServiceUnavailable {
		t.Errorf("before the gate: GET %s = %d, want 503", api, status)
	}
	ops.setAdminGate(gate)
	tests := []struct {
		name, path, authorization string
		wantStatus                int
		wantBody                  string
	}{
		{"the page, no token", "/access", "", http.StatusOK, "SQE access report"},
		{"the page's script, no token", "/access/app.js", "", http.StatusOK, "/access/api/"},
		{"the page, an administrator", "/access", "Bearer " + admin, http.StatusOK, "SQE access report"},
		{"the page, an analyst", "/access", "Bearer " + analyst, http.StatusForbidden, ""},
		{"the page, not a token", "/access", "Bearer x", http.StatusForbidden, ""},
		{"the page, another scheme", "/access", "Basic eDp5", http.StatusForbidden, ""},
		{"a file that is not the page's", "/access/nothing.js", "", http.StatusNotFound, ""},
		{"the API, no token", api, "", http.StatusForbidden, ""},
		{"the API, an analyst", api, "Bearer " + analyst, http.StatusForbidden, ""},
		{"the API, not a token", api, "Bearer x", http.StatusForbidden, ""},
		// The report is set once the engine is built.
		{"the API, an administrator, before the report", api, "Bearer " + admin, http.StatusServiceUnavailable, ""},
	}
	for _, tc := range tests {
		status, body := getProfile(t, base, tc.path, tc.authorization)
		if status != tc.wantStatus {
			t.Errorf("%s: GET %s = %d, want %d", tc.name, tc.path, status, tc.wantStatus)
		}
		if tc.wantBody != "" && !strings.Contains(string(body), tc.wantBody) {
			t.Errorf("%s: GET %s lacks %q", tc.name, tc.path, tc.wantBody)
		}
	}

	resp, err := http.Get(base + "/access")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("the page's Content-Security-Policy is %q", csp)
	}
}
