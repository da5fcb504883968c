// Package offheap holds long-lived Arrow data outside Go's heap.
//
// The storage layer's chunk cache keeps decoded column chunks for as long
// as its budget allows, hundreds of MiB that survive every collection.
// Held in Go's heap they count toward its goal: the collector lets the
// heap grow by as much again as survived before it collects, so a query
// that follows the filling of the cache spreads its short-lived batches
// over memory the process touches for the first time (a page fault per
// 4 KiB), and the queries' own memory competes with the cache's for what
// the heap already holds. Outside the heap, the cache's memory is neither
// marked nor counted: the heap stays the size of the queries' working
// sets, which the first run of a query has already touched.
//
// A Slab is one anonymous mapping, advised to use huge pages for its
// whole 2 MiB pages (one fault per 2 MiB when first written). Its memory
// is handed out as Arrow buffers, each holding a reference to the slab
// through Arrow's reference counts; the slab is unmapped when the last is
// released, or when the collector finds none of them reachable any more
// (a holder that dropped an array without releasing it), so a missed
// release costs memory for one collection cycle, not for good.
//
// Reading a buffer after its release is a fault, never another slab's
// data, in builds with the race detector or the sqe_poison tag (all of
// the Go tests and the compatibility tests' server): their released slabs
// are made inaccessible instead of unmapped, so their addresses are never
// reused.
// Data flows in from the storage layer's decoder (storage.ChunkCache
// copies a decoded chunk into one slab) and out to every scan that reads
// the chunk again.
package offheap
