package sql

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// newLimitedSession is a session of an engine whose queries may hold
// memoryLimit bytes, over an empty catalog.
func newLimitedSession(t *testing.T, memoryLimit int64) *Session {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	e := NewEngine(EngineConfig{MemoryLimit: memoryLimit}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestQueryMemoryLimit(t *testing.T) {
	// A million rows from two small series: only the operator that holds
	// them outgrows 4 MiB.
	const million = "generate_series(1, 1000) AS a, generate_series(1, 1000) AS b"
	tests := []struct {
		name  string
		limit int64
		sql   string
		want  string // the one row, or the memory context of the 53200
	}{
		{"within the limit", 256 << 20, "SELECT count(*) FROM (SELECT DISTINCT a * 1000 + b FROM " + million + ") AS d", "1000000"},
		{"no limit", 0, "SELECT a * 1000 + b AS v FROM " + million + " ORDER BY v DESC LIMIT 1", "1001000"},
		{"hash aggregate past the limit", 4 << 20, "SELECT count(*) FROM (SELECT DISTINCT a * 1000 + b FROM " + million + ") AS d", `"HashAggregate"`},
		// OFFSET without LIMIT: the whole input is sorted (ORDER BY ...
		// LIMIT would be a top-N sort, bounded by the limit).
		{"sort past the limit", 4 << 20, "SELECT a * 1000 + b AS v FROM " + million + " ORDER BY v DESC OFFSET 999999", `"Sort"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newLimitedSession(t, tt.limit)
			rows, _, err := run(t, s, tt.sql)
			if !strings.HasPrefix(tt.want, `"`) {
				if err != nil || len(rows) != 1 || rows[0] != tt.want {
					t.Fatalf("rows %v, err %v; want [%s]", rows, err, tt.want)
				}
				return
			}
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.OutOfMemory {
				t.Fatalf("err = %v, want 53200", err)
			}
			if pe.Message != "out of memory" || !strings.Contains(pe.Detail, "in memory context "+tt.want) || !strings.Contains(pe.Detail, "memory_limit 4194304 bytes") {
				t.Errorf("error %q, detail %q", pe.Message, pe.Detail)
			}
			// The session carries on.
			if rows, _, err := run(t, s, "SELECT 1"); err != nil || len(rows) != 1 {
				t.Errorf("after the error: rows %v, err %v", rows, err)
			}
		})
	}
}

func TestStatementTimeout(t *testing.T) {
	s := newLimitedSession(t, 0)
	if _, _, err := run(t, s, "SET statement_timeout = '100ms'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err := run(t, s, "SELECT count(*) FROM generate_series(1, 20000) AS a, generate_series(1, 20000) AS b WHERE a + b < 0")
	elapsed := time.Since(start)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || pe.Message != "canceling statement due to statement timeout" {
		t.Fatalf("err = %v, want 57014 canceling statement due to statement timeout", err)
	}
	if elapsed > 5*time.Second {
		t.Errorf("the statement ran %s under a 100ms timeout", elapsed.Round(time.Millisecond))
	}
	if _, _, err := run(t, s, "SET statement_timeout = 0"); err != nil {
		t.Fatal(err)
	}
	if rows, _, err := run(t, s, "SELECT count(*) FROM generate_series(1, 1000) AS a, generate_series(1, 1000) AS b"); err != nil || rows[0] != "1000000" {
		t.Errorf("without a timeout: rows %v, err %v", rows, err)
	}
}

func TestStatementTimeoutStopsFetch(t *testing.T) {
	s := newLimitedSession(t, 0)
	_, _, err := run(t, s, "BEGIN; DECLARE c CURSOR FOR SELECT count(*) FROM generate_series(1, 20000) AS a, generate_series(1, 20000) AS b WHERE a + b < 0; SET statement_timeout = '100ms'")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err = run(t, s, "FETCH ALL FROM c")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || pe.Message != "canceling statement due to statement timeout" {
		t.Fatalf("err = %v, want 57014 canceling statement due to statement timeout", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the FETCH ran %s under a 100ms timeout", elapsed.Round(time.Millisecond))
	}
}

func TestUserCancelIs57014(t *testing.T) {
	s := newLimitedSession(t, 0)
	ctx, cancel := context.WithCancel(context.Background())
	res := executeOne(t, ctx, s, "SELECT count(*) FROM generate_series(1, 20000) AS a, generate_series(1, 20000) AS b WHERE a + b < 0")
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := res.Next(ctx)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.QueryCanceled || pe.Message != "canceling statement due to user request" {
		t.Fatalf("err = %v, want 57014 canceling statement due to user request", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("the statement ran %s after its cancel", elapsed.Round(time.Millisecond))
	}
}

func TestStatementTimeoutSetting(t *testing.T) {
	tests := []struct {
		set, show string
		code      string
	}{
		{"5000", "5s", ""},
		{"'1500ms'", "1500ms", ""},
		{"'2min'", "2min", ""},
		{"'1.5s'", "1500ms", ""},
		{"0", "0", ""},
		{"'soon'", "", pgerror.InvalidParameterValue},
		{"'5 fortnights'", "", pgerror.InvalidParameterValue},
		{"-1", "", pgerror.InvalidParameterValue},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			s := newLimitedSession(t, 0)
			_, _, err := run(t, s, "SET statement_timeout = "+tt.set)
			if tt.code != "" {
				if pgerror.Code(err) != tt.code {
					t.Fatalf("err = %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows, _, err := run(t, s, "SHOW statement_timeout")
			if err != nil || len(rows) != 1 || rows[0] != tt.show {
				t.Errorf("SHOW: rows %v, err %v; want %s", rows, err, tt.show)
			}
		})
	}
}
