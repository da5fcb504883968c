package storage

import (
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// A chunk cache holds at most this many chunks, whatever their bytes (a
// bound on the bookkeeping of tiny chunks), the footers of at most this
// many files, and remembers at most this many chunks read once.
const (
	chunkCacheChunks  = 1 << 20
	chunkCacheFooters = 4096
	chunkCacheSeen    = 1 << 18
)

// ChunkCache holds decoded column chunks of data files, keyed by the
// file (path and size), the column's field id and the row group, and
// the parsed footers of those files, so that a scan reading a chunk
// again neither decodes it nor reads the footer. Data files are never
// rewritten in place (copy-on-write), so an entry stays true; a file
// that is dropped just ages out. The cache holds stored values only:
// every scan still goes through gate one, and the filters and masks of
// the query above the scan apply to what it hands out. Its arrays are
// shared between scans and never mutated.
//
// A chunk is kept the second time it is read, not the first: memory the
// cache keeps is memory the process touches for the first time (a page
// fault per page), which a query reading its chunks once, such as the
// first after a restart, would pay for nothing. A chunk read again is
// worth it, unless the cache is full and the chunk was read again after
// a longer while than its least recently used chunk has gone unused:
// then keeping it would evict a chunk more likely to be read again. A
// table scanned over and over that is larger than the cache (lineitem at
// scale factor 10 is five times 1 GiB) thus keeps the chunks it filled
// the cache with, read from memory on every scan, instead of each scan
// evicting the chunks the next one reads first and decoding everything.
//
// It is bounded by the bytes of the decoded arrays and evicts the least
// recently used chunks. One cache may serve several catalogs; it is safe
// for concurrent use. A nil *ChunkCache caches nothing.
type ChunkCache struct {
	budget  int64
	chunks  *weightedLRU[chunkKey, *decodedChunk]
	footers *weightedLRU[fileKey, *parquetFooter]
	// seen holds the chunks read and not cached, with the clock's reading
	// at the last such read.
	seen *weightedLRU[chunkKey, int64]
	// clock counts chunk look-ups: the time of a read or a use.
	clock atomic.Int64

	hits, misses, dropped atomic.Int64
}

// fileKey names a data file's content: its path and size.
type fileKey struct {
	path string
	size int64
}

type chunkKey struct {
	file     fileKey
	fieldID  int
	rowGroup int
}

// decodedChunk is one column of one row group, decoded into pieces of
// decodeRows rows (the last one shorter) of the column's table type at
// the time it was decoded.
type decodedChunk struct {
	pieces []arrow.Array
	bytes  int
	// lastUse is the cache clock's reading when the chunk was last read.
	lastUse atomic.Int64
}

func (d *decodedChunk) release() {
	for _, p := range d.pieces {
		p.Release()
	}
}

// NewChunkCache returns a cache bounded to budget bytes of decoded
// arrays, or nil (no cache) when budget is 0 or less.
func NewChunkCache(budget int64) *ChunkCache {
	if budget <= 0 {
		return nil
	}
	c := &ChunkCache{budget: budget}
	c.chunks = newDroppingLRU[chunkKey](chunkCacheChunks, int(min(budget, math.MaxInt)),
		func(d *decodedChunk) int { return d.bytes },
		func(d *decodedChunk) {
			c.dropped.Add(1)
			d.release()
		})
	c.footers = newWeightedLRU[fileKey](chunkCacheFooters, chunkCacheFooters,
		func(*parquetFooter) int { return 1 })
	c.seen = newWeightedLRU[chunkKey](chunkCacheSeen, chunkCacheSeen, func(int64) int { return 1 })
	return c
}

// ChunkCacheStats are a chunk cache's counters since it was made.
type ChunkCacheStats struct {
	// Hits and Misses count chunk look-ups: a miss decodes the chunk.
	Hits, Misses int64
	// Evictions counts chunks the budget pushed out (or a newer decode
	// of the same chunk replaced).
	Evictions int64
	// Bytes is what the cached chunks hold, Chunks how many there are;
	// Budget is the bound on Bytes.
	Bytes, Chunks, Budget int64
}

// Stats returns the counters; all zero for a nil cache.
func (c *ChunkCache) Stats() ChunkCacheStats {
	if c == nil {
		return ChunkCacheStats{}
	}
	return ChunkCacheStats{
		Hits: c.hits.Load(), Misses: c.misses.Load(), Evictions: c.dropped.Load(),
		Bytes: int64(c.chunks.held()), Chunks: int64(c.chunks.len()), Budget: c.budget,
	}
}

// chunk returns the pieces cached under k, each retained for the caller,
// when they are of type typ (a column promoted since it was cached is
// decoded again). On a miss, seenAt is the clock's reading when the chunk
// was last read before, 0 when it never was: the caller collects the
// chunk it decodes for keep only when it was read before.
func (c *ChunkCache) chunk(k chunkKey, typ arrow.DataType) (pieces []arrow.Array, ok bool, seenAt int64) {
	now := c.clock.Add(1)
	var out []arrow.Array
	c.chunks.use(k, func(d *decodedChunk) {
		if len(d.pieces) == 0 || !arrow.TypeEqual(d.pieces[0].DataType(), typ) {
			return
		}
		d.lastUse.Store(now)
		out = make([]arrow.Array, len(d.pieces))
		for i, p := range d.pieces {
			p.Retain()
			out[i] = p
		}
	})
	if out == nil {
		c.misses.Add(1)
		seenAt, _ = c.seen.exchange(k, now)
		return nil, false, seenAt
	}
	c.hits.Add(1)
	return out, true, 0
}

// keep caches the pieces of the chunk k, retaining them (the caller keeps
// its own references), unless the cache is full and the chunk, read
// before at seenAt, was read less recently than the least recently used
// cached chunk was.
func (c *ChunkCache) keep(k chunkKey, pieces []arrow.Array, seenAt int64) {
	d := &decodedChunk{pieces: make([]arrow.Array, len(pieces))}
	for i, p := range pieces {
		p.Retain()
		d.pieces[i] = p
		d.bytes += arrayBytes(p)
	}
	d.lastUse.Store(c.clock.Load())
	if !c.chunks.putUnlessOlder(k, d, func(oldest *decodedChunk) bool { return seenAt < oldest.lastUse.Load() }) {
		d.release()
	}
}

// arrayBytes is the memory an array holds: the capacity of its buffers,
// its children's and its dictionary's, which a decoder may have reserved
// past the values' length.
func arrayBytes(a arrow.Array) int {
	return dataBytes(a.Data())
}

// dataBytes is arrayBytes of an array's data.
func dataBytes(d arrow.ArrayData) int {
	n := 0
	for _, b := range d.Buffers() {
		if b != nil {
			n += cap(b.Buf())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		n += dataBytes(d.Dictionary())
	}
	return n
}

// alignedLen is n rounded up to Arrow's 64-byte buffer alignment.
func alignedLen(n int) int { return (n + 63) &^ 63 }

// parquetFooter is a data file's parsed footer and the Arrow schema
// manifest derived from it, which took as long to build as the rest of
// opening a file for a one-row lookup. Both are read only once cached.
type parquetFooter struct {
	meta     *metadata.FileMetaData
	manifest *pqarrow.SchemaManifest
}

// newParquetFooter derives the manifest of meta.
func newParquetFooter(meta *metadata.FileMetaData) (*parquetFooter, error) {
	manifest, err := pqarrow.NewSchemaManifest(meta.Schema, meta.KeyValueMetadata(), &pqarrow.ArrowReadProperties{})
	if err != nil {
		return nil, err
	}
	return &parquetFooter{meta: meta, manifest: manifest}, nil
}

// footer returns the cached footer of the file k.
func (c *ChunkCache) footer(k fileKey) (*parquetFooter, bool) {
	return c.footers.get(k)
}

// keepFooter caches the parsed footer of the file k.
func (c *ChunkCache) keepFooter(k fileKey, f *parquetFooter) {
	c.footers.put(k, f)
}
