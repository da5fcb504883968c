package exec

import (
	"context"
	"math"
	"sync"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// MemoryBudget is one query's memory account. Operators that hold rows
// beyond the batch they are working on (a hash join's build side, an
// aggregate's groups, a sort's input...) reserve what they retain before
// keeping it and give it back on Close, so a query that would outgrow its
// limit fails with 53200 instead of taking the server's memory.
//
// The sizes are estimates: Arrow buffers are measured, hash tables and
// slices are charged a per-entry overhead. A budget is safe for use by
// several goroutines.
type MemoryBudget struct {
	limit int64

	mu   sync.Mutex
	used int64
	peak int64
}

// NewMemoryBudget returns a budget of limit bytes; limit <= 0 means no
// limit (the budget still counts).
func NewMemoryBudget(limit int64) *MemoryBudget {
	return &MemoryBudget{limit: limit}
}

// Limit is the budget's limit in bytes, 0 when unlimited.
func (b *MemoryBudget) Limit() int64 {
	if b == nil || b.limit <= 0 {
		return 0
	}
	return b.limit
}

// Used is the number of bytes reserved now.
func (b *MemoryBudget) Used() int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak is the most bytes reserved at once so far.
func (b *MemoryBudget) Peak() int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// reserve takes n more bytes for the memory context what, or fails with
// PostgreSQL's out-of-memory error when that would pass the limit.
func (b *MemoryBudget) reserve(what string, n int64) error {
	if b == nil || n <= 0 {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limit > 0 && b.used+n > b.limit {
		return pgerror.New(pgerror.OutOfMemory, "out of memory").
			WithDetail("Failed on request of size %d in memory context \"%s\" (query memory_limit %d bytes, %d in use).", n, what, b.limit, b.used).
			WithHint("Raise [query] memory_limit in the server configuration, or make the query hold fewer rows.")
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return nil
}

// reserveIfFits takes n more bytes when they fit within the limit, and
// reports whether it did; an operator that can spill asks this way.
func (b *MemoryBudget) reserveIfFits(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.limit > 0 && b.used+n > b.limit {
		return false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return true
}

// reserveAnyway takes n more bytes even past the limit: what a hash
// aggregate already holds when it finds it must start spilling (at most
// one batch's new groups over).
func (b *MemoryBudget) reserveAnyway(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used += n
	b.peak = max(b.peak, b.used)
}

// available is what may still be reserved, math.MaxInt64 without a
// limit.
func (b *MemoryBudget) available() int64 {
	if b == nil || b.limit <= 0 {
		return math.MaxInt64
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return max(b.limit-b.used, 0)
}

// release gives n bytes back.
func (b *MemoryBudget) release(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

type memoryBudgetKey struct{}

// WithMemoryBudget returns a context whose queries Build charges to b.
// Without one, operators count nothing and have no limit.
func WithMemoryBudget(ctx context.Context, b *MemoryBudget) context.Context {
	return context.WithValue(ctx, memoryBudgetKey{}, b)
}

// MemoryBudgetFrom returns the budget ctx carries, or nil.
func MemoryBudgetFrom(ctx context.Context) *MemoryBudget {
	b, _ := ctx.Value(memoryBudgetKey{}).(*MemoryBudget)
	return b
}

// reservation is what one operator holds of its query's budget, under the
// name its error reports (PostgreSQL's "memory context"). The zero value,
// without a budget, counts without limit.
type reservation struct {
	budget *MemoryBudget
	what   string
	held   int64
}

func newReservation(ctx context.Context, what string) reservation {
	return reservation{budget: MemoryBudgetFrom(ctx), what: what}
}

// grow reserves n more bytes.
func (r *reservation) grow(n int64) error {
	if n <= 0 {
		return nil
	}
	if err := r.budget.reserve(r.what, n); err != nil {
		return err
	}
	r.held += n
	return nil
}

// tryGrow reserves n more bytes if they fit, and reports whether it did.
func (r *reservation) tryGrow(n int64) bool {
	if n <= 0 {
		return true
	}
	if !r.budget.reserveIfFits(n) {
		return false
	}
	r.held += n
	return true
}

// tryResize makes the reservation n bytes if that fits (shrinking always
// does), and reports whether it did.
func (r *reservation) tryResize(n int64) bool {
	if n > r.held {
		return r.tryGrow(n - r.held)
	}
	r.shrink(r.held - n)
	return true
}

// forceResize makes the reservation n bytes, past the limit if need be.
func (r *reservation) forceResize(n int64) {
	if n > r.held {
		r.budget.reserveAnyway(n - r.held)
		r.held = n
		return
	}
	r.shrink(r.held - n)
}

// shrink gives back n bytes (at most what is held).
func (r *reservation) shrink(n int64) {
	n = min(n, r.held)
	if n <= 0 {
		return
	}
	r.budget.release(n)
	r.held -= n
}

// resize makes the reservation n bytes: growing may fail, shrinking
// cannot.
func (r *reservation) resize(n int64) error {
	if n > r.held {
		return r.grow(n - r.held)
	}
	r.shrink(r.held - n)
	return nil
}

// close gives everything back; the operator's Close calls it.
func (r *reservation) close() { r.shrink(r.held) }
