package bufferpool

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Pool is a memory.Allocator whose buffers return to it for reuse. A
// scan's Parquet decoding draws from one (pqarrow gives each decoded piece
// buffers of its own and the operators release a piece once they have
// used it), and so does one query's gathering of rows (a filter's or a
// join's output batches, released by the operator above once used):
// handing those buffers to the next piece or batch reuses memory already
// touched. With Go's allocator every piece took fresh memory: on a server
// whose heap had not yet grown, a page fault per 4 KiB (a cold Q6 took
// 18,000, a third of its CPU) and, once the collector had freed some,
// zeroing what it reused.
//
// Buffers of at least minPooled bytes are kept in power-of-two classes;
// smaller ones come from Go's allocator and are left to the collector.
// sync.Pool lets the collector drop what is not reused. A buffer is zeroed
// when Allocate hands it out again, as Go's allocator hands out zeroed
// memory (Arrow's allocators promise it); Get does not, for a caller that
// writes every byte.
//
// A pool belongs to one scan or one query, so what it hands out again
// held that scan's or query's values. Reuse relies on every holder of an
// array retaining it (Arrow's reference counts): a buffer goes back to
// the pool when its count reaches zero. Builds with the race detector, and
// those with the sqe_poison tag (the compatibility tests' server), check
// that: every buffer is pooled whatever its size and filled with
// poisonByte when freed, so a read after release returns garbage and an
// answer differs.
type Pool struct {
	classes   [bufferClasses]sync.Pool // class c holds *[]byte of 1<<c bytes
	minPooled int
	poison    bool
}

const (
	// minPooled is the smallest buffer kept for reuse: a piece's values
	// (65,536 rows of 4 or 8 bytes) and bitmaps of its size; smaller
	// ones are few and cheap for Go's allocator.
	minPooled = 64 << 10
	// minClass is the smallest class when every buffer is pooled: 64
	// bytes, Arrow's buffer alignment (Go's power-of-two size classes
	// are aligned to their size).
	minClass      = 6
	bufferClasses = 48
	poisonByte    = 0xa5
)

// New returns a pool, checked as the build says.
func New() *Pool {
	if poisonFreed {
		return &Pool{minPooled: 0, poison: true}
	}
	return &Pool{minPooled: minPooled}
}

// class is the pool class of a buffer of size bytes.
func bufferClass(size int) int {
	return max(minClass, bits.Len(uint(size-1)))
}

// Allocate returns size zeroed bytes.
func (p *Pool) Allocate(size int) []byte {
	b, reused := p.get(size)
	if reused {
		clear(b)
	}
	return b
}

// Get returns size bytes whose contents are undefined, for a caller that
// writes all of them; Buffer wraps them for Arrow.
func (p *Pool) Get(size int) []byte {
	b, _ := p.get(size)
	return b
}

// get returns size bytes, reused when they come from a class's free
// buffers (their contents then undefined), or else zeroed.
func (p *Pool) get(size int) (_ []byte, reused bool) {
	if size < p.minPooled || size <= 0 {
		return memory.DefaultAllocator.Allocate(size), false
	}
	c := bufferClass(size)
	if c >= bufferClasses {
		return memory.DefaultAllocator.Allocate(size), false
	}
	if v := p.classes[c].Get(); v != nil {
		return (*v.(*[]byte))[:size], true
	}
	return make([]byte, size, 1<<c), false
}

// Buffer wraps b, from Get or Allocate, as an Arrow buffer that returns it
// to the pool when released.
func (p *Pool) Buffer(b []byte) *memory.Buffer {
	return memory.NewBufferWithAllocator(b, p)
}

// Reallocate returns b grown or shrunk to size bytes, its contents kept
// and any added bytes zero.
func (p *Pool) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) && p.pooled(b) {
		if size > len(b) {
			grown := b[:size]
			clear(grown[len(b):])
			return grown
		}
		return b[:size]
	}
	out := p.Allocate(size)
	copy(out, b)
	p.Free(b)
	return out
}

// Free takes b back for reuse when it is one of the pool's buffers.
func (p *Pool) Free(b []byte) {
	if !p.pooled(b) {
		return
	}
	b = b[:cap(b)]
	if p.poison {
		for i := range b {
			b[i] = poisonByte
		}
	}
	p.classes[bits.Len(uint(cap(b)-1))].Put(&b)
}

// pooled reports whether b is a buffer Allocate made for a class: its
// capacity is a class size the pool hands out (Go's allocator's buffers
// are of their requested size, below minPooled when they came from
// Allocate).
func (p *Pool) pooled(b []byte) bool {
	c := cap(b)
	return c >= p.minPooled && c >= 1<<minClass && c&(c-1) == 0 && bufferClass(c) < bufferClasses
}
