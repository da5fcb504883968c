// Package bufferpool keeps Arrow buffers for reuse within one scan or one
// query. The storage layer's Parquet decoding allocates a scan's values,
// bitmaps and page buffers from a Pool; the executor gathers a query's
// rows (filters' and joins' output batches) into buffers from another.
// Each buffer returns to its pool when Arrow's reference count releases
// it, and the next piece or batch takes it again, so a scan or a query
// keeps touching the memory it already touched instead of taking fresh
// pages from the system.
//
// Builds with the race detector or the sqe_poison tag pool every buffer
// and poison it when freed, so that a read after release changes an
// answer in the tests rather than passing unnoticed.
package bufferpool
