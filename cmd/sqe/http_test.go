package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/pgwire/metrics"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/storage"
)

// /readyz follows setReady; /healthz answers whenever the process runs.
func TestOpsServerReadiness(t *testing.T) {
	ops, err := startOpsServer("127.0.0.1:0", metrics.New().Handler(), false, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := ops.shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()
	base := "http://" + ops.ln.Addr().String()
	steps := []struct {
		ready      bool
		path       string
		wantStatus int
	}{
		{false, "/healthz", http.StatusOK},
		{false, "/readyz", http.StatusServiceUnavailable},
		{true, "/readyz", http.StatusOK},
		{true, "/metrics", http.StatusOK},
		{false, "/readyz", http.StatusServiceUnavailable},
	}
	client := http.Client{Timeout: 10 * time.Second}
	for _, s := range steps {
		ops.setReady(s.ready)
		resp, err := client.Get(base + s.path)
		if err != nil {
			t.Fatalf("GET %s: %v", s.path, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != s.wantStatus {
			t.Errorf("ready %v: GET %s = %d, want %d", s.ready, s.path, resp.StatusCode, s.wantStatus)
		}
	}
}

// /metrics shows the data cache's counters beside the server's, and
// only when there is a cache.
func TestMetricsShowDataCache(t *testing.T) {
	for _, budget := range []int64{1 << 20, 0} {
		rec := httptest.NewRecorder()
		metricsHandler(metrics.New(), storage.NewChunkCache(budget), nil).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		body := rec.Body.String()
		if !strings.Contains(body, "sqe_connections ") {
			t.Errorf("budget %d: /metrics lacks the server's metrics", budget)
		}
		for _, name := range []string{"sqe_data_cache_hits_total 0", "sqe_data_cache_misses_total 0", "sqe_data_cache_evictions_total 0",
			"sqe_data_cache_bytes 0", "sqe_data_cache_budget_bytes 1.048576e+06"} {
			if got := strings.Contains(body, name+"\n"); got != (budget > 0) {
				t.Errorf("budget %d: /metrics shows %q: %v", budget, name, got)
			}
		}
	}
}

// /metrics shows what queries spilled, beside the server's metrics.
func TestMetricsShowSpill(t *testing.T) {
	for _, chunks := range []*storage.ChunkCache{nil, storage.NewChunkCache(1 << 20)} {
		rec := httptest.NewRecorder()
		metricsHandler(metrics.New(), chunks, exec.NewSpillDir(t.TempDir())).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		body := rec.Body.String()
		for _, want := range []string{"sqe_connections ", "sqe_spill_bytes_total 0\n", "sqe_spill_files_total 0\n"} {
			if !strings.Contains(body, want) {
				t.Errorf("cache %v: /metrics lacks %q", chunks != nil, want)
			}
		}
		if got := strings.Contains(body, "sqe_data_cache_hits_total"); got != (chunks != nil) {
			t.Errorf("cache %v: data cache counters shown: %v", chunks != nil, got)
		}
	}
}
