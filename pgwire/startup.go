package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// handshake runs phases 1 to 4 of the connection (see doc.go): protocol and
// TLS negotiation, the startup message, password authentication and
// session creation, all under StartupTimeout. It returns the new session,
// or nil when the connection should close (the client has been told why,
// where that is possible).
func (c *conn) handshake() Session {
	deadline := time.Now().Add(c.srv.cfg.StartupTimeout)
	if err := c.raw.SetDeadline(deadline); err != nil {
		return nil
	}
	if !c.acceptProxyHeader(deadline) {
		return nil
	}
	ctx, cancel := context.WithDeadline(c.ctx, deadline)
	defer cancel()

	sess, err := c.startup(ctx)
	if err != nil {
		c.failStartup(err)
		return nil
	}
	if sess == nil {
		return nil // a cancel request, served
	}
	if err := c.raw.SetDeadline(time.Time{}); err != nil {
		sess.Close()
		return nil
	}
	if c.ctx.Err() != nil {
		// Ended while the deadline was being cleared: restore the
		// short ones.
		c.expireDeadlines()
	}
	return sess
}

// failStartup reports a startup error to the client if it can be reported.
func (c *conn) failStartup(err error) {
	c.srv.releaseSlots(c)
	if cause := context.Cause(c.ctx); errors.Is(cause, errShutdown) {
		c.sendFatal(fatal(pgerror.AdminShutdown, "terminating connection due to administrator command"))
		return
	}
	var pe *pgerror.Error
	var perr *protocolError
	var herr *tlsHandshakeError
	switch {
	case errors.As(err, &herr):
		// A client certificate that is missing, expired or signed by
		// another CA ends here: TLS has already told the client.
		c.logger.Info("connection refused", "reason", "tls handshake failed", "err", herr.err)
	case errors.As(err, &pe):
		c.logger.Info("connection refused", "code", pe.Code, "msg", pe.Message)
		c.sendFatal(pe.Fatal())
	case errors.As(err, &perr):
		c.logger.Info("connection refused", "reason", "protocol violation", "err", perr)
		c.sendFatal(fatal(pgerror.ProtocolViolation, "%s", perr.msg))
	default:
		// Timeouts, resets, EOF, failed TLS handshakes: nobody to answer.
		c.logger.Debug("connection ended during startup", "err", err)
	}
}

func (c *conn) startup(ctx context.Context) (Session, error) {
	msg, err := c.negotiate(ctx)
	if err != nil || msg == nil {
		return nil, err
	}
	st, err := c.checkStartup(msg)
	if err != nil {
		return nil, err
	}
	if !c.srv.acquireSlot(c) {
		return nil, fatal(pgerror.TooManyConnections, "sorry, too many clients already")
	}

	c.w = newMessageWriter(observedWriter{w: c.rw, obs: c.srv.cfg.Observer})
	c.guard = &frameGuard{cr: pgproto3.NewChunkReader(c.rw), limit: min(maxAuthMessageSize, c.srv.cfg.MaxMessageSize)}
	c.backend = pgproto3.NewBackend(c.guard, c.rw)

	id, err := c.authenticate(ctx, st)
	if err != nil {
		return nil, err
	}
	if c.srv.cfg.ClientCertUserMatch {
		if err := c.checkCertificateUser(st, id.User); err != nil {
			return nil, err
		}
	}
	if err := c.srv.acquireUserSlot(c, id.User); err != nil {
		return nil, err
	}
	c.user = id.User
	c.tokenExpiry = id.Expiry
	// As in PostgreSQL, the options are read once the client has
	// authenticated: before that, a malformed one is not its concern.
	if st.Settings, err = startupSettings(st.Params); err != nil {
		return nil, pgerror.From(err).Fatal()
	}
	sess, err := c.srv.sessions.NewSession(ctx, id, st)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			return nil, pe.Fatal()
		}
		return nil, pgerror.From(fmt.Errorf("open session for %s: %w", st.User, err)).Fatal()
	}
	if err := c.completeStartup(st, id.User, sess); err != nil {
		sess.Close()
		return nil, err
	}
	return sess, nil
}

// negotiate reads startup-phase packets until a StartupMessage arrives,
// answering SSLRequest and GSSENCRequest on the way. A CancelRequest is
// served here and ends the connection: it returns (nil, nil).
func (c *conn) negotiate(ctx context.Context) (*pgproto3.StartupMessage, error) {
	sslAnswered, gssAnswered := false, false
	for {
		msg, err := readStartupPacket(c.rw)
		if err != nil {
			return nil, err
		}
		switch m := msg.(type) {
		case *pgproto3.StartupMessage:
			return m, nil
		case *pgproto3.CancelRequest:
			if target := c.srv.lookupForCancel(m.ProcessID, m.SecretKey); target != nil {
				target.cancelStatement()
			}
			return nil, nil
		case *pgproto3.GSSEncRequest:
			if gssAnswered || c.tls {
				return nil, &protocolError{msg: "GSSENCRequest received after encryption negotiation"}
			}
			gssAnswered = true
			if _, err := c.rw.Write([]byte{'N'}); err != nil {
				return nil, fmt.Errorf("answer GSSENCRequest: %w", err)
			}
		case *pgproto3.SSLRequest:
			if sslAnswered {
				return nil, &protocolError{msg: "SSLRequest received after TLS negotiation"}
			}
			sslAnswered = true
			if err := c.startTLS(ctx); err != nil {
				return nil, err
			}
		}
	}
}

// startTLS answers an SSLRequest: 'N' when TLS is unavailable, else 'S' and
// the handshake, after which every byte goes through TLS.
func (c *conn) startTLS(ctx context.Context) error {
	if c.srv.tlsConfig == nil {
		if _, err := c.rw.Write([]byte{'N'}); err != nil {
			return fmt.Errorf("answer SSLRequest: %w", err)
		}
		return nil
	}
	if _, err := c.rw.Write([]byte{'S'}); err != nil {
		return fmt.Errorf("answer SSLRequest: %w", err)
	}
	tc := tls.Server(c.transport, c.srv.tlsConfig)
	if err := tc.HandshakeContext(ctx); err != nil {
		return &tlsHandshakeError{err: err}
	}
	c.rw, c.tls = tc, true
	return nil
}

// checkStartup validates the StartupMessage and applies the TLS policy.
func (c *conn) checkStartup(m *pgproto3.StartupMessage) (Startup, error) {
	params := m.Parameters
	if params == nil {
		params = map[string]string{}
	}
	st := Startup{
		User:       params["user"],
		Database:   params["database"],
		Params:     params,
		RemoteAddr: c.client,
		TLS:        c.tls,
	}
	if st.User == "" {
		return st, fatal(pgerror.InvalidAuthorizationSpecification, "no PostgreSQL user name specified in startup packet")
	}
	if st.Database == "" {
		st.Database = st.User
	}
	if !c.tls {
		// The password is a bearer token: it may cross the network only
		// encrypted.
		if c.srv.cfg.RequireTLS {
			return st, fatal(pgerror.InvalidAuthorizationSpecification,
				"connection must use TLS (SSL): this server refuses unencrypted connections").
				WithHint("Connect with sslmode=require.")
		}
		if !isLoopback(st.RemoteAddr) {
			return st, fatal(pgerror.InvalidAuthorizationSpecification,
				"connection must use TLS (SSL): unencrypted connections are accepted only from loopback addresses").
				WithHint("Connect with sslmode=require.")
		}
	}
	return st, nil
}

// completeStartup sends what a client receives after a successful login:
// AuthenticationOk, every reported parameter, BackendKeyData and the first
// ReadyForQuery. Only now is the connection reachable by CancelRequest.
func (c *conn) completeStartup(st Startup, user string, sess Session) error {
	secret, err := newSecret()
	if err != nil {
		return fmt.Errorf("cancel key: %w", err)
	}
	c.secret = secret
	c.joinRegistry(sess)
	c.logger = c.logger.With("user", user, "pid", c.pid)
	c.reported = c.srv.initialParameters(st, user)
	for k, v := range sess.ReportedParameters() {
		c.reported[k] = v
	}
	c.beginActivity(st, user)
	c.guard.limit = c.srv.cfg.MaxMessageSize
	if err := c.w.send(&pgproto3.AuthenticationOk{}); err != nil {
		return err
	}
	for _, name := range sortedKeys(c.reported) {
		if err := c.w.send(&pgproto3.ParameterStatus{Name: name, Value: c.reported[name]}); err != nil {
			return err
		}
	}
	if err := c.w.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.secret}); err != nil {
		return err
	}
	if err := c.w.send(&pgproto3.ReadyForQuery{TxStatus: sess.TxStatus()}); err != nil {
		return err
	}
	return c.w.flush()
}
