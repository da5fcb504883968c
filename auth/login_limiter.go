package auth

import (
	"net"
	"time"

	"golang.org/x/time/rate"

	"github.com/sqe-db/sqe/pgwire/ratelimit"
)

// maxLimiterEntries caps how many source addresses LoginLimiter tracks, so
// a flood of failures from many addresses cannot grow memory without bound.
const maxLimiterEntries = 10000

// maxLockout bounds the doubling lockout of an address that keeps failing.
const maxLockout = 15 * time.Minute

// LoginLimiter slows down password guessing: each source address has a
// token bucket that a failed login drains and time refills. An address
// whose bucket is empty is turned away before its token is even verified,
// which also spares the external issuer's JWKS endpoint from being hit by
// tokens with made-up key ids. Each failure that empties the bucket also
// locks the address out, first for the time one token takes to come back
// and then for twice as long at every further time, up to maxLockout; the
// count starts over once the address has been quiet long enough for its
// bucket to refill after its last lockout, or after a successful login. It is safe for
// concurrent use; a nil *LoginLimiter allows everything.
type LoginLimiter struct {
	disabled bool
	burst    int
	// refill is how long an empty bucket takes to fill up.
	refill time.Duration
	// lockout is the first lockout: the time one token takes to refill.
	lockout time.Duration
	sources *ratelimit.Keyed[loginBackoff]
}

// loginBackoff is an address's lockout state besides its bucket.
type loginBackoff struct {
	strikes     int // lockouts so far
	lockedUntil time.Time
}

// NewLoginLimiter allows burst failed logins per source address at once and
// refills perMinute of them a minute. perMinute <= 0 disables limiting;
// burst < 1 counts as 1.
func NewLoginLimiter(perMinute int, burst int) *LoginLimiter {
	return newLoginLimiter(perMinute, burst, maxLimiterEntries, time.Now)
}

func newLoginLimiter(perMinute, burst, maxEntries int, now func() time.Time) *LoginLimiter {
	if perMinute <= 0 {
		return &LoginLimiter{disabled: true}
	}
	interval := time.Minute / time.Duration(perMinute)
	l := &LoginLimiter{lockout: interval, burst: max(burst, 1), refill: interval * time.Duration(max(burst, 1))}
	l.sources = ratelimit.NewKeyed(rate.Limit(float64(perMinute)/60), burst, maxEntries, now, l.quiet)
	return l
}

// quiet reports whether an address's entry holds nothing worth keeping:
// its bucket is full and its last lockout ended long enough ago for an
// empty bucket to have refilled since, so the doubling outlives a lockout
// longer than the refill.
func (l *LoginLimiter) quiet(now time.Time, e *ratelimit.Entry[loginBackoff]) bool {
	return !now.Before(e.State.lockedUntil.Add(l.refill)) && e.Bucket.TokensAt(now) >= float64(l.burst)
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
	if l == nil || l.disabled {
		return true
	}
	return l.sources.Inspect(sourceKey(addr), true, func(now time.Time, e *ratelimit.Entry[loginBackoff]) bool {
		return !now.Before(e.State.lockedUntil) && e.Bucket.TokensAt(now) >= 1
	})
}

// Failure records a failed login from addr.
func (l *LoginLimiter) Failure(addr string) {
	if l == nil || l.disabled {
		return
	}
	l.sources.Update(sourceKey(addr), func(now time.Time, e *ratelimit.Entry[loginBackoff]) {
		if l.quiet(now, e) {
			e.State.strikes = 0
		}
		e.Bucket.AllowN(now, 1)
		if e.Bucket.TokensAt(now) >= 1 {
			return
		}
		lockout := maxLockout
		if e.State.strikes < 20 {
			lockout = min(l.lockout<<e.State.strikes, maxLockout)
		}
		e.State.strikes++
		e.State.lockedUntil = now.Add(lockout)
	})
}

// Success forgets addr's failures: a client that can log in is not
// guessing.
func (l *LoginLimiter) Success(addr string) {
	if l == nil || l.disabled {
		return
	}
	l.sources.Forget(sourceKey(addr))
}

// tracked reports how many addresses are held, for tests.
func (l *LoginLimiter) tracked() int {
	if l.disabled {
		return 0
	}
	return l.sources.Len()
}
