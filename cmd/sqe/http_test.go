package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/sqe-db/sqe/pgwire/metrics"
)

// /readyz follows setReady; /healthz answers whenever the process runs.
func TestOpsServerReadiness(t *testing.T) {
	ops, err := startOpsServer("127.0.0.1:0", metrics.New(), false, slog.New(slog.DiscardHandler))
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
