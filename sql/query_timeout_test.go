package sql

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

func TestQueryTimeoutsFor(t *testing.T) {
	q := QueryTimeouts{Default: time.Second, ByRole: map[string]time.Duration{
		"analyst": 5 * time.Second, "engineer": 30 * time.Second, "sqe_admin": 0,
	}}
	tests := []struct {
		name  string
		roles []string
		want  time.Duration
	}{
		{"no role", nil, time.Second},
		{"a role without override", []string{"auditor"}, time.Second},
		{"one override", []string{"auditor", "analyst"}, 5 * time.Second},
		{"the longest override wins", []string{"engineer", "analyst"}, 30 * time.Second},
		{"an override of 0 lifts the bound", []string{"analyst", "sqe_admin"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := q.For(tt.roles); got != tt.want {
				t.Errorf("For(%v) = %s, want %s", tt.roles, got, tt.want)
			}
		})
	}
}

// newTimedSession is a session of an engine bounding statements to 1s
// except for sqe_admin, over an empty catalog.
func newTimedSession(t *testing.T, roles ...string) *Session {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{QueryTimeouts: QueryTimeouts{
		Default: time.Second,
		ByRole:  map[string]time.Duration{"sqe_admin": 0, "engineer": time.Minute},
	}}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice", Roles: roles}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func TestServerQueryTimeout(t *testing.T) {
	const crossJoin = "SELECT count(*) FROM generate_series(1, 50000) AS a, generate_series(1, 50000) AS b WHERE a + b < 0"
	tests := []struct {
		name    string
		roles   []string
		setting string // statement_timeout, "" to leave it
		sql     string
		timeout bool
	}{
		{"pg_sleep past the server's bound", nil, "", "SELECT pg_sleep(30)", true},
		{"a cross join past the server's bound", nil, "", crossJoin, true},
		{"a longer statement_timeout does not lift the bound", nil, "1min", "SELECT pg_sleep(30)", true},
		{"a shorter statement_timeout wins", []string{"engineer"}, "200ms", "SELECT pg_sleep(30)", true},
		{"a role override lets it run", []string{"analyst", "sqe_admin"}, "", "SELECT pg_sleep(1.5)", false},
		{"pg_sleep within the bound", nil, "", "SELECT pg_sleep(0.1)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTimedSession(t, tt.roles...)
			if tt.setting != "" {
				if _, _, err := run(t, s, "SET statement_timeout = '"+tt.setting+"'"); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			rows, _, err := run(t, s, tt.sql)
			elapsed := time.Since(start)
			if !tt.timeout {
				if err != nil || len(rows) != 1 || rows[0] != "" {
					t.Fatalf("rows %q, err %v; want one void row", rows, err)
				}
				return
			}
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || pe.Message != "canceling statement due to statement timeout" {
				t.Fatalf("err = %v, want 57014 canceling statement due to statement timeout", err)
			}
			if elapsed > 10*time.Second {
				t.Errorf("the statement ran %s under a 1s bound", elapsed.Round(time.Millisecond))
			}
			if rows, _, err := run(t, s, "SELECT 1"); err != nil || len(rows) != 1 {
				t.Errorf("after the timeout: rows %v, err %v", rows, err)
			}
		})
	}
}

func TestPgSleep(t *testing.T) {
	s := newTimedSession(t, "sqe_admin")
	rows, _, err := run(t, s, "SELECT pg_sleep(NULL), pg_sleep(-1), pg_sleep(0), pg_typeof(pg_sleep(0))::text")
	if err != nil || len(rows) != 1 || rows[0] != "NULL|||void" {
		t.Fatalf("rows %q, err %v", rows, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	res := executeOne(t, ctx, s, "SELECT pg_sleep(30)")
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err = res.Next(ctx)
	if pgerror.Code(err) != pgerror.QueryCanceled || time.Since(start) > 10*time.Second {
		t.Fatalf("err = %v after %s, want 57014 soon after the cancel", err, time.Since(start))
	}
}
