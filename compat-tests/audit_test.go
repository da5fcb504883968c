package compattests

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// With [audit] on and a file sink, every statement a client runs is a
// JSON line in data_dir/audit.log (mode 0600) with its literals redacted,
// and neither the login token nor a literal reaches the file.
func TestAuditLogFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[audit]\nenabled = true\nsink = \"file\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	srv := startTestServerIn(t, dataDir, false)
	ctx := testContext(t, time.Minute)
	token, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, ctx, srv, token)
	var word string
	if err := conn.QueryRow(ctx, "SELECT 'open-sesame' AS word").Scan(&word); err != nil || word != "open-sesame" {
		t.Fatalf("select: %q, %v", word, err)
	}
	if _, err := conn.Exec(ctx, "SELECT * FROM nowhere WHERE k = 'hidden-key'"); err == nil {
		t.Fatal("a missing table was found")
	}
	if err := conn.QueryRow(ctx, "SELECT length($1::text)", pgx.QueryExecModeDescribeExec, "param-value").Scan(new(int)); err != nil {
		t.Fatalf("extended query: %v", err)
	}
	if err := conn.Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Stopping the server flushes the log.
	if err := srv.stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, srv.log())
	}

	path := filepath.Join(dataDir, "audit.log")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("audit.log mode %v, want 0600", fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{token, "open-sesame", "hidden-key", "param-value"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("audit.log holds %q:\n%s", secret, data)
		}
	}
	type line struct {
		Kind      string `json:"kind"`
		User      string `json:"user"`
		Database  string `json:"database"`
		SessionID int32  `json:"session_id"`
		Statement string `json:"statement"`
		Rows      *int64 `json:"rows"`
		Outcome   string `json:"outcome"`
	}
	var got []line
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if l.Kind != "statement" || l.User != "alice" || l.Database != demoDatabase || l.SessionID == 0 {
			t.Errorf("record %+v: kind, user, database or session", l)
		}
		got = append(got, l)
	}
	want := []struct {
		statement, outcome string
		rows               int64
	}{
		{"SELECT $1 AS word", "ok", 1},
		{"SELECT * FROM nowhere WHERE k = $1", "42P01", -1},
		{"SELECT length($1::text)", "ok", 1},
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(got), len(want), data)
	}
	for i, w := range want {
		rows := int64(-1)
		if got[i].Rows != nil {
			rows = *got[i].Rows
		}
		if got[i].Statement != w.statement || got[i].Outcome != w.outcome || rows != w.rows {
			t.Errorf("record %d: %+v (rows %d), want %+v", i, got[i], rows, w)
		}
	}
}
