package sql

import "time"

// QueryTimeouts are the server's bounds on how long one statement runs
// ([query] timeout_secs and [query.role_overrides]). A session runs each
// statement under the smaller of its bound and its statement_timeout.
type QueryTimeouts struct {
	// Default bounds the statements of a user in none of ByRole's roles;
	// 0 means no bound.
	Default time.Duration
	// ByRole replaces Default for the users holding a role; the longest
	// among a user's roles wins, and 0 (no bound) is the longest of all.
	ByRole map[string]time.Duration
}

// For is the bound of a user holding roles.
func (q QueryTimeouts) For(roles []string) time.Duration {
	found := false
	var longest time.Duration
	for _, r := range roles {
		d, ok := q.ByRole[r]
		if !ok {
			continue
		}
		if d == 0 {
			return 0
		}
		if !found || d > longest {
			longest, found = d, true
		}
	}
	if found {
		return longest
	}
	return q.Default
}

// statementTimeout is how long the running statement may take: the
// smaller of the server's bound for this session and its
// statement_timeout, either being 0 for none.
func (s *Session) statementTimeout() time.Duration {
	limit := s.serverTimeout
	v, err := s.settings.get("statement_timeout")
	if err != nil {
		return limit
	}
	d, err := parseTimeSetting("statement_timeout", v)
	if err != nil || d == 0 {
		return limit
	}
	if limit == 0 || d < limit {
		return d
	}
	return limit
}
