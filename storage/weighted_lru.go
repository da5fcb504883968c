package storage

import (
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// weightedLRU is a least-recently-used cache bounded both by its entries
// and by the total weight of their values (the file scan tasks of a plan,
// the row groups of a file's statistics, the bytes of a decoded column
// chunk: what the memory grows with). A value heavier than the whole
// bound is not cached. It is safe for concurrent use.
type weightedLRU[K comparable, V any] struct {
	maxWeight int
	weigh     func(V) int
	// dropped, when set, is called under the lock with each value that
	// leaves the cache (pushed out by the bounds or replaced by put).
	dropped func(V)

	mu      sync.Mutex
	entries *simplelru.LRU[K, V]
	weight  int // of the values held
}

func newWeightedLRU[K comparable, V any](maxEntries, maxWeight int, weigh func(V) int) *weightedLRU[K, V] {
	return newDroppingLRU[K](maxEntries, maxWeight, weigh, nil)
}

// newDroppingLRU is newWeightedLRU calling dropped (when not nil) with
// every value that leaves the cache, such as to release what it holds.
func newDroppingLRU[K comparable, V any](maxEntries, maxWeight int, weigh func(V) int, dropped func(V)) *weightedLRU[K, V] {
	c := &weightedLRU[K, V]{maxWeight: maxWeight, weigh: weigh, dropped: dropped}
	entries, err := simplelru.NewLRU(maxEntries, func(_ K, v V) {
		c.weight -= weigh(v)
		if c.dropped != nil {
			c.dropped(v)
		}
	})
	if err != nil {
		// NewLRU fails only for a size below 1, which the callers never pass.
		panic(err)
	}
	c.entries = entries
	return c
}

func (c *weightedLRU[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries.Get(k)
}

// use calls f with the value cached under k, under the lock, so that no
// put can drop the value while f runs; it reports whether there was one.
func (c *weightedLRU[K, V]) use(k K, f func(V)) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.entries.Get(k)
	if ok {
		f(v)
	}
	return ok
}

// put caches v under k, evicting the least recently used entries until
// the weight bound holds.
func (c *weightedLRU[K, V]) put(k K, v V) {
	w := c.weigh(v)
	if w > c.maxWeight {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Two callers that missed at once both put; the second replaces the
	// first without the eviction callback, so its weight is taken off here.
	if old, ok := c.entries.Peek(k); ok {
		c.weight -= c.weigh(old)
		if c.dropped != nil {
			c.dropped(old)
		}
	}
	c.add(k, v, w)
}

// putUnlessOlder caches v under k as put does, unless v is heavier than
// the bound, or caching it would evict entries and stale says the least
// recently used one is worth more than v; it reports whether it cached v.
func (c *weightedLRU[K, V]) putUnlessOlder(k K, v V, stale func(oldest V) bool) bool {
	w := c.weigh(v)
	if w > c.maxWeight {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, replacing := c.entries.Peek(k)
	if !replacing && c.weight+w > c.maxWeight {
		if _, oldest, ok := c.entries.GetOldest(); ok && stale(oldest) {
			return false
		}
	}
	if replacing {
		c.weight -= c.weigh(old)
		if c.dropped != nil {
			c.dropped(old)
		}
	}
	c.add(k, v, w)
	return true
}

// exchange caches v under k and returns the value it replaces, if any.
func (c *weightedLRU[K, V]) exchange(k K, v V) (old V, had bool) {
	w := c.weigh(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, had = c.entries.Peek(k); had {
		c.weight -= c.weigh(old)
	}
	c.add(k, v, w)
	return old, had
}

// add caches v of weight w under k and evicts until the bound holds.
// The caller holds the lock.
func (c *weightedLRU[K, V]) add(k K, v V, w int) {
	c.entries.Add(k, v)
	c.weight += w
	for c.weight > c.maxWeight {
		if _, _, ok := c.entries.RemoveOldest(); !ok {
			break
		}
	}
}

func (c *weightedLRU[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries.Len()
}

// held is the weight of the values held.
func (c *weightedLRU[K, V]) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.weight
}
