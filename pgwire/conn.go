package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Causes a connection's context is cancelled with, besides errShutdown,
// *protocolError and *messageTooLargeError.
var (
	errTerminated = errors.New("client sent Terminate")
	errClientGone = errors.New("client connection closed")
	errConnDone   = errors.New("connection finished")
)

// closeWriteGrace is how long the last messages (a FATAL error) may take to
// reach a client once its connection is being torn down.
const closeWriteGrace = time.Second

// conn is one client connection. The handler goroutine (run) owns the
// writer, the session and all protocol state; the reader goroutine owns the
// pgproto3.Backend after startup. Other goroutines touch only ctx/cancel,
// the statement cancel func (under stmtMu) and raw (to close it).
type conn struct {
	srv *Server
	raw net.Conn // the accepted socket; closing it unblocks every read and write
	// transport is what the protocol (TLS included) runs over: raw, or
	// the PROXY protocol connection over it (proxy_protocol.go).
	transport net.Conn
	// client is the address the connection is from, set before startup.
	client net.Addr
	logger *slog.Logger

	// ctx lives as long as the connection; its cause says why it ended.
	ctx    context.Context
	cancel context.CancelCauseFunc

	// Set during startup, before the connection is registered for cancel
	// requests, and read-only afterwards.
	pid    uint32 // assigned by Server.register
	secret uint32
	owner  sql.BackendOwner // who runs it, for pg_terminate_backend

	holdsSlot bool   // guarded by srv.mu
	slotUser  string // the user whose per-user slot c holds, "" if none; guarded by srv.mu

	// user is the authenticated user, set at login; the query limiter
	// counts against it.
	user string

	// What the sweeper reads to end a session past its limits.
	started time.Time   // accepted at
	serving atomic.Bool // past startup
	waiting idleClock

	// tokenExpiry is when the login token expires (zero: never); set
	// during startup.
	tokenExpiry time.Time

	stmtMu     sync.Mutex
	stmtCancel context.CancelFunc // the running statement's, nil between statements

	// activity is what pg_stat_activity shows of the connection.
	activity activity

	// Owned by the handler goroutine.
	rw       net.Conn // transport, or the TLS connection over it
	tls      bool
	w        *messageWriter
	guard    *frameGuard
	backend  *pgproto3.Backend
	session  Session
	reported map[string]string // ParameterStatus values the client has been sent
	zone     sessionZone       // the session's TimeZone, for timestamptz text
	// ignoreTillSync is set after an error in an extended-protocol message:
	// the rest of that batch is discarded up to its Sync, as PostgreSQL does.
	ignoreTillSync bool
	// Portals by name ("" is the unnamed one), which live until closed or
	// the end of their transaction. Prepared statements are the
	// Session's (PreparedStatements), shared with SQL's PREPARE.
	portals map[string]*portal
	// in is the inbox the reader goroutine fills; COPY FROM STDIN reads
	// its data from it while the statement runs.
	in *inbox
}

func newConn(s *Server, nc net.Conn) *conn {
	ctx, cancel := context.WithCancelCause(s.baseCtx)
	c := &conn{
		srv:       s,
		raw:       nc,
		transport: nc,
		rw:        nc,
		logger:    s.logger.With("remote", nc.RemoteAddr().String()),
		ctx:       ctx,
		cancel:    cancel,
		started:   time.Now(),
	}
	context.AfterFunc(ctx, c.expireDeadlines)
	return c
}

// expireDeadlines runs when the connection's context ends: whatever ended
// it (Terminate, EOF, shutdown, a protocol error), a read in progress must
// return now and the last write gets only a moment.
func (c *conn) expireDeadlines() {
	now := time.Now()
	_ = c.raw.SetReadDeadline(now)
	_ = c.raw.SetWriteDeadline(now.Add(closeWriteGrace))
}

// run is the handler goroutine: startup, then the processor loop, then
// teardown. It returns when the connection is closed and its reader
// goroutine has ended.
func (c *conn) run() {
	defer c.raw.Close()
	defer func() { c.rw.Close() }() // after TLS: sends close_notify
	defer c.cancel(errConnDone)
	defer c.recoverPanic("connection handler")
	sess := c.handshake()
	if sess == nil {
		return
	}
	c.session = sess
	c.srv.cfg.Observer.ConnectionOpened()
	defer c.srv.cfg.Observer.ConnectionClosed()
	defer sess.Close()
	defer c.closePortals() // before the session they belong to
	c.serve()
}

// serve runs the reader goroutine and processes its messages until the
// connection ends.
func (c *conn) serve() {
	in := newInbox()
	c.in = in
	c.serving.Store(true)
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		c.readLoop(in)
	}()
	defer func() {
		c.cancel(errConnDone)
		c.rw.Close()
		<-readerDone
	}()
	// Runs before the cleanup above, while the client can still hear it.
	defer c.recoverPanic("statement processing")
	for {
		msg, err := in.pop(c.ctx, c.awaitClient)
		c.waiting.busy()
		if err == nil {
			err = c.handle(msg)
		}
		if err != nil {
			c.finish(err)
			return
		}
	}
}

// readLoop is the reader goroutine: it decodes frontend messages, copies
// each (pgproto3 reuses its structs) and queues it for the processor. It
// never waits on execution, so EOF or a bad message cancel the
// connection's context, and with it the running statement, at once.
// Terminate is queued like any message, so what the client sent before
// it is still answered, as PostgreSQL does; a client that also closes its
// socket cancels the rest through EOF.
func (c *conn) readLoop(in *inbox) {
	defer func() {
		// A decoder bug must not take the server down: the processor
		// reports it (finish) and the connection ends.
		if r := recover(); r != nil {
			c.cancel(newPanicError("frontend message reader", r))
		}
	}()
	var scratch []byte
	for {
		msg, err := c.backend.Receive()
		if err != nil {
			c.cancel(c.classifyReadError(err))
			return
		}
		cp, size, err := copyFrontendMessage(msg, &scratch)
		if err != nil {
			c.cancel(&protocolError{msg: "invalid frontend message", cause: err})
			return
		}
		if err := in.push(c.ctx, cp, size); err != nil {
			return
		}
	}
}

// classifyReadError tells a client that went away from one that sent
// something malformed.
func (c *conn) classifyReadError(err error) error {
	var tooLarge *messageTooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return tooLarge
	case c.guard.readErr != nil:
		return errClientGone
	}
	return &protocolError{msg: "invalid frontend message", cause: err}
}

// finish reports why the connection ends, when the client should hear it.
func (c *conn) finish(cause error) {
	var tooLarge *messageTooLargeError
	var perr *protocolError
	var end *sessionEnd
	var panicked *panicError
	switch {
	case errors.As(cause, &panicked):
		c.sendFatal(panicked.fatal())
	case errors.As(cause, &end):
		c.logger.Info("closing connection", "reason", end.err.Message)
		c.sendFatal(end.err)
	case errors.Is(cause, errShutdown), errors.Is(cause, errAdminTerminated):
		c.sendFatal(fatal(pgerror.AdminShutdown, "terminating connection due to administrator command"))
	case errors.As(cause, &tooLarge):
		c.logger.Info("closing connection", "reason", tooLarge.Error())
		c.sendFatal(fatal(pgerror.ProgramLimitExceeded, "message of %d bytes exceeds the limit of %d bytes", tooLarge.size, tooLarge.limit))
	case errors.As(cause, &perr):
		c.logger.Info("closing connection", "reason", "protocol violation", "err", perr)
		c.sendFatal(fatal(pgerror.ProtocolViolation, "%s", perr.msg))
	case errors.Is(cause, errTerminated), errors.Is(cause, errClientGone), errors.Is(cause, errConnDone):
	default:
		c.logger.Debug("closing connection", "err", cause)
	}
}

// awaitClient runs when the processor is about to wait for the next
// message: what is buffered goes out, and the session counts as idle.
func (c *conn) awaitClient() error {
	c.waiting.idle(time.Now(), c.session.TxStatus() != 'I')
	return c.w.flush()
}

// recoverPanic turns a panic in session or protocol code into a FATAL
// internal error for this client alone, so one bad statement cannot stop
// the server. The session may be inconsistent afterwards, so the
// connection ends.
func (c *conn) recoverPanic(where string) {
	r := recover()
	if r == nil {
		return
	}
	// errorResponse logs it under the request id the client gets.
	c.sendFatal(newPanicError(where, r).fatal())
}

// sendFatal sends a FATAL error as the connection's last message.
func (c *conn) sendFatal(err error) {
	if c.w == nil {
		c.w = newMessageWriter(observedWriter{w: c.rw, obs: c.srv.cfg.Observer})
	}
	_ = c.w.send(c.errorMessage(err))
	_ = c.w.flush()
}

// beginStatement makes the context for one statement and publishes its
// cancel func for CancelRequest; the returned func ends the statement.
func (c *conn) beginStatement() (context.Context, func()) {
	ctx, cancel := context.WithCancel(c.ctx)
	c.stmtMu.Lock()
	c.stmtCancel = cancel
	c.stmtMu.Unlock()
	return ctx, func() {
		c.stmtMu.Lock()
		c.stmtCancel = nil
		c.stmtMu.Unlock()
		cancel()
	}
}

// cancelStatement cancels the running statement, if any; the session
// carries on.
func (c *conn) cancelStatement() {
	c.stmtMu.Lock()
	defer c.stmtMu.Unlock()
	if c.stmtCancel != nil {
		c.stmtCancel()
	}
}

func (c *conn) secretMatches(secret uint32) bool {
	var a, b [4]byte
	binary.BigEndian.PutUint32(a[:], c.secret)
	binary.BigEndian.PutUint32(b[:], secret)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// newSecret returns the cancel key for BackendKeyData.
func newSecret() (uint32, error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(b[:]), nil
}
