package sql

import (
	"strings"
	"testing"
)

func TestExecutionForRoles(t *testing.T) {
	r := &RemoteExecution{Engines: []RemoteEngine{{}}, Default: "local", ByRole: map[string]string{"analyst": "auto", "etl": "remote", "viewer": "local"}}
	tests := []struct {
		roles []string
		want  string
	}{
		{nil, "local"},
		{[]string{"viewer"}, "local"},
		{[]string{"analyst", "viewer"}, "auto"},
		{[]string{"viewer", "etl", "analyst"}, "remote"},
	}
	for _, tt := range tests {
		if got := r.executionFor(tt.roles); got != tt.want {
			t.Errorf("executionFor(%v) = %q, want %q", tt.roles, got, tt.want)
		}
	}
	if got := (*RemoteExecution)(nil).executionFor([]string{"etl"}); got != "local" {
		t.Errorf("without engines: %q, want local", got)
	}
	if got := (&RemoteExecution{Default: "remote"}).executionFor(nil); got != "local" {
		t.Errorf("with no engine configured: %q, want local", got)
	}
}

// Without an engine, 'remote' fails and 'auto' runs the statement here.
func TestExecutionWithoutAnEngine(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol := openAs(t, e, "carol", "sqe_admin")
	if _, _, err := run(t, carol, "SET sqe.execution = 'remote'"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, carol, "SELECT id FROM acdemo.orders"); err == nil || !strings.Contains(err.Error(), "no remote engine is configured") {
		t.Errorf("remote without an engine: %v", err)
	}
	if _, _, err := run(t, carol, "SET sqe.execution = 'auto'"); err != nil {
		t.Fatal(err)
	}
	if rows, _, err := run(t, carol, "SELECT count(*) FROM acdemo.orders"); err != nil || len(rows) != 1 || rows[0] != "3" {
		t.Errorf("auto without an engine: %q, %v", rows, err)
	}
	plan, _, err := run(t, carol, "EXPLAIN SELECT id FROM acdemo.orders")
	if err != nil || len(plan) == 0 || plan[0] != "Runs in SQE: no remote engine is configured" {
		t.Errorf("EXPLAIN under auto without an engine: %q, %v", plan, err)
	}
}
