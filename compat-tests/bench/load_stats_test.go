package main

import (
	"os"
	"strings"
	"testing"
)

func TestParseGauges(t *testing.T) {
	exposition := `# HELP go_goroutines Number of goroutines that currently exist.
# TYPE go_goroutines gauge
go_goroutines 42
# HELP go_memstats_heap_inuse_bytes Number of heap bytes that are in use.
# TYPE go_memstats_heap_inuse_bytes gauge
go_memstats_heap_inuse_bytes 1.2345678e+07
go_gc_duration_seconds{quantile="0.5"} 3.1e-05
go_goroutines_extra 7
`
	got, err := parseGauges(strings.NewReader(exposition), goroutinesMetric, heapInuseMetric)
	if err != nil {
		t.Fatal(err)
	}
	if got[goroutinesMetric] != 42 || got[heapInuseMetric] != 12345678 {
		t.Fatalf("got %v", got)
	}
	if _, err := parseGauges(strings.NewReader("go_goroutines 1\n"), goroutinesMetric, heapInuseMetric); err == nil {
		t.Fatal("a missing gauge was not reported")
	}
	if _, err := parseGauges(strings.NewReader("go_goroutines many\n"), goroutinesMetric); err == nil {
		t.Fatal("a malformed value was not reported")
	}
}

func TestParseVmRSS(t *testing.T) {
	status, err := os.ReadFile("testdata/status.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseStatusKB(strings.NewReader(string(status)), "VmRSS")
	if err != nil {
		t.Fatal(err)
	}
	if got != 98304*1024 {
		t.Fatalf("VmRSS %d, want %d", got, 98304*1024)
	}
}

func TestCheckWrites(t *testing.T) {
	before := writeCounts{events: 10, hits: 10}
	tests := []struct {
		after     writeCounts
		processed int64
		ok        bool
	}{
		{writeCounts{events: 15, hits: 15}, 5, true},
		{writeCounts{events: 14, hits: 15}, 5, false}, // an INSERT lost
		{writeCounts{events: 15, hits: 16}, 5, false}, // an UPDATE doubled
	}
	for _, tt := range tests {
		if err := checkWrites(before, tt.after, tt.processed); (err == nil) != tt.ok {
			t.Errorf("checkWrites(%v, %v, %d) = %v, want ok %v", before, tt.after, tt.processed, err, tt.ok)
		}
	}
}
