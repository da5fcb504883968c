package ratelimit

import (
	"container/list"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Entry is one key's bucket and whatever else its owner tracks for it.
type Entry[S any] struct {
	Key    string
	Bucket *rate.Limiter
	State  S
}

// Keyed is a set of token buckets by key, safe for concurrent use. A key's
// entry is created on first use and dropped once it is idle (by default:
// its bucket has refilled, so it holds nothing a fresh entry would not);
// idle entries are dropped, least recently used first, whenever a new key
// arrives. Max, when positive, caps the entries: past it the least
// recently used one goes even if it is not idle, so a flood of keys costs
// at most Max entries.
type Keyed[S any] struct {
	limit rate.Limit
	burst int
	max   int
	now   func() time.Time
	idle  func(now time.Time, e *Entry[S]) bool

	mu sync.Mutex
	// lru orders entries by last use, most recent at the front.
	lru     *list.List
	entries map[string]*list.Element
}

// NewKeyed makes buckets that refill at limit and hold burst tokens. idle
// nil means "the bucket is full"; now nil means time.Now.
func NewKeyed[S any](limit rate.Limit, burst, max int, now func() time.Time, idle func(time.Time, *Entry[S]) bool) *Keyed[S] {
	if now == nil {
		now = time.Now
	}
	k := &Keyed[S]{
		limit:   limit,
		burst:   max1(burst),
		max:     max,
		now:     now,
		idle:    idle,
		lru:     list.New(),
		entries: make(map[string]*list.Element),
	}
	if k.idle == nil {
		k.idle = k.full
	}
	return k
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

func (k *Keyed[S]) full(now time.Time, e *Entry[S]) bool {
	return e.Bucket.TokensAt(now) >= float64(k.burst)
}

// Update runs fn on key's entry, creating it if needed, under the set's
// lock; now is the time fn should use for the bucket.
func (k *Keyed[S]) Update(key string, fn func(now time.Time, e *Entry[S])) {
	now := k.now()
	k.mu.Lock()
	defer k.mu.Unlock()
	el, ok := k.entries[key]
	if ok {
		k.lru.MoveToFront(el)
	} else {
		k.evictIdle(now)
		if k.max > 0 && len(k.entries) >= k.max {
			k.remove(k.lru.Back())
		}
		el = k.lru.PushFront(&Entry[S]{Key: key, Bucket: rate.NewLimiter(k.limit, k.burst)})
		k.entries[key] = el
	}
	fn(now, el.Value.(*Entry[S]))
}

// Inspect runs fn on key's entry if there is one and returns fn's answer;
// without an entry it returns absent. It changes nothing itself.
func (k *Keyed[S]) Inspect(key string, absent bool, fn func(now time.Time, e *Entry[S]) bool) bool {
	now := k.now()
	k.mu.Lock()
	defer k.mu.Unlock()
	el, ok := k.entries[key]
	if !ok {
		return absent
	}
	return fn(now, el.Value.(*Entry[S]))
}

// Forget drops key's entry.
func (k *Keyed[S]) Forget(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if el, ok := k.entries[key]; ok {
		k.remove(el)
	}
}

// Len is how many keys are tracked.
func (k *Keyed[S]) Len() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.entries)
}

// evictIdle drops idle entries from the least recently used end, stopping
// at the first one still in use.
func (k *Keyed[S]) evictIdle(now time.Time) {
	for el := k.lru.Back(); el != nil; el = k.lru.Back() {
		if !k.idle(now, el.Value.(*Entry[S])) {
			return
		}
		k.remove(el)
	}
}

func (k *Keyed[S]) remove(el *list.Element) {
	k.lru.Remove(el)
	delete(k.entries, el.Value.(*Entry[S]).Key)
}
