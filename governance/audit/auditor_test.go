package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func decodeLines(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestRecords(t *testing.T) {
	var buf bytes.Buffer
	a := New(&buf, nil, Options{RedactLiterals: true})
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	caller := Caller{SessionID: 7, User: "alice", Roles: []string{"analyst"}, Database: "sales_wh"}
	a.Statement(Statement{Caller: caller, Start: start, Text: "SELECT * FROM t WHERE k = 'abc'", Duration: 1500 * time.Microsecond,
		Rows: 3, HasRows: true, Outcome: OutcomeOK})
	a.Statement(Statement{Caller: Caller{User: "bob"}, Start: start, Text: "SET x = 1", Outcome: "42704", Error: `unrecognized configuration parameter "x"`})
	a.PrivilegeChange(PrivilegeChange{Caller: caller, Time: start, Action: "GRANT", Privileges: []string{"SELECT"},
		Object: "table sales_wh.acdemo.orders", Grantees: []string{"ROLE analyst"}, Result: OutcomeOK})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	got := decodeLines(t, buf.Bytes())
	want := []map[string]any{
		{"time": "2026-01-02T03:04:05Z", "kind": "statement", "session_id": 7.0, "user": "alice", "roles": []any{"analyst"},
			"database": "sales_wh", "statement": "SELECT * FROM t WHERE k = $1", "duration_ms": 1.5, "rows": 3.0, "outcome": "ok"},
		{"time": "2026-01-02T03:04:05Z", "kind": "statement", "user": "bob", "roles": []any{}, "statement": "SET x = $1",
			"duration_ms": 0.0, "outcome": "42704", "error": `unrecognized configuration parameter "x"`},
		{"time": "2026-01-02T03:04:05Z", "kind": "privilege_change", "session_id": 7.0, "user": "alice", "roles": []any{"analyst"},
			"database": "sales_wh", "action": "GRANT", "privileges": []any{"SELECT"}, "object": "table sales_wh.acdemo.orders",
			"grantees": []any{"ROLE analyst"}, "result": "ok"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d:\n%s", len(got), len(want), buf.String())
	}
	for i := range want {
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(want[i])
		if string(g) != string(w) {
			t.Errorf("record %d:\n got %s\nwant %s", i, g, w)
		}
	}
}

// TestNeverASecret feeds statements and errors carrying a password and a
// token, with literal redaction on and off.
func TestNeverASecret(t *testing.T) {
	secrets := []string{"hunter22", testToken}
	texts := []string{
		"ALTER ROLE x PASSWORD 'hunter22'",
		"CREATE USER u WITH PASSWORD 'hunter22'",
		"SELECT '" + testToken + "'",
		"SELECT * FROM t WHERE tok = '" + testToken + "' AND password = 'hunter22'",
		"CALL sys.login(password => 'hunter22', token => '" + testToken + "')",
		"SELECT 'hunter22'::int",
	}
	for _, literals := range []bool{true, false} {
		var buf bytes.Buffer
		a := New(&buf, nil, Options{RedactLiterals: literals})
		for _, text := range texts {
			a.Statement(Statement{Caller: Caller{User: "alice"}, Start: time.Now(), Text: text, Outcome: "22P02",
				Error: `invalid input syntax for type integer: "` + testToken + `"`})
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(decodeLines(t, buf.Bytes())); n != len(texts) {
			t.Fatalf("literals=%v: %d records, want %d", literals, n, len(texts))
		}
		for _, s := range secrets {
			if literals || s == testToken {
				if strings.Contains(buf.String(), s) {
					t.Errorf("literals=%v: the log holds %q:\n%s", literals, s, buf.String())
				}
			}
		}
		if !literals && strings.Count(buf.String(), "hunter22") != 1 {
			// Only the plain literal of the last statement may stay: it
			// names no secret.
			t.Errorf("literals kept: want hunter22 once (the plain literal), got:\n%s", buf.String())
		}
	}
}

func TestConcurrentWriters(t *testing.T) {
	var buf bytes.Buffer
	const writers, each = 8, 200
	a := New(&buf, nil, Options{RedactLiterals: true, Buffer: writers * each})
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				a.Statement(Statement{Caller: Caller{User: "u"}, Start: time.Now(), Text: "SELECT 1", Outcome: OutcomeOK})
			}
		}()
	}
	wg.Wait()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(decodeLines(t, buf.Bytes())); got != writers*each || a.Dropped() != 0 {
		t.Errorf("wrote %d records, dropped %d; want %d and 0", got, a.Dropped(), writers*each)
	}
}

// stalledWriter blocks every Write until released.
type stalledWriter struct {
	release chan struct{}
	buf     bytes.Buffer
}

func (w *stalledWriter) Write(p []byte) (int, error) {
	<-w.release
	return w.buf.Write(p)
}

func TestFullBufferDropsWithoutBlocking(t *testing.T) {
	w := &stalledWriter{release: make(chan struct{})}
	a := New(w, nil, Options{Buffer: 2})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 50; i++ {
			a.Statement(Statement{Caller: Caller{User: "u"}, Start: time.Now(), Text: "SELECT 1", Outcome: OutcomeOK})
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a session blocked on a stalled audit log")
	}
	close(w.release)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	written := int64(len(decodeLines(t, w.buf.Bytes())))
	// What the writer took before it stalled is written, the rest past
	// the buffer dropped.
	if a.Dropped() == 0 || written+a.Dropped() != 50 {
		t.Errorf("written %d, dropped %d of 50", written, a.Dropped())
	}
}

func TestFileSink(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.log")
	for i := 0; i < 2; i++ {
		a, err := Open(SinkFile, path, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a.Statement(Statement{Caller: Caller{User: "u"}, Start: time.Now(), Text: "SELECT 1", Outcome: OutcomeOK})
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(decodeLines(t, data)); n != 2 {
		t.Errorf("%d records after two opens, want 2 (appended)", n)
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct{ sink, path, want string }{
		{"syslog", "", `sink must be "stdout", "file" or "ranger", not "syslog"`},
		{SinkFile, "", "needs a path"},
		{SinkFile, filepath.Join(t.TempDir(), "missing", "audit.log"), "no such file"},
	}
	for _, tc := range tests {
		if _, err := Open(tc.sink, tc.path, nil, Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%q, %q): %v, want %q", tc.sink, tc.path, err, tc.want)
		}
	}
}

func TestRecordAfterCloseIsDropped(t *testing.T) {
	var buf bytes.Buffer
	a := New(&buf, nil, Options{})
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	a.PrivilegeChange(PrivilegeChange{Caller: Caller{User: "u"}, Time: time.Now(), Action: "GRANT", Result: OutcomeOK})
	if buf.Len() != 0 || a.Dropped() != 1 {
		t.Errorf("after Close: wrote %q, dropped %d", buf.String(), a.Dropped())
	}
}
