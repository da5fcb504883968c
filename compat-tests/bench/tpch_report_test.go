package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
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

// ok is a result whose warm-up took firstMs and whose runs took ms, with
// a one-row answer.
func ok(answer string, firstMs int, ms ...int) tpchResult {
	return tpchResult{first: time.Duration(firstMs) * time.Millisecond, runs: durations(ms...), rows: 1, answer: []string{answer}}
}

func failed(msg string) tpchResult { return tpchResult{failure: msg} }

// Each case is one query's results on every engine and the row of the
// table they make, in tpchHeader's columns.
func TestTPCHReportLines(t *testing.T) {
	long := "error: 0A000 " + strings.Repeat("x", 80)
	tests := []struct {
		name                             string
		sqe, pg0, pg2, duck, duckParquet tpchResult
		// noDuck leaves both DuckDB columns unmeasured.
		noDuck bool
		want   []string
	}{
		{
			name: "all measured",
			sqe:  ok("A|1.50", 300, 100, 120, 110), pg0: ok("A|1.5000000", 0, 400, 440, 420),
			pg2: ok("A|1.5", 0, 550, 550, 550), duck: ok("", 0, 50, 55, 60), duckParquet: ok("", 0, 150, 150, 150),
			want: []string{"Q", "300.0 ms", "110.0 ms", "420.0 ms", "550.0 ms", "55.0 ms", "150.0 ms",
				"2.00", "2.00", "5.00", "same (1 rows)"},
		},
		{
			name: "SQE failed: its error once, no ratios of SQE",
			sqe:  failed("error: 0A000 correlated subquery"), pg0: ok("x", 0, 50), pg2: ok("x", 0, 40),
			duck: ok("", 0, 10), duckParquet: ok("", 0, 20),
			want: []string{"Q", "error: 0A000 correlated subquery", "", "50.0 ms", "40.0 ms", "10.0 ms", "20.0 ms",
				"", "", "", ""},
		},
		{
			name: "SQE answer differs",
			sqe:  ok("7", 10, 10, 10, 10), pg0: ok("8", 0, 30), pg2: ok("8", 0, 20),
			duck: ok("", 0, 5), duckParquet: ok("", 0, 4),
			want: []string{"Q", "10.0 ms", "10.0 ms", "30.0 ms", "20.0 ms", "5.0 ms", "4.0 ms",
				"2.50", "2.00", "2.00", "DIFFERS"},
		},
		{
			name: "PostgreSQL timed out: no reference answer",
			sqe:  ok("1", 20, 10), pg0: failed("error: timeout after 1m0s"), pg2: failed("error: timeout after 1m0s"),
			duck: ok("", 0, 5), duckParquet: ok("", 0, 4),
			want: []string{"Q", "20.0 ms", "10.0 ms", "error: timeout after 1m0s", "error: timeout after 1m0s", "5.0 ms", "4.0 ms",
				"5.00", "2.00", "", "no reference"},
		},
		{
			name: "DuckDB not run",
			sqe:  ok("1", 20, 10), pg0: ok("1", 0, 30), pg2: ok("1", 0, 20), noDuck: true,
			want: []string{"Q", "20.0 ms", "10.0 ms", "30.0 ms", "20.0 ms", "n/a", "n/a", "", "", "2.00", "same (1 rows)"},
		},
		{
			name: "DuckDB on Parquet failed, a long error cut short",
			sqe:  ok("1", 20, 10), pg0: ok("1", 0, 30), pg2: ok("1", 0, 20), duck: ok("", 0, 5), duckParquet: failed(long),
			want: []string{"Q", "20.0 ms", "10.0 ms", "30.0 ms", "20.0 ms", "5.0 ms", long[:maxFailureWidth-3] + "...",
				"", "2.00", "2.00", "same (1 rows)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := tpchReport{queries: []datagen.Query{{Name: "Q"}},
				sqe: []tpchResult{tc.sqe}, pg0: []tpchResult{tc.pg0}, pg2: []tpchResult{tc.pg2}}
			if !tc.noDuck {
				rep.duck, rep.duckParquet = []tpchResult{tc.duck}, []tpchResult{tc.duckParquet}
			}
			lines := rep.lines()
			if len(lines) != 1 || len(lines[0]) != len(tpchHeader()) {
				t.Fatalf("lines = %q, want one row of %d cells", lines, len(tpchHeader()))
			}
			if !slices.Equal(lines[0], tc.want) {
				t.Errorf("row\n got %q\nwant %q", lines[0], tc.want)
			}
		})
	}
}

// The printed table says what was measured, how, and against what.
func TestTPCHReportWrite(t *testing.T) {
	rep := tpchReport{
		sf: 0.1, runs: 3, queries: []datagen.Query{{Name: "Q1"}},
		sqe: []tpchResult{ok("1", 20, 10)}, pg0: []tpchResult{ok("1", 0, 30)}, pg2: []tpchResult{ok("1", 0, 20)},
		duckNote:    "DuckDB not run (-duckdb=false)",
		parquetNote: "DuckDB on SQE's Parquet not measured: no files",
	}
	var b strings.Builder
	if err := rep.write(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"scale factor 0.1",
		"first run after a server restart",
		"median of 3 runs after a warm-up",
		"DuckDB not run (-duckdb=false); DuckDB on SQE's Parquet not measured: no files",
		"TPC-H query | SQE cold | SQE warm | PG 0 workers | PG 2 workers | DuckDB native | DuckDB on SQE Parquet | SQE cold / DuckDB Parquet | SQE warm / DuckDB native | PG 2 workers / SQE warm |    SQE answer",
		"Q1          |  20.0 ms |  10.0 ms |      30.0 ms |      20.0 ms |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
}

func TestTPCHReportCheck(t *testing.T) {
	rep := tpchReport{
		queries: []datagen.Query{{Name: "Q1"}, {Name: "Q3"}, {Name: "Q6"}, {Name: "Q17"}},
		sqe:     []tpchResult{ok("A|1.50", 1, 1), failed("error: 0A000 no"), ok("7", 1, 1), ok("9", 1, 1)},
		pg0:     []tpchResult{ok("A|1.5000000000000", 1, 1), ok("x", 1, 1), ok("8", 1, 1), failed("error: timeout after 1m0s")},
	}
	err := rep.check()
	if err == nil || !strings.Contains(err.Error(), "TPC-H Q6") || strings.Contains(err.Error(), "TPC-H Q3:") || strings.Contains(err.Error(), "TPC-H Q1:") || strings.Contains(err.Error(), "TPC-H Q17:") {
		t.Errorf("check() = %v, want only Q6 to disagree", err)
	}
}

func TestCheckRowCounts(t *testing.T) {
	withRows := func(n int64) tpchResult { return tpchResult{rows: n, runs: durations(1)} }
	tests := []struct {
		name        string
		res, ref    tpchResult
		wantFailure string
	}{
		{"same count", withRows(4), withRows(4), ""},
		{"fewer rows", withRows(3), withRows(4), "error: 3 rows, PostgreSQL 4"},
		{"already failed", failed("error: boom"), withRows(4), "error: boom"},
		{"reference failed", withRows(3), failed("error: pg"), ""},
	}
	for _, tc := range tests {
		res := []tpchResult{tc.res}
		checkRowCounts(res, []tpchResult{tc.ref})
		if res[0].failure != tc.wantFailure {
			t.Errorf("%s: failure %q, want %q", tc.name, res[0].failure, tc.wantFailure)
		}
	}
}

func TestTPCHGrowth(t *testing.T) {
	at := func(sf float64, sqe, duck tpchResult) tpchReport {
		return tpchReport{sf: sf, queries: []datagen.Query{{Name: "Q1"}}, sqe: []tpchResult{sqe}, duck: []tpchResult{duck}}
	}
	reps := []tpchReport{
		at(1, ok("", 200, 100), ok("", 0, 10)),
		at(10, ok("", 2500, 1000), ok("", 0, 120)),
		at(30, failed("error: 53200 out of memory"), ok("", 0, 400)),
	}
	header, lines := tpchGrowth(reps)
	wantHeader := []string{"TPC-H query",
		"SQE cold SF 10 / SF 1", "SQE warm SF 10 / SF 1", "DuckDB native SF 10 / SF 1",
		"SQE cold SF 30 / SF 1", "SQE warm SF 30 / SF 1", "DuckDB native SF 30 / SF 1"}
	if !slices.Equal(header, wantHeader) {
		t.Errorf("header %q, want %q", header, wantHeader)
	}
	want := [][]string{{"Q1", "12.50", "10.00", "12.00", "", "", "40.00"}}
	if !slices.EqualFunc(lines, want, slices.Equal) {
		t.Errorf("lines %q, want %q", lines, want)
	}
	var b strings.Builder
	if err := writeTPCHGrowth(&b, reps[:1]); err != nil || b.Len() != 0 {
		t.Errorf("one scale factor: printed %q, %v; want nothing", b.String(), err)
	}
}

func TestScaleFactorsFlag(t *testing.T) {
	tests := []struct {
		in      string
		want    scaleFactors
		wantErr bool
	}{
		{"1", scaleFactors{1}, false},
		{"0.01, 1,10", scaleFactors{0.01, 1, 10}, false},
		{"0", nil, true},
		{"-1", nil, true},
		{"1,x", nil, true},
		{"1,1", nil, true},
		{"", nil, true},
		{"Inf", nil, true},
	}
	for _, tt := range tests {
		var got scaleFactors
		err := got.Set(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("Set(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
	sfs := scaleFactors{0.01, 10}
	if s := sfs.String(); s != "0.01,10" {
		t.Errorf("String() = %q", s)
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

// The DuckDB program's results come back in the order of the queries; a
// query it did not report is a failure.
func TestDuckDBResultsOf(t *testing.T) {
	got := duckdbResultsOf([]duckdbQuery{
		{Name: "Q3", RunsNS: []int64{3e6, 1e6, 2e6}, Rows: 10},
		{Name: "Q1", Error: "Binder Error: x\nmore"},
	}, []datagen.Query{{Name: "Q1"}, {Name: "Q2"}, {Name: "Q3"}})
	if len(got) != 3 {
		t.Fatalf("%d results, want 3", len(got))
	}
	if got[0].failure != "error: Binder Error: x" || got[1].failure != "error: not run" {
		t.Errorf("failures %q, %q", got[0].failure, got[1].failure)
	}
	if got[2].failure != "" || got[2].rows != 10 || got[2].median() != 2*time.Millisecond {
		t.Errorf("Q3 = %+v, want 10 rows, median 2ms", got[2])
	}
}
