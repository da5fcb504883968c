// Package hugepages asks the kernel to back large memory with 2 MiB
// pages. Go's heap gives no such advice itself, and where transparent
// huge pages are enabled only on request (the common "madvise" setting)
// every 4 KiB page of a fresh allocation costs a page fault when first
// touched: hundreds of faults per MiB, and a TLB entry per 4 KiB for what
// a random probe reads. On a virtual machine a fault is dearer still
// (about 14 µs per 4 KiB page measured on the bench machine, 3.6 ms per
// MiB first touched, against 0.75 ms per MiB in 2 MiB pages).
//
// The server advises its heap once at start (AdviseHeap), so that the
// memory a query's operators and batches grow into takes one fault per
// 2 MiB; the executor's large hash tables and the slabs that hold the
// storage layer's cached chunks (storage/offheap), which may lie outside
// what was advised, call Advise before they first write their memory.
package hugepages
