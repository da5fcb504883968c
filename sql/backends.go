package sql

import (
	"sync"

	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// The connection a session runs on and the server's other connections, as
// pg_backend_pid, pg_stat_activity, pg_cancel_backend and
// pg_terminate_backend see them. The server (pgwire) owns the registry of
// live connections and hands each session its own process id and the
// registry once the client has been sent BackendKeyData.

// BackendOwner is who runs a connection: a caller may signal only the
// connections of its own user, unless it is a superuser.
type BackendOwner struct {
	User      string
	Superuser bool
}

// Backend is one live connection of the server.
type Backend interface {
	Owner() BackendOwner
	// CancelQuery cancels the statement the connection is running, if any:
	// its client gets 57014 and the session carries on.
	CancelQuery()
	// Terminate ends the connection: its client gets FATAL 57P01.
	Terminate()
	// Ended reports whether the connection has closed.
	Ended() bool
}

// Backends is the server's registry of live connections by process id.
type Backends interface {
	Lookup(pid int32) (Backend, bool)
	// Activity describes every live session, for pg_stat_activity.
	Activity() []pgcatalog.Activity
}

// backendState is the session's place among the server's connections and
// the warnings its statements raised for the client.
type backendState struct {
	pid      int32
	registry Backends

	// Warnings may be raised by row functions evaluated off the session's
	// goroutine, hence the lock.
	mu      sync.Mutex
	notices []*pgerror.Error
}

// AttachBackend gives the session the process id its connection announced
// in BackendKeyData and the server's registry of connections. Until it is
// called (sessions opened outside a server), pg_backend_pid is NULL and
// signalling another connection finds none.
func (s *Session) AttachBackend(pid int32, registry Backends) {
	s.backend.pid, s.backend.registry = pid, registry
}

// BackendOwner is who runs the session, for the signalling functions'
// permission rule.
func (s *Session) BackendOwner() BackendOwner {
	return BackendOwner{User: s.identity.User, Superuser: s.superuser}
}

// warn queues a WARNING for the client (sent before the statement's
// completion or error).
func (s *Session) warn(format string, args ...any) {
	s.queueNotice(severityWarning, pgerror.Warning, "", format, args...)
}

// TakeNotices returns and forgets the notices (warnings) raised since the
// last call, oldest first.
func (s *Session) TakeNotices() []*pgerror.Error {
	s.backend.mu.Lock()
	defer s.backend.mu.Unlock()
	out := s.backend.notices
	s.backend.notices = nil
	return out
}
