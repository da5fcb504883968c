package storage

import (
	"sync"

	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// weightedLRU is a least-recently-used cache bounded both by its entries
// and by the total weight of their values (the file scan tasks of a plan,
// the row groups of a file's statistics: what the memory grows with). A
// value heavier than the whole bound is not cached. It is safe for
// concurrent use.
type weightedLRU[K comparable, V any] struct {
	maxWeight int
	weigh     func(V) int

	mu      sync.Mutex
	entries *simplelru.LRU[K, V]
	weight  int // of the values held
}

func newWeightedLRU[K comparable, V any](maxEntries, maxWeight int, weigh func(V) int) *weightedLRU[K, V] {
	c := &weightedLRU[K, V]{maxWeight: maxWeight, weigh: weigh}
	entries, err := simplelru.NewLRU(maxEntries, func(_ K, v V) { c.weight -= weigh(v) })
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
	}
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
