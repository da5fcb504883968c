package main

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/sqe-db/sqe/storage"
)

func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		name         string
		live, cached int64
		want         int
	}{
		{"nothing measured yet", 0, 0, 100},
		{"no cache: Go's default", 900 * mib, 0, 100},
		{"small heap: Go's default", 40 * mib, 30 * mib, 100},
		{"cache is half the heap", 1024 * mib, 512 * mib, 50},
		{"cache fills the heap: at least 25", 1024 * mib, 1000 * mib, 25},
		{"a large query beside the cache", 2048 * mib, 512 * mib, 75},
		{"floor of 128 MiB over a 512 MiB heap", 512 * mib, 500 * mib, 25},
		{"floor of 128 MiB over a 256 MiB heap", 256 * mib, 250 * mib, 50},
	} {
		if got := gcPercent(c.live, c.cached); got != c.want {
			t.Errorf("%s: gcPercent(%d MiB, %d MiB) = %d, want %d", c.name, c.live/mib, c.cached/mib, got, c.want)
		}
	}
}

// The pacer leaves GOGC alone when the operator set it, when there is no
// cache and while the cache is empty, and returns when the server stops.
func TestPaceCollectorStops(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, c := range []struct {
		name    string
		chunks  *storage.ChunkCache
		gogcSet bool
	}{
		{"GOGC set", storage.NewChunkCache(1 << 20), true},
		{"no cache", nil, false},
		{"paced", storage.NewChunkCache(1 << 20), false},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			paceCollector(ctx, c.chunks, c.gogcSet)
			close(done)
		}()
		time.Sleep(3 * gcPacingPeriod)
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: the pacer did not return after its context ended", c.name)
		}
		if p := debug.SetGCPercent(100); p != 100 {
			t.Errorf("%s: GOGC = %d, want 100", c.name, p)
		}
	}
}
