package storage

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
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

// TestChunkCopyHoldsTheirLengthInOneAllocation: a chunk kept in the cache
// is copied piece by piece into one allocation (a slab outside Go's heap
// or, for a small chunk, Go memory), each buffer holding its length only
// (not the room its decoder reserved), with the same values, nulls and
// offsets; dictionary pieces are kept as they are.
func TestChunkCopyHoldsTheirLengthInOneAllocation(t *testing.T) {
	mem := memory.DefaultAllocator
	// An int64 piece whose values buffer has room for twice its values,
	// as pqarrow leaves it, with two NULLs.
	ib := array.NewInt64Builder(mem)
	ib.Reserve(2048)
	for i := range 1000 {
		if i%400 == 7 {
			ib.AppendNull()
		} else {
			ib.Append(int64(i) * 3)
		}
	}
	ints := ib.NewArray()
	defer ints.Release()
	if b := ints.Data().Buffers()[1]; cap(b.Buf()) < 2*b.Len() {
		t.Fatalf("setup: values buffer cap %d, len %d: want room for twice its values", cap(b.Buf()), b.Len())
	}
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "bb", "", "dddd", "e"}, []bool{true, true, false, true, true})
	strs := sb.NewArray()
	defer strs.Release()
	sliced := array.NewSlice(strs, 1, 4) // an offset the copy must keep
	defer sliced.Release()
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true}, nil)
	bools := bb.NewArray()
	defer bools.Release()

	// A chunk of offheapMin bytes or more lies outside Go's heap.
	large := make([]arrow.Array, offheapMin/(8*1000)+1)
	for i := range large {
		large[i] = ints
	}
	for _, pieces := range [][]arrow.Array{{ints, ints}, {sliced}, {bools}, large} {
		c := newChunkCopy(64 << 20)
		for _, p := range pieces {
			c.add(p)
		}
		got := c.arrays()
		var lo, hi uintptr
		for i, p := range got {
			if !array.Equal(p, pieces[i]) {
				t.Fatalf("piece %d: %v, want %v", i, p, pieces[i])
			}
			for _, b := range p.Data().Buffers() {
				if b == nil || b.Len() == 0 {
					continue
				}
				if cap(b.Buf()) != b.Len() {
					t.Fatalf("piece %d of %s: buffer cap %d, len %d", i, p.DataType(), cap(b.Buf()), b.Len())
				}
				start := uintptr(unsafe.Pointer(&b.Buf()[0]))
				if lo == 0 || start < lo {
					lo = start
				}
				hi = max(hi, start+uintptr(b.Len()))
			}
		}
		total := 0
		for _, p := range got {
			total += arrayBytes(p)
		}
		// One allocation: the buffers lie within their summed, aligned
		// lengths of one another.
		if int(hi-lo) > total+64*len(got)*3 {
			t.Fatalf("%s pieces span %d bytes for %d bytes of buffers", got[0].DataType(), hi-lo, total)
		}
		for _, p := range got {
			p.Release()
		}
	}

	dict := array.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}, bools, strs)
	defer dict.Release()
	c := newChunkCopy(64 << 20)
	c.add(dict)
	kept := c.arrays()
	defer kept[0].Release()
	if kept[0] != arrow.Array(dict) {
		t.Fatalf("a dictionary piece was copied")
	}

	// A chunk whose pieces change kind is not kept, whatever came first.
	c = newChunkCopy(64 << 20)
	c.add(dict)
	c.add(ints)
	if got := c.arrays(); got != nil {
		t.Fatalf("a chunk of mixed pieces was kept: %d pieces", len(got))
	}

	// Pieces past the bound: nothing to keep, and nothing held.
	c = newChunkCopy(4096)
	c.add(ints)
	c.add(ints)
	if got := c.arrays(); got != nil {
		t.Fatalf("a chunk past its bound was kept: %d pieces", len(got))
	}
}

// TestArrayBytesCountsCapacity: the cache's budget counts the room an
// array's buffers hold, not only their length.
func TestArrayBytesCountsCapacity(t *testing.T) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.Reserve(4096)
	b.Append(1)
	a := b.NewArray()
	defer a.Release()
	if got := arrayBytes(a); got < 4096*8 {
		t.Fatalf("arrayBytes = %d, want at least the %d bytes reserved", got, 4096*8)
	}
}
