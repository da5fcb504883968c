package storage

import (
	"fmt"
	"slices"
	"sync"
	"testing"
)

// cachedRowGroupTable is ns.t of a catalog with cache: ids 0..99 in one
// file of four row groups (30, 30, 30 and 10 rows).
func cachedRowGroupTable(t *testing.T, cache *ChunkCache) *Table {
	t.Helper()
	cat, err := OpenEmbeddedWith(t.Context(), "wh", t.TempDir(), AllowAll{},
		EmbeddedOptions{CommitRetries: DefaultCommitRetries, ChunkCache: cache, SkipFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cat.Close() })
	return rowGroupTableIn(t, cat)
}

// wantIDRows fails unless rows are ids 0..99 with their names, in order.
func wantIDRows(t *testing.T, rows [][]any) {
	t.Helper()
	if len(rows) != 100 {
		t.Fatalf("%d rows, want 100", len(rows))
	}
	for i, r := range rows {
		if r[0] != int64(i) || r[1] != fmt.Sprintf("n%d", i) {
			t.Fatalf("row %d = %v", i, r)
		}
	}
}

// TestChunkCacheKeepsWhatIsReadAgain: a first scan decodes and keeps
// nothing; a second decodes again and keeps every chunk; a third takes
// every chunk from the cache and decodes none.
func TestChunkCacheKeepsWhatIsReadAgain(t *testing.T) {
	cache := NewChunkCache(1 << 30)
	tbl := cachedRowGroupTable(t, cache)
	_, rows := readAll(t, tbl, ScanRequest{})
	wantIDRows(t, rows)
	// Two columns of four row groups.
	if once := cache.Stats(); once.Misses != 8 || once.Hits != 0 || once.Chunks != 0 || once.Bytes != 0 {
		t.Fatalf("after the first read: %+v, want 8 misses and nothing kept", once)
	}
	_, rows = readAll(t, tbl, ScanRequest{})
	wantIDRows(t, rows)
	first := cache.Stats()
	if first.Misses != 16 || first.Hits != 0 || first.Chunks != 8 || first.Bytes <= 0 {
		t.Fatalf("after the second read: %+v, want 16 misses and 8 chunks", first)
	}
	_, rows = readAll(t, tbl, ScanRequest{Columns: []string{"id", "name"}, BatchSize: 7})
	wantIDRows(t, rows)
	second := cache.Stats()
	if second.Misses != first.Misses || second.Hits != 8 || second.Bytes != first.Bytes {
		t.Fatalf("after the third read: %+v, want 8 hits and no new miss", second)
	}
	// Morsels share the cache.
	m, err := tbl.Morsels(adminCtx(t), ScanRequest{Columns: []string{"id"}, MorselRows: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var ids []int64
	for i := range m.Len() {
		ids = append(ids, readMorsel(t, m, i)...)
	}
	if len(ids) != 100 || !slices.IsSorted(ids) {
		t.Fatalf("morsels gave %v", ids)
	}
	if third := cache.Stats(); third.Misses != first.Misses || third.Hits != 12 {
		t.Fatalf("after reading the morsels: %+v, want 12 hits and no new miss", third)
	}
}

// TestChunkCacheEvictsUnderBudget: under a budget for about two chunks, a
// table scanned over and over keeps the chunks it cached first and reads
// them from the cache on every later scan (it does not evict the chunks
// the next scan reads first); chunks of another column read again more
// recently than those were used take their place; reads stay right and
// the bytes within the budget throughout.
func TestChunkCacheEvictsUnderBudget(t *testing.T) {
	probe := NewChunkCache(1 << 30)
	probeTable := cachedRowGroupTable(t, probe)
	readAll(t, probeTable, ScanRequest{Columns: []string{"id"}})
	_, rows := readAll(t, probeTable, ScanRequest{Columns: []string{"id"}})
	wantRows := len(rows)
	perChunk := probe.Stats().Bytes / 4

	cache := NewChunkCache(perChunk*2 + perChunk/2)
	tbl := cachedRowGroupTable(t, cache)
	readAll(t, tbl, ScanRequest{Columns: []string{"id"}}) // seen once: kept from the next read on
	var before ChunkCacheStats
	for i := range 3 {
		_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}})
		if len(rows) != wantRows {
			t.Fatalf("%d rows, want %d", len(rows), wantRows)
		}
		st := cache.Stats()
		if st.Bytes > st.Budget || st.Chunks != 2 || st.Evictions != 0 {
			t.Fatalf("scan %d: stats %+v: want the two chunks cached first, within the budget, nothing evicted", i, st)
		}
		if i > 0 && st.Hits-before.Hits != 2 {
			t.Fatalf("scan %d: %d hits, want the 2 cached chunks", i, st.Hits-before.Hits)
		}
		before = st
	}
	readAll(t, tbl, ScanRequest{Columns: []string{"name"}})
	_, rows = readAll(t, tbl, ScanRequest{})
	wantIDRows(t, rows)
	if st := cache.Stats(); st.Bytes > st.Budget || st.Evictions == 0 || st.Chunks == 0 {
		t.Fatalf("stats %+v: want the name chunks to have evicted older ones, within the budget", st)
	}
}

// TestChunkCacheConcurrentReaders: scans and morsels read the same chunks
// at once while a small budget evicts them (run with -race).
func TestChunkCacheConcurrentReaders(t *testing.T) {
	probe := NewChunkCache(1 << 30)
	probeTable := cachedRowGroupTable(t, probe)
	readAll(t, probeTable, ScanRequest{})
	readAll(t, probeTable, ScanRequest{})
	cache := NewChunkCache(probe.Stats().Bytes / 2)
	tbl := cachedRowGroupTable(t, cache)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 5 {
				_, rows := readAll(t, tbl, ScanRequest{})
				wantIDRows(t, rows)
			}
		}()
		go func() {
			defer wg.Done()
			m, err := tbl.Morsels(adminCtx(t), ScanRequest{Columns: []string{"id", "name"}, MorselRows: 1})
			if err != nil {
				t.Error(err)
				return
			}
			defer m.Close()
			for range 5 {
				var ids []int64
				for i := range m.Len() {
					ids = append(ids, readMorsel(t, m, i)...)
				}
				if len(ids) != 100 || !slices.IsSorted(ids) {
					t.Errorf("morsels gave %v", ids)
				}
			}
		}()
	}
	wg.Wait()
	st := cache.Stats()
	if st.Hits == 0 || st.Evictions == 0 || st.Bytes > st.Budget {
		t.Fatalf("stats %+v: want hits, evictions and bytes within the budget", st)
	}
}

// TestChunkCacheDisabled: a budget of 0 is no cache, and scans read
// the same without one.
func TestChunkCacheDisabled(t *testing.T) {
	cache := NewChunkCache(0)
	if cache != nil {
		t.Fatal("NewChunkCache(0) made a cache")
	}
	if st := cache.Stats(); st != (ChunkCacheStats{}) {
		t.Fatalf("stats of no cache = %+v", st)
	}
	tbl := cachedRowGroupTable(t, cache)
	for range 2 {
		_, rows := readAll(t, tbl, ScanRequest{})
		wantIDRows(t, rows)
	}
}
