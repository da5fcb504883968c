package main

import (
	"fmt"
	"sort"
	"time"

	"github.com/sqe-db/sqe/sql"
)

// The timeouts in force when sqe.toml sets none: a runaway statement, a
// forgotten session and a session held open for days are all ended, so
// an unconfigured server does not hold resources (or an identity) for
// ever. 0 in the configuration lifts each bound.
const (
	defaultQueryTimeoutSecs    = 300      // five minutes
	defaultIdleTimeoutSecs     = 900      // 15 minutes
	defaultAbsoluteTimeoutSecs = 8 * 3600 // eight hours
)

// maxTimeoutSecs keeps every timeout well inside time.Duration (a year).
const maxTimeoutSecs = 366 * 24 * 3600

// validateTimeouts checks the [query] and [session] timeouts: whole
// seconds from 0 (none) to a year.
func (cfg Config) validateTimeouts() error {
	keys := map[string]int{
		"[query] timeout_secs":              cfg.Query.TimeoutSecs,
		"[session] idle_timeout_secs":       cfg.Session.IdleTimeoutSecs,
		"[session] absolute_timeout_secs":   cfg.Session.AbsoluteTimeoutSecs,
		"[session] token_expiry_grace_secs": cfg.Session.TokenExpiryGraceSecs,
	}
	for role, v := range cfg.Query.RoleOverrides {
		keys["[query.role_overrides] "+role] = v
	}
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names) // the same key is reported first every time
	for _, k := range names {
		if v := keys[k]; v < 0 || v > maxTimeoutSecs {
			return fmt.Errorf("config: %s must be between 0 and %d seconds, not %d", k, maxTimeoutSecs, v)
		}
	}
	return nil
}

// queryTimeouts is the engine's form of [query] timeout_secs and
// role_overrides.
func (cfg Config) queryTimeouts() sql.QueryTimeouts {
	q := sql.QueryTimeouts{Default: seconds(cfg.Query.TimeoutSecs)}
	if len(cfg.Query.RoleOverrides) > 0 {
		q.ByRole = make(map[string]time.Duration, len(cfg.Query.RoleOverrides))
		for r, s := range cfg.Query.RoleOverrides {
			q.ByRole[r] = seconds(s)
		}
	}
	return q
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }
