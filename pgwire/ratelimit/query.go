package ratelimit

import (
	"time"

	"golang.org/x/time/rate"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// maxQueryUsers caps the per-user buckets. Idle users leave on their own
// (a bucket is full again at most a minute after its last query), so the
// cap only matters when more users than this query within one minute;
// the least recently active then start over with a full bucket.
const maxQueryUsers = 100_000

// QueryConfig is [rate_limit]: how many queries a minute one user, and
// the whole server, may start. Zero leaves that limit off.
type QueryConfig struct {
	PerUserPerMinute int
	GlobalPerMinute  int
}

// QueryLimiter refuses a query over the per-user or the global rate. Each
// limit is a token bucket holding a minute's worth of queries and
// refilling at the per-minute rate, so a quiet user may send a burst of
// that many at once. It is safe for concurrent use; a nil *QueryLimiter
// allows everything.
type QueryLimiter struct {
	cfg     QueryConfig
	now     func() time.Time
	perUser *Keyed[struct{}] // nil: no per-user limit
	global  *rate.Limiter    // nil: no global limit
}

// NewQueryLimiter returns a limiter on the wall clock, or nil when cfg
// sets no limit.
func NewQueryLimiter(cfg QueryConfig) *QueryLimiter {
	return newQueryLimiter(cfg, time.Now)
}

func newQueryLimiter(cfg QueryConfig, now func() time.Time) *QueryLimiter {
	if cfg.PerUserPerMinute <= 0 && cfg.GlobalPerMinute <= 0 {
		return nil
	}
	l := &QueryLimiter{cfg: cfg, now: now}
	if cfg.PerUserPerMinute > 0 {
		l.perUser = NewKeyed[struct{}](perMinute(cfg.PerUserPerMinute), cfg.PerUserPerMinute, maxQueryUsers, now, nil)
	}
	if cfg.GlobalPerMinute > 0 {
		l.global = rate.NewLimiter(perMinute(cfg.GlobalPerMinute), cfg.GlobalPerMinute)
	}
	return l
}

func perMinute(n int) rate.Limit {
	return rate.Limit(float64(n) / 60)
}

// AllowQuery takes a token for one query of user from both buckets, or
// returns the 53400 error naming the limit that refused it. A refused
// query takes nothing, so retrying later works as soon as a token is
// back.
func (l *QueryLimiter) AllowQuery(user string) error {
	if l == nil {
		return nil
	}
	if l.perUser == nil {
		return l.takeGlobal(l.now())
	}
	var err error
	l.perUser.Update(user, func(now time.Time, e *Entry[struct{}]) {
		if e.Bucket.TokensAt(now) < 1 {
			err = pgerror.New(pgerror.ConfigurationLimitExceeded,
				"per-user rate limit exceeded: user \"%s\" may run %d queries per minute", user, l.cfg.PerUserPerMinute).
				WithHint("Wait a moment before sending more queries.")
			return
		}
		if err = l.takeGlobal(now); err == nil {
			e.Bucket.AllowN(now, 1)
		}
	})
	return err
}

func (l *QueryLimiter) takeGlobal(now time.Time) error {
	if l.global == nil || l.global.AllowN(now, 1) {
		return nil
	}
	return pgerror.New(pgerror.ConfigurationLimitExceeded,
		"global rate limit exceeded: the server accepts %d queries per minute", l.cfg.GlobalPerMinute).
		WithHint("Wait a moment before sending more queries.")
}

// trackedUsers is how many users hold a bucket, for tests.
func (l *QueryLimiter) trackedUsers() int {
	if l.perUser == nil {
		return 0
	}
	return l.perUser.Len()
}
