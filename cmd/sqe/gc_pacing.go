package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/sqe-db/sqe/storage"
)

// The Go collector lets the heap grow to twice what survived the last
// collection (GOGC=100) before it collects again. The data cache's chunks
// survive every collection, so a cache of 1 GiB would let each query's
// short-lived batches spread over another gigabyte of memory the process
// touches for the first time, a page fault per 4 KiB, before any of it is
// reused: the runs right after a table entered the cache were slower than
// the first. The pacer sizes the growth by the heap outside the cache
// instead, at least gcHeadroomFloor, never more than GOGC=100 would allow.
// Cached chunks hold no pointers, so the extra collections mark little.
const (
	gcHeadroomFloor = 128 << 20
	gcPercentMin    = 25
	gcPercentMax    = 100
	gcPacingPeriod  = 250 * time.Millisecond
)

// gcPercent is the GOGC value under which the heap grows by the live heap
// outside the cache (at least gcHeadroomFloor) before the next collection.
func gcPercent(live, cached int64) int {
	if live <= 0 {
		return gcPercentMax
	}
	headroom := max(live-cached, gcHeadroomFloor)
	return int(min(max(headroom*100/live, gcPercentMin), gcPercentMax))
}

// paceCollector adjusts GOGC to the cache's size until ctx ends. It does
// nothing without a cache or when GOGC is set in the environment (the
// operator's choice wins).
func paceCollector(ctx context.Context, chunks *storage.ChunkCache, gogcSet bool) {
	if chunks == nil || gogcSet {
		return
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	current := gcPercentMax
	tick := time.NewTicker(gcPacingPeriod)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		p := gcPercent(int64(sample[0].Value.Uint64()), chunks.Stats().Bytes)
		// Small moves are not worth a change of the collector's goal.
		if p != current && (p <= current-5 || p >= current+5 || p == gcPercentMax) {
			debug.SetGCPercent(p)
			current = p
		}
	}
}
