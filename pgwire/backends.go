package pgwire

import (
	"errors"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The server's connections as SQL sees them: pg_backend_pid answers the
// process id BackendKeyData announced, and pg_cancel_backend and
// pg_terminate_backend reach another connection through the server's
// byPID map, the one CancelRequest uses. The session decides whether the
// caller may signal a connection (sql.Backend.Owner tells it whose it is);
// this file only finds connections and delivers the signal.

// errAdminTerminated is the cancellation cause of a connection that
// pg_terminate_backend ended; its client gets FATAL 57P01, as on shutdown.
var errAdminTerminated = errors.New("terminated by pg_terminate_backend")

// backendSession is what a session offers to take part in the registry
// (package sql's sessions do; test doubles need not).
type backendSession interface {
	BackendOwner() sql.BackendOwner
	AttachBackend(pid int32, registry sql.Backends)
}

// noticeSession is a session that queues notices (warnings) for the
// client.
type noticeSession interface {
	TakeNotices() []*pgerror.Error
}

// joinRegistry records who runs c, gives it its process id, makes it
// reachable by CancelRequest and the signalling functions, and tells the
// session its pid and the registry.
func (c *conn) joinRegistry(sess Session) {
	bs, ok := sess.(backendSession)
	if ok {
		// Set before register publishes c, and read-only afterwards.
		c.owner = bs.BackendOwner()
	}
	c.srv.register(c)
	if ok {
		bs.AttachBackend(int32(c.pid), backendRegistry{srv: c.srv})
	}
}

// backendRegistry implements sql.Backends over the server's connections.
type backendRegistry struct {
	srv *Server
}

func (r backendRegistry) Lookup(pid int32) (sql.Backend, bool) {
	if pid <= 0 {
		return nil, false
	}
	r.srv.mu.Lock()
	c := r.srv.byPID[uint32(pid)]
	r.srv.mu.Unlock()
	if c == nil {
		return nil, false
	}
	return backendConn{c: c}, true
}

// backendConn is one registered connection. It holds the connection, not
// its pid, so a signal never reaches a later connection that reuses the
// pid.
type backendConn struct {
	c *conn
}

func (b backendConn) Owner() sql.BackendOwner { return b.c.owner }

// CancelQuery is what a CancelRequest does: the running statement fails
// with 57014 and the session carries on.
func (b backendConn) CancelQuery() { b.c.cancelStatement() }

// Terminate cancels the connection with errAdminTerminated: its processor
// abandons the running statement, sends FATAL 57P01 and closes.
func (b backendConn) Terminate() { b.c.cancel(errAdminTerminated) }

func (b backendConn) Ended() bool {
	b.c.srv.mu.Lock()
	defer b.c.srv.mu.Unlock()
	_, live := b.c.srv.conns[b.c]
	return !live
}

// sendNotices sends the notices the session queued during a statement,
// ahead of its completion or error.
func (c *conn) sendNotices() {
	ns, ok := c.session.(noticeSession)
	if !ok {
		return
	}
	for _, n := range ns.TakeNotices() {
		_ = c.w.send(&pgproto3.NoticeResponse{
			Severity:            n.Severity,
			SeverityUnlocalized: n.Severity,
			Code:                n.Code,
			Message:             n.Message,
			Detail:              n.Detail,
			Hint:                n.Hint,
		})
	}
}
