package sql

import "github.com/sqe-db/sqe/sql/pgcatalog"

// Activity lists the server's live sessions for pg_stat_activity, which
// decides what the caller may see of them; ok is false for a session
// opened outside a server.
func (c catalogSource) Activity() ([]pgcatalog.Activity, bool) {
	if c.s.backend.registry == nil {
		return nil, false
	}
	return c.s.backend.registry.Activity(), true
}
