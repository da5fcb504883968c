package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"
)

// shutdownGrace bounds the shutdown Serve starts itself when its context
// ends; after it, connections still open are closed forcibly.
const shutdownGrace = 10 * time.Second

// errShutdown is the cancellation cause of every connection when the server
// stops; the processor answers it with FATAL 57P01.
var errShutdown = errors.New("server shutting down")

// Server accepts PostgreSQL connections and serves each on its own
// goroutines. Create it with NewServer, bind with Listen, run Serve, stop
// with Shutdown.
type Server struct {
	cfg       Config
	tlsConfig *tls.Config // nil: TLS unavailable, SSLRequest answered 'N'
	authn     Authenticator
	sessions  SessionFactory
	logger    *slog.Logger
	limits    sessionLimits

	// baseCtx is the parent of every connection's context; cancelling it
	// with errShutdown stops them all.
	baseCtx    context.Context
	baseCancel context.CancelCauseFunc

	mu       sync.Mutex
	ln       net.Listener
	closed   bool               // Shutdown has begun
	conns    map[*conn]struct{} // every connection being handled
	byPID    map[uint32]*conn   // connections that sent BackendKeyData
	nextPID  uint32
	slotsUse int // connections past startup that count against MaxConnections
	// userConns counts each authenticated user's connections, for
	// MaxConnectionsPerUser; a user without any has no entry.
	userConns map[string]int

	handlers sync.WaitGroup // one per accepted connection
	stopped  chan struct{}  // closed when Shutdown begins
}

// NewServer validates cfg, prepares TLS (generating the self-signed
// certificate if needed) and returns a server that is not yet listening.
func NewServer(cfg Config, authn Authenticator, sessions SessionFactory, logger *slog.Logger) (*Server, error) {
	if authn == nil || sessions == nil {
		return nil, errors.New("pgwire: authenticator and session factory are required")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("pgwire config: %w", err)
	}
	// PostgreSQL does not report server_version_num; a version it could
	// not derive one from is still a configuration error.
	if _, err := serverVersionNum(cfg.ServerVersion); err != nil {
		return nil, fmt.Errorf("pgwire config: %w", err)
	}
	tlsConfig, err := loadTLSConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("pgwire tls: %w", err)
	}
	if tlsConfig == nil && cfg.RequireTLS {
		return nil, errors.New("pgwire config: TLS is required but no certificate is configured and there is no data directory to create one in")
	}
	if tlsConfig == nil && cfg.TLSClientCAFile != "" {
		return nil, errors.New("pgwire config: a client CA file is configured but no certificate is configured and there is no data directory to create one in")
	}
	baseCtx, baseCancel := context.WithCancelCause(context.Background())
	return &Server{
		cfg:        cfg,
		tlsConfig:  tlsConfig,
		authn:      authn,
		sessions:   sessions,
		logger:     logger.With("component", "pgwire"),
		limits:     sessionLimits{idle: cfg.IdleTimeout, lifetime: cfg.SessionLifetime},
		baseCtx:    baseCtx,
		baseCancel: baseCancel,
		conns:      make(map[*conn]struct{}),
		byPID:      make(map[uint32]*conn),
		userConns:  make(map[string]int),
		stopped:    make(chan struct{}),
	}, nil
}

// Listen binds cfg.Listen, so a caller can learn the port (Addr) before
// serving. Serve calls it if it has not been called.
func (s *Server) Listen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("pgwire: server is shut down")
	}
	if s.ln != nil {
		return nil
	}
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("pgwire listen %s: %w", s.cfg.Listen, err)
	}
	s.ln = ln
	return nil
}

// Addr is the bound address, or nil before Listen.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Serve accepts connections until ctx is done or Shutdown is called. When
// ctx ends it shuts the server down itself (terminating every connection).
// It returns nil after a shutdown and an error if accepting fails for
// another reason.
func (s *Server) Serve(ctx context.Context) error {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil
	}
	if err := s.Listen(); err != nil {
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			// Shutdown won the race with this Serve: nothing to serve.
			return nil
		}
		return err
	}
	s.mu.Lock()
	ln := s.ln
	s.mu.Unlock()
	stopSweeper := s.startSweeper()
	defer stopSweeper()

	ctxShutdownDone := make(chan struct{})
	stopWatch := context.AfterFunc(ctx, func() {
		defer close(ctxShutdownDone)
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := s.Shutdown(sctx); err != nil {
			s.logger.Warn("shutdown after context end", "err", err)
		}
	})
	defer stopWatch()

	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			select {
			case <-s.stopped:
				if !stopWatch() {
					// ctx ended: wait for the shutdown it started.
					<-ctxShutdownDone
				}
				return nil
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) {
				backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
				s.logger.Warn("accept failed; retrying", "err", err, "backoff", backoff)
				time.Sleep(backoff)
				continue
			}
			return fmt.Errorf("pgwire accept: %w", err)
		}
		backoff = 0
		if !s.track(nc) {
			nc.Close()
			continue
		}
	}
}

// track registers a new connection and starts its handler, unless the
// server is shutting down.
func (s *Server) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	c := newConn(s, nc)
	s.conns[c] = struct{}{}
	s.handlers.Add(1)
	go func() {
		defer s.handlers.Done()
		defer s.untrack(c)
		c.run()
	}()
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.conns, c)
	if c.pid != 0 && s.byPID[c.pid] == c {
		delete(s.byPID, c.pid)
	}
	s.releaseSlotsLocked(c)
}

// releaseSlots gives back c's connection slots. A refused startup calls
// it before the client hears the refusal, so a client that retries once
// it has the error finds the slot free.
func (s *Server) releaseSlots(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseSlotsLocked(c)
}

func (s *Server) releaseSlotsLocked(c *conn) {
	if c.holdsSlot {
		s.slotsUse--
		c.holdsSlot = false
	}
	s.releaseUserSlot(c)
}

// acquireSlot reserves one of MaxConnections for c.
func (s *Server) acquireSlot(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slotsUse >= s.cfg.MaxConnections {
		return false
	}
	s.slotsUse++
	c.holdsSlot = true
	return true
}

// register assigns c a process id unique within this server and makes it
// reachable by CancelRequest.
func (s *Server) register(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		s.nextPID++
		if s.nextPID == 0 || s.nextPID > 1<<31-1 {
			s.nextPID = 1 // stay in positive int32: clients print it signed
		}
		if _, taken := s.byPID[s.nextPID]; !taken {
			break
		}
	}
	c.pid = s.nextPID
	s.byPID[c.pid] = c
}

// lookupForCancel finds the connection a CancelRequest names. The secret is
// compared in constant time; a wrong one looks like an unknown pid.
func (s *Server) lookupForCancel(pid, secret uint32) *conn {
	s.mu.Lock()
	c := s.byPID[pid]
	s.mu.Unlock()
	if c == nil || !c.secretMatches(secret) {
		return nil
	}
	return c
}

// Shutdown stops accepting, cancels every running statement, sends FATAL
// 57P01 "terminating connection due to administrator command" to each
// client, closes the connections and waits for their goroutines. If ctx
// ends first, the remaining connections are closed forcibly and ctx's
// error is returned.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	first := !s.closed
	s.closed = true
	ln := s.ln
	s.mu.Unlock()
	if first {
		close(s.stopped)
		if ln != nil {
			if err := ln.Close(); err != nil {
				s.logger.Warn("close listener", "err", err)
			}
		}
		s.baseCancel(errShutdown)
	}

	done := make(chan struct{})
	go func() {
		s.handlers.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		for c := range s.conns {
			c.raw.Close()
		}
		s.mu.Unlock()
		// Handlers stuck outside any socket call (a session that ignores
		// its context) are not waited for past ctx.
		return fmt.Errorf("pgwire shutdown: %w", ctx.Err())
	}
}
