package main

import (
	"fmt"
	"sort"
	"strings"
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
	for role, o := range cfg.Query.RoleOverrides {
		if o.TimeoutSecs != nil {
			keys["[query.role_overrides] "+role] = *o.TimeoutSecs
		}
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
	for r, o := range cfg.Query.RoleOverrides {
		if o.TimeoutSecs == nil {
			continue
		}
		if q.ByRole == nil {
			q.ByRole = map[string]time.Duration{}
		}
		q.ByRole[r] = seconds(*o.TimeoutSecs)
	}
	return q
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }

// RoleOverride is one role's entry of [query.role_overrides]: its
// statement timeout in seconds (role = 60), or a table of what the role
// changes (timeout_secs, execution).
type RoleOverride struct {
	TimeoutSecs *int
	Execution   string
}

// String is the override as the startup log shows it.
func (o RoleOverride) String() string {
	var parts []string
	if o.TimeoutSecs != nil {
		parts = append(parts, fmt.Sprintf("timeout_secs=%d", *o.TimeoutSecs))
	}
	if o.Execution != "" {
		parts = append(parts, "execution="+o.Execution)
	}
	return "{" + strings.Join(parts, " ") + "}"
}

// UnmarshalTOML reads either form, refusing keys it does not know.
func (o *RoleOverride) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		n := int(x)
		o.TimeoutSecs = &n
		return nil
	case map[string]any:
		for k, val := range x {
			switch k {
			case "timeout_secs":
				n, ok := val.(int64)
				if !ok {
					return fmt.Errorf("timeout_secs must be an integer, not %v", val)
				}
				secs := int(n)
				o.TimeoutSecs = &secs
			case "execution":
				s, ok := val.(string)
				if !ok {
					return fmt.Errorf("execution must be a string, not %v", val)
				}
				o.Execution = s
			default:
				return fmt.Errorf("unknown key %q (a role override sets timeout_secs and execution)", k)
			}
		}
		return nil
	}
	return fmt.Errorf("a role override is a number of seconds or a table, not %v", v)
}
