package pgwire

import (
	"github.com/sqe-db/sqe/sql/pgerror"
)

// QueryLimiter admits queries. What counts as one query: each statement of
// a simple Query message (a message of three statements is three
// queries), and each Execute that starts a portal of the extended
// protocol. Parse, Bind, Describe and Sync are not counted, nor is an
// Execute that resumes a suspended portal (a cursor fetched a few rows at
// a time is one query), nor an empty query. A refused query is not run;
// its error is sent like any statement error and the session carries on.
type QueryLimiter interface {
	// AllowQuery returns nil to admit one query of user, or the
	// *pgerror.Error (53400) the client gets.
	AllowQuery(user string) error
}

// admitQuery asks the configured limiter about one more query of c's user.
func (c *conn) admitQuery() error {
	if c.srv.cfg.QueryLimiter == nil {
		return nil
	}
	return c.srv.cfg.QueryLimiter.AllowQuery(c.user)
}

// acquireUserSlot counts c against its user's MaxConnectionsPerUser once
// the user is authenticated, so connections that never log in cannot use
// up someone else's share. untrack gives the slot back.
func (s *Server) acquireUserSlot(c *conn, user string) error {
	if s.cfg.MaxConnectionsPerUser == 0 {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.userConns[user] >= s.cfg.MaxConnectionsPerUser {
		return fatal(pgerror.TooManyConnections, "too many connections for role \"%s\"", user)
	}
	s.userConns[user]++
	c.slotUser = user
	return nil
}

// releaseUserSlot gives back c's per-user slot; the caller holds s.mu.
func (s *Server) releaseUserSlot(c *conn) {
	if c.slotUser == "" {
		return
	}
	if s.userConns[c.slotUser]--; s.userConns[c.slotUser] <= 0 {
		delete(s.userConns, c.slotUser)
	}
	c.slotUser = ""
}
