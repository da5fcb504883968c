package offheap

import (
	"os"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/storage/hugepages"
)

// Slab is memory outside Go's heap shared by the Arrow buffers made over
// it. It implements memory.Allocator only so that those buffers release
// their part of it; it allocates nothing itself.
type Slab struct {
	m *mapping
	// refs counts the buffers over the slab and the caller's reference
	// from New.
	refs atomic.Int64
}

// mapping is the slab's memory: mem the bytes handed out, whole the
// pages mapped for them. It is separate from the Slab so that the
// collector's cleanup can unmap it once the Slab is unreachable.
type mapping struct {
	mem, whole []byte
	// shared is set once a buffer was made over mem: only then can a
	// holder read it after its release.
	shared   atomic.Bool
	released atomic.Bool
}

// hugePage is the size of a huge page the slab's memory is aligned to.
const hugePage = 2 << 20

// New maps size bytes, zeroed; only the pages written take memory, so a
// caller that does not know how much it will write can ask for a bound
// and Trim the rest. It returns nil when size is not positive or the
// system refuses the mapping (or has none: then the caller uses Go's
// heap). The caller holds one reference, which Release drops.
func New(size int) *Slab {
	if size <= 0 {
		return nil
	}
	// Room to align the start to a huge page when the slab spans one;
	// what is not used of it is unmapped at once.
	slack := 0
	if size >= hugePage {
		slack = hugePage
	}
	whole, err := mapMemory(pageRound(size) + slack)
	if err != nil {
		return nil
	}
	start := 0
	if slack > 0 {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(whole)))
		start = int((hugePage - base%hugePage) % hugePage)
		unmapMemory(whole[:start])
	}
	end := start + pageRound(size)
	unmapMemory(whole[end:])
	whole = whole[start:end:end]
	hugepages.Advise(unsafe.Pointer(unsafe.SliceData(whole)), uintptr(size))
	m := &mapping{mem: whole[:size:size], whole: whole}
	s := &Slab{m: m}
	s.refs.Store(1)
	runtime.AddCleanup(s, (*mapping).release, m)
	return s
}

// Bytes is the slab's memory.
func (s *Slab) Bytes() []byte { return s.m.mem }

// Trim returns the slab's pages past its first n bytes to the system and
// shortens Bytes to n. It must come before the first Buffer.
func (s *Slab) Trim(n int) {
	m := s.m
	if n < 0 || n >= len(m.mem) || m.shared.Load() {
		return
	}
	keep := pageRound(n)
	unmapMemory(m.whole[keep:])
	m.whole = m.whole[:keep:keep]
	m.mem = m.whole[:n:n]
}

// Buffer returns an Arrow buffer over b, which must lie within Bytes; it
// holds a reference to the slab until Arrow releases it.
func (s *Slab) Buffer(b []byte) *memory.Buffer {
	s.m.shared.Store(true)
	s.refs.Add(1)
	return memory.NewBufferWithAllocator(b, s)
}

// Release drops the reference New returned with.
func (s *Slab) Release() { s.unref() }

func (s *Slab) unref() {
	if s.refs.Add(-1) == 0 {
		s.m.release()
	}
}

// Allocate is Go's allocation: a slab's buffers are fixed, so Arrow asks
// for memory only if a holder resizes one, and then not from the slab.
func (s *Slab) Allocate(size int) []byte { return make([]byte, size) }

// Reallocate copies b into Go memory of size bytes and releases b.
func (s *Slab) Reallocate(size int, b []byte) []byte {
	out := make([]byte, size)
	copy(out, b)
	s.Free(b)
	return out
}

// Free drops the reference of the buffer over b; b from Allocate is left
// to the collector.
func (s *Slab) Free(b []byte) {
	if s.holds(b) {
		s.unref()
	}
}

// holds reports whether b lies in the slab's memory.
func (s *Slab) holds(b []byte) bool {
	if cap(b) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s.m.mem)))
	return p >= lo && p < lo+uintptr(len(s.m.mem))
}

// release returns the memory to the system once.
func (m *mapping) release() {
	if m.released.Swap(true) {
		return
	}
	if guardFreed && m.shared.Load() {
		guardMemory(m.whole)
		return
	}
	unmapMemory(m.whole)
}

// pageRound is n rounded up to whole pages, a mapping's granularity.
func pageRound(n int) int {
	page := os.Getpagesize()
	return (n + page - 1) &^ (page - 1)
}
