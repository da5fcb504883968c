package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// serverStats is one sample of a running SQE server: its resident set
// from /proc and two gauges of its Prometheus endpoint.
type serverStats struct {
	at         time.Time
	rss        int64
	goroutines int64
	heapInuse  int64
}

// metricsGauges are the unlabelled gauges the samples read from /metrics.
const (
	goroutinesMetric = "go_goroutines"
	heapInuseMetric  = "go_memstats_heap_inuse_bytes"
)

// sampleStats reads the server's RSS and its /metrics at httpAddr.
func sampleStats(ctx context.Context, pid int, httpAddr string) (serverStats, error) {
	s := serverStats{at: time.Now()}
	var err error
	if s.rss, err = currentRSS(pid); err != nil {
		return s, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+httpAddr+"/metrics", nil)
	if err != nil {
		return s, fmt.Errorf("metrics: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("metrics: %s", resp.Status)
	}
	gauges, err := parseGauges(resp.Body, goroutinesMetric, heapInuseMetric)
	if err != nil {
		return s, fmt.Errorf("metrics: %w", err)
	}
	s.goroutines, s.heapInuse = gauges[goroutinesMetric], gauges[heapInuseMetric]
	return s, nil
}

// parseGauges reads the named unlabelled samples from Prometheus' text
// exposition format; each must be present.
func parseGauges(r io.Reader, names ...string) (map[string]int64, error) {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	got := make(map[string]int64, len(names))
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || !want[name] {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		got[name] = int64(f)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := got[n]; !ok {
			return nil, fmt.Errorf("no %s sample", n)
		}
	}
	return got, nil
}

func formatMiB(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
