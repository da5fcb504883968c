package pgcatalog

import (
	"strings"
	"testing"
	"time"
)

// pg_stat_activity lists every live session to a superuser and the
// caller's own to anyone else; with no server's registry it is the
// caller's session alone.
func TestActivityVisibility(t *testing.T) {
	start := time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	live := []Activity{
		{PID: 7, Database: "sales_wh", User: "alice", ApplicationName: "psql", ClientAddr: "127.0.0.1", ClientPort: 50000,
			BackendStart: start, QueryStart: start.Add(time.Second), StateChange: start.Add(time.Second),
			State: "active", Query: "SELECT 1"},
		{PID: 8, Database: "sales_wh", User: "bob", BackendStart: start, State: "idle", Query: "SELECT secret FROM t"},
		{PID: 9, Database: "sales_wh", User: "alice", BackendStart: start, State: "idle in transaction", Query: "BEGIN"},
	}
	tests := []struct {
		name      string
		src       fakeSource
		col       string
		wantByPID map[string]string
	}{
		{"superuser sees every session's query", fakeSource{super: true, live: live}, "query",
			map[string]string{"7": "SELECT 1", "8": "SELECT secret FROM t", "9": "BEGIN"}},
		{"others see only their own sessions", fakeSource{live: live}, "query",
			map[string]string{"7": "SELECT 1", "9": "BEGIN"}},
		{"state", fakeSource{live: live}, "state",
			map[string]string{"7": "active", "9": "idle in transaction"}},
		{"client address", fakeSource{live: live}, "client_addr",
			map[string]string{"7": "127.0.0.1", "9": "NULL"}},
		{"query start, null before the first statement", fakeSource{live: live}, "query_start",
			map[string]string{"7": "2025-03-01T10:00:01Z", "9": "NULL"}},
		{"no registry: the caller's own session", fakeSource{}, "usename",
			map[string]string{"4242": "alice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := scanAll(t, tt.src, "pg_catalog", "pg_stat_activity")
			got := map[string]string{}
			for _, r := range rows {
				got[r["pid"]] = r[tt.col]
			}
			if len(got) != len(tt.wantByPID) {
				t.Fatalf("%s by pid = %v, want %v", tt.col, got, tt.wantByPID)
			}
			for pid, want := range tt.wantByPID {
				if !strings.HasPrefix(got[pid], want) {
					t.Errorf("pid %s: %s = %q, want %q", pid, tt.col, got[pid], want)
				}
			}
		})
	}
}
