package compattests

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestQuickstartDemoScript runs the docker quickstart's setup job,
// sqe/setup.sh, as its container does: bash, the real psql, carol's token
// from a stand-in for Keycloak's token endpoint that expects the request
// recorded in cmd/sqe/testdata/quickstart/requests/sqe-setup.json, and
// sqe/demo.sql loaded through a server on the embedded backends (the same
// statements; the quickstart's Ranger backends are covered by their own
// tests) over TLS. Run twice, the script changes nothing (the setup job
// may run again). It then walks spec/002's example as the quickstart's
// README does: alice, an analyst with USAGE but no SELECT, is refused
// (42501) until carol grants it, then reads every row; bob, also an
// engineer, sees the EU rows with the SSN masked; dave sees nothing.
func TestQuickstartDemoScript(t *testing.T) {
	t.Parallel()
	quickstart, err := filepath.Abs(filepath.Join("..", "docker", "quickstart"))
	if err != nil {
		t.Fatal(err)
	}
	srv := startTestServer(t, false)
	ctx := testContext(t, 2*time.Minute)
	login := func(user string, roles ...string) string {
		t.Helper()
		var extra []string
		for _, r := range roles {
			extra = append(extra, "--role", r)
		}
		token, err := srv.mintCLI(user, extra...)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}
	carolToken := login("carol", "analyst", "engineer", adminRole)
	keycloak := newTokenEndpoint(t, carolToken)
	psqlDir := filepath.Dir(psqlPath(t))
	for run := range 2 {
		cmd := exec.CommandContext(ctx, "bash", filepath.Join(quickstart, "sqe", "setup.sh"))
		cmd.Env = append(withoutPrefixes(os.Environ(), "PG", "PSQL", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY"),
			"KEYCLOAK_URL="+keycloak.URL, "SQE_HOST="+srv.host, "SQE_PORT="+srv.port,
			"DEMO_SQL="+filepath.Join(quickstart, "sqe", "demo.sql"), "PATH="+psqlDir+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "SQE demo loaded.") {
			t.Fatalf("sqe/setup.sh, run %d: %v\n%s\nserver log:\n%s", run+1, err, out, srv.log())
		}
	}
	if n := keycloak.requests(); n != 2 {
		t.Errorf("the token endpoint was asked %d times, want once per run", n)
	}
	carol := connectConfig(t, ctx, pgxConfig(t, srv, "carol", demoDatabase, "disable", carolToken))
	const query = "SELECT id, region, ssn FROM sales_wh.acdemo.orders ORDER BY id"
	read := func(user string, roles ...string) (string, string) {
		t.Helper()
		conn := connectConfig(t, ctx, pgxConfig(t, srv, user, demoDatabase, "disable", login(user, roles...)))
		rows, err := textRowsOf(ctx, conn, query)
		if err != nil {
			return "", asPgError(t, err).Code
		}
		var out []string
		for _, r := range rows {
			out = append(out, *r[0]+"|"+*r[1]+"|"+*r[2])
		}
		return strings.Join(out, ";"), ""
	}
	for _, tc := range []struct {
		user     string
		roles    []string
		rows     string
		sqlstate string
	}{
		{"alice", []string{"analyst"}, "", "42501"},
		{"bob", []string{"analyst", "engineer"}, "1|EU|xxx-xx-1111;3|EU|xxx-xx-3333", ""},
		{"dave", nil, "", "42P01"},
	} {
		if rows, code := read(tc.user, tc.roles...); rows != tc.rows || code != tc.sqlstate {
			t.Errorf("%s before the grant: rows %q, SQLSTATE %q; want %q, %q", tc.user, rows, code, tc.rows, tc.sqlstate)
		}
	}
	execAll(t, ctx, carol, `GRANT SELECT ON sales_wh.acdemo.orders TO ROLE "analyst"`)
	if rows, code := read("alice", "analyst"); rows != "1|EU|111-11-1111;2|US|222-22-2222;3|EU|333-33-3333" || code != "" {
		t.Errorf("alice after the grant: rows %q, SQLSTATE %q", rows, code)
	}
}

// tokenEndpoint stands in for Keycloak's token endpoint: it answers the
// request recorded for sqe/setup.sh with a token and fails the test on any
// other request.
type tokenEndpoint struct {
	*httptest.Server
	mu sync.Mutex
	n  int
}

func newTokenEndpoint(t *testing.T, token string) *tokenEndpoint {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "cmd", "sqe", "testdata", "quickstart", "requests", "sqe-setup.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		Exchanges []struct {
			Request struct {
				Method string            `json:"method"`
				Path   string            `json:"path"`
				Form   map[string]string `json:"form"`
			} `json:"request"`
		} `json:"exchanges"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil || len(fixture.Exchanges) != 1 {
		t.Fatalf("sqe-setup.json: %v (%d exchanges, want 1)", err, len(fixture.Exchanges))
	}
	want := fixture.Exchanges[0].Request
	e := &tokenEndpoint{}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		e.n++
		e.mu.Unlock()
		form := map[string]string{}
		if err := r.ParseForm(); err == nil {
			for k, v := range r.PostForm {
				form[k] = strings.Join(v, ",")
			}
		}
		if r.Method != want.Method || r.URL.Path != want.Path || !maps.Equal(form, want.Form) {
			t.Errorf("token request %s %s %v, want %s %s %v", r.Method, r.URL.Path, form, want.Method, want.Path, want.Form)
			http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
	}))
	t.Cleanup(e.Close)
	return e
}

func (e *tokenEndpoint) requests() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n
}
