package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		in   []time.Duration
		want time.Duration
	}{
		{nil, 0},
		{[]time.Duration{5 * ms}, 5 * ms},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms, 7 * ms, 3 * ms}, 5 * ms},
		{[]time.Duration{4 * ms, 2 * ms}, 3 * ms},
	}
	for _, tt := range tests {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestSizeLabel(t *testing.T) {
	tests := map[int]string{1_000_000: "1M", 4_000_000: "4M", 2_500_000: "2.5M", 250_000: "250k", 1234: "1234", 12: "12"}
	for n, want := range tests {
		if got := sizeLabel(n); got != want {
			t.Errorf("sizeLabel(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReportGolden renders a report from fixed numbers and compares it
// with testdata/report.golden.
func TestReportGolden(t *testing.T) {
	ms := time.Millisecond
	sqe := func(scale time.Duration, rss int64) measurement {
		m := measurement{peakRSS: rss}
		for i := range benchQueries {
			m.queries = append(m.queries, timing{runs: []time.Duration{scale * time.Duration(10*(i+1)) * ms}})
		}
		m.stream = timing{runs: []time.Duration{scale * 250 * ms}, rows: int64(scale) * 1_000_000}
		return m
	}
	rep := report{
		smallRows: 1_000_000, largeRows: 4_000_000, runs: 5,
		sqeSmall: sqe(1, 140<<20), pgSmall: sqe(2, 0), sqeLarge: sqe(4, 147<<20),
	}
	rep.pgSmall.stream.rows = 1_000_000
	var b strings.Builder
	if err := rep.write(&b); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/report.golden")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestCheckSize(t *testing.T) {
	m := measurement{queries: []timing{{answer: []string{"1000000"}}}, stream: timing{rows: 1_000_000}}
	if err := checkSize(m, 1_000_000); err != nil {
		t.Fatalf("checkSize on the right size: %v", err)
	}
	if err := checkSize(m, 4_000_000); err == nil {
		t.Fatal("checkSize accepted a 1M answer for a 4M table")
	}
	m.stream.rows = 10
	if err := checkSize(m, 1_000_000); err == nil {
		t.Fatal("checkSize accepted a short stream")
	}
}
