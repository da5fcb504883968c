package pgwire

import (
	"sync/atomic"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// sessionEnd is the cause a connection is cancelled with when one of its
// session's limits ends it; err is the FATAL error its client is sent.
type sessionEnd struct{ err *pgerror.Error }

func (e *sessionEnd) Error() string { return e.err.Message }

// The ends of a session that outlived a limit. The idle ones are
// PostgreSQL's (idle_session_timeout, idle_in_transaction_session_timeout);
// PostgreSQL has no lifetime limit, so that one is an operator's
// intervention like an administrator's termination, with its own text.
func idleSessionEnd() *sessionEnd {
	return &sessionEnd{fatal(pgerror.IdleSessionTimeout, "terminating connection due to idle-session timeout")}
}

func idleInTransactionEnd() *sessionEnd {
	return &sessionEnd{fatal(pgerror.IdleInTransactionSessionTimeout, "terminating connection due to idle-in-transaction timeout")}
}

func lifetimeEnd() *sessionEnd {
	return &sessionEnd{fatal(pgerror.AdminShutdown, "terminating connection due to session lifetime limit")}
}

func tokenExpiredEnd() *sessionEnd {
	return &sessionEnd{fatal(pgerror.InvalidAuthorizationSpecification, "terminating connection because the session's token has expired").
		WithHint("Connect again with a new token.")}
}

// sessionLimits bound a session's life: how long it may wait for its
// client (idle) and how long it may last (lifetime); 0 is no bound.
type sessionLimits struct {
	idle, lifetime time.Duration
}

// expired says why a session that started at started, and has waited for
// its client since idleSince (zero while it works), must end at now; nil
// when it may go on. inTx tells an idle session inside a transaction
// block.
func (l sessionLimits) expired(now, started, idleSince time.Time, inTx bool) *sessionEnd {
	if l.lifetime > 0 && now.Sub(started) >= l.lifetime {
		return lifetimeEnd()
	}
	if l.idle > 0 && !idleSince.IsZero() && now.Sub(idleSince) >= l.idle {
		if inTx {
			return idleInTransactionEnd()
		}
		return idleSessionEnd()
	}
	return nil
}

// sweepInterval is how often sessions are checked against the limits: a
// tenth of the shortest, between 50ms and a second, so a session ends at
// most that long after its limit; 0 when there is nothing to check.
func (l sessionLimits) sweepInterval() time.Duration {
	shortest := l.idle
	if shortest == 0 || (l.lifetime > 0 && l.lifetime < shortest) {
		shortest = l.lifetime
	}
	if shortest == 0 {
		return 0
	}
	return min(max(shortest/10, 50*time.Millisecond), time.Second)
}

// tokenExpired reports a token past its expiry plus grace at now; a token
// without an expiry never expires.
func tokenExpired(expiry time.Time, grace time.Duration, now time.Time) bool {
	return !expiry.IsZero() && now.After(expiry.Add(grace))
}

// idleClock is what the sweeper reads of a connection: whether its
// processor is waiting for the client, since when, and inside a
// transaction block or not. The processor writes it.
type idleClock struct {
	idleSince atomic.Int64 // UnixNano; 0 while a message is processed
	idleInTx  atomic.Bool
}

func (a *idleClock) idle(now time.Time, inTx bool) {
	a.idleInTx.Store(inTx)
	a.idleSince.Store(now.UnixNano())
}

func (a *idleClock) busy() { a.idleSince.Store(0) }

// since is when the connection began waiting, zero while it works.
func (a *idleClock) since() (time.Time, bool) {
	n := a.idleSince.Load()
	if n == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, n), a.idleInTx.Load()
}
