// Package hugepages asks the kernel to back large, long-lived memory with
// 2 MiB pages. Go's heap gives no such advice itself, and where
// transparent huge pages are enabled only on request (the common
// "madvise" setting) every 4 KiB page of a fresh allocation costs a page
// fault when first touched: for a join's hash table or a data chunk kept
// in the cache, hundreds of faults per MiB, and a TLB entry per 4 KiB for
// what a random probe reads. The executor's hash tables and the slabs
// that hold the storage layer's cached chunks (storage/offheap) call it
// before they first write their memory.
package hugepages
