package main

import (
	"fmt"

	"github.com/sqe-db/sqe/pgwire"
	"github.com/sqe-db/sqe/pgwire/ratelimit"
)

// RateLimitConfig is [rate_limit]: token buckets on the queries users
// start (what counts as a query: pgwire.QueryLimiter). Off by default.
type RateLimitConfig struct {
	Enabled bool `toml:"enabled"`
	// PerUserQueriesPerMinute is each user's rate, and the burst a quiet
	// user may send at once; 0: no per-user limit.
	PerUserQueriesPerMinute int `toml:"per_user_queries_per_minute"`
	// GlobalQueriesPerMinute is the whole server's; 0: no global limit.
	GlobalQueriesPerMinute int `toml:"global_queries_per_minute"`
}

// validate checks [rate_limit] and [pgwire] max_connections_per_user.
func (r RateLimitConfig) validate(maxConnectionsPerUser int) error {
	if maxConnectionsPerUser < 0 {
		return fmt.Errorf("config: [pgwire] max_connections_per_user must not be negative, not %d", maxConnectionsPerUser)
	}
	if r.PerUserQueriesPerMinute < 0 || r.GlobalQueriesPerMinute < 0 {
		return fmt.Errorf("config: [rate_limit] per_user_queries_per_minute and global_queries_per_minute must not be negative, not %d and %d",
			r.PerUserQueriesPerMinute, r.GlobalQueriesPerMinute)
	}
	if r.Enabled && r.PerUserQueriesPerMinute == 0 && r.GlobalQueriesPerMinute == 0 {
		return fmt.Errorf("config: [rate_limit] is enabled but per_user_queries_per_minute and global_queries_per_minute are both 0")
	}
	return nil
}

// queryLimiter is the limiter pgwire asks before each query, nil when
// rate limiting is off.
func (r RateLimitConfig) queryLimiter() pgwire.QueryLimiter {
	if !r.Enabled {
		return nil
	}
	return ratelimit.NewQueryLimiter(ratelimit.QueryConfig{
		PerUserPerMinute: r.PerUserQueriesPerMinute,
		GlobalPerMinute:  r.GlobalQueriesPerMinute,
	})
}
