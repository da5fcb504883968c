package compattests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestQuickstartDemoScript runs the docker quickstart's demo.sql, which
// its setup job sends to SQE as carol, against a server on the embedded
// backends (the same statements; the quickstart's Ranger backends are
// covered by their own tests), then walks spec/002's example as the
// quickstart's README does: alice, an analyst with USAGE but no SELECT,
// is refused (42501) until carol grants it, then reads every row; bob, also an engineer,
// sees the EU rows with the SSN masked; dave sees nothing. Run twice, the
// script changes nothing (the setup job may run again).
func TestQuickstartDemoScript(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile(filepath.Join("..", "docker", "quickstart", "sqe", "demo.sql"))
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
	carol := connectConfig(t, ctx, pgxConfig(t, srv, "carol", demoDatabase, "disable", login("carol", "analyst", "engineer", adminRole)))
	for range 2 {
		for _, stmt := range strings.Split(string(script), ";") {
			if isCommentOnly(stmt) {
				continue
			}
			if _, err := carol.Exec(ctx, stmt); err != nil {
				t.Fatalf("demo.sql: %s: %v", stmt, err)
			}
		}
	}
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

// isCommentOnly reports whether a script fragment holds only comments.
func isCommentOnly(stmt string) bool {
	for line := range strings.Lines(stmt) {
		if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "--") {
			return false
		}
	}
	return true
}
