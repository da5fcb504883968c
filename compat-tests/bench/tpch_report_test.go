package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

func durations(ms ...int) []time.Duration {
	var ds []time.Duration
	for _, m := range ms {
		ds = append(ds, time.Duration(m)*time.Millisecond)
	}
	return ds
}

func TestTPCHReport(t *testing.T) {
	ok := func(answer string, ms ...int) tpchResult {
		return tpchResult{runs: durations(ms...), rows: 1, answer: []string{answer}}
	}
	rep := tpchReport{
		sf: 0.1, runs: 3,
		queries: []datagen.Query{{Name: "Q1"}, {Name: "Q3"}, {Name: "Q6"}},
		sqe: []tpchResult{
			ok("A|1.50", 100, 120, 110),
			{failure: "error: 0A000 interval arithmetic is not supported"},
			ok("7", 10, 10, 10),
		},
		pg0:      []tpchResult{ok("A|1.5000000", 400, 440, 420), ok("x", 50, 50, 50), ok("8", 30, 30, 30)},
		pg2:      []tpchResult{ok("A|1.5", 220, 220, 220), ok("x", 40, 40, 40), ok("8", 20, 20, 20)},
		duckNote: "not run (-duckdb=false)",
	}
	var b strings.Builder
	if err := rep.write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"scale factor 0.1: median of 3 runs",
		"not run (-duckdb=false)",
		"110.0 ms |     420.0 ms |     220.0 ms |              n/a |    3.82 |    2.00 |",
		"same (1 rows)",
		"error: 0A000 interval arithmetic is not supported",
		"DIFFERS",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	err := rep.check()
	if err == nil || !strings.Contains(err.Error(), "TPC-H Q6") || strings.Contains(err.Error(), "Q3") {
		t.Errorf("check() = %v, want only Q6 to disagree", err)
	}
}

func TestDescribeFailure(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&pgconn.PgError{Code: "0A000", Message: "interval arithmetic\nis not supported"}, "error: 0A000 interval arithmetic"},
		{fmt.Errorf("read: %w", context.DeadlineExceeded), "error: timeout after 1m0s"},
		{errors.New("conn closed"), "error: conn closed"},
	}
	for _, tt := range tests {
		if got := describeFailure(tt.err, time.Minute); got != tt.want {
			t.Errorf("describeFailure(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
