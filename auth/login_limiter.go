package auth

import (
	"container/list"
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxLimiterEntries caps how many source addresses LoginLimiter tracks, so
// a flood of failures from many addresses cannot grow memory without bound.
const maxLimiterEntries = 10000

// LoginLimiter slows down password guessing: each source address has a
// token bucket that a failed login drains and time refills. An address
// whose bucket is empty is turned away before its token is even verified,
// which also spares the external issuer's JWKS endpoint from being hit by
// tokens with made-up key ids. It is safe for concurrent use; a nil
// *LoginLimiter allows everything.
type LoginLimiter struct {
	limit rate.Limit
	burst int
	max   int
	now   func() time.Time

	mu sync.Mutex
	// lru orders entries by last failure, most recent at the front, so the
	// oldest is the one evicted when the map is full.
	lru     *list.List
	entries map[string]*list.Element
}

type limiterEntry struct {
	addr    string
	limiter *rate.Limiter
}

// NewLoginLimiter allows burst failed logins per source address at once and
// refills perMinute of them a minute. perMinute <= 0 disables limiting;
// burst < 1 counts as 1.
func NewLoginLimiter(perMinute int, burst int) *LoginLimiter {
	if burst < 1 {
		burst = 1
	}
	limit := rate.Inf
	if perMinute > 0 {
		limit = rate.Limit(float64(perMinute) / 60)
	}
	return &LoginLimiter{
		limit:   limit,
		burst:   burst,
		max:     maxLimiterEntries,
		now:     time.Now,
		lru:     list.New(),
		entries: make(map[string]*list.Element),
	}
}

// sourceKey reduces addr to its host, so failures from one client count
// together across connections (each has its own port).
func sourceKey(addr string) string {
	if host, _, err := net.SplitHostPort(addr); err == nil {
		return host
	}
	return addr
}

// Allow reports whether addr may attempt a login now. It does not consume
// anything: only Failure does.
func (l *LoginLimiter) Allow(addr string) bool {
	if l == nil || l.limit == rate.Inf {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	el, ok := l.entries[sourceKey(addr)]
	if !ok {
		return true
	}
	return el.Value.(*limiterEntry).limiter.TokensAt(l.now()) >= 1
}

// Failure records a failed login from addr.
func (l *LoginLimiter) Failure(addr string) {
	if l == nil || l.limit == rate.Inf {
		return
	}
	key := sourceKey(addr)
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	el, ok := l.entries[key]
	if ok {
		l.lru.MoveToFront(el)
	} else {
		l.evictIdle(now)
		if len(l.entries) >= l.max {
			l.remove(l.lru.Back())
		}
		el = l.lru.PushFront(&limiterEntry{addr: key, limiter: rate.NewLimiter(l.limit, l.burst)})
		l.entries[key] = el
	}
	el.Value.(*limiterEntry).limiter.AllowN(now, 1)
}

// Success forgets addr's failures: a client that can log in is not
// guessing.
func (l *LoginLimiter) Success(addr string) {
	if l == nil || l.limit == rate.Inf {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if el, ok := l.entries[sourceKey(addr)]; ok {
		l.remove(el)
	}
}

// evictIdle drops entries, oldest first, whose bucket has refilled: they
// hold no state an absent entry would not.
func (l *LoginLimiter) evictIdle(now time.Time) {
	for el := l.lru.Back(); el != nil; el = l.lru.Back() {
		if el.Value.(*limiterEntry).limiter.TokensAt(now) < float64(l.burst) {
			return
		}
		l.remove(el)
	}
}

func (l *LoginLimiter) remove(el *list.Element) {
	l.lru.Remove(el)
	delete(l.entries, el.Value.(*limiterEntry).addr)
}

// tracked reports how many addresses are held, for tests.
func (l *LoginLimiter) tracked() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}
