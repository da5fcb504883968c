package sql

import "testing"

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
