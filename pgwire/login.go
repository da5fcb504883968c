package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// authenticate asks for the password in clear text (the connection is
// TLS-protected or loopback-only, see checkStartup), reads it and hands it
// to the Authenticator. The password is a token: it is never logged, and a
// refusal never says why.
func (c *conn) authenticate(ctx context.Context, st Startup) (auth.Identity, error) {
	if err := c.backend.SetAuthType(pgproto3.AuthTypeCleartextPassword); err != nil {
		return auth.Identity{}, fmt.Errorf("set auth type: %w", err)
	}
	if err := c.w.send(&pgproto3.AuthenticationCleartextPassword{}); err != nil {
		return auth.Identity{}, err
	}
	if err := c.w.flush(); err != nil {
		return auth.Identity{}, err
	}
	msg, err := c.backend.Receive()
	if err != nil {
		var tooLarge *messageTooLargeError
		if errors.As(err, &tooLarge) {
			return auth.Identity{}, &protocolError{msg: fmt.Sprintf("invalid password packet size %d", tooLarge.size)}
		}
		if c.guard.readErr != nil {
			return auth.Identity{}, fmt.Errorf("read password: %w", err)
		}
		return auth.Identity{}, &protocolError{msg: "invalid password packet", cause: err}
	}
	pw, ok := msg.(*pgproto3.PasswordMessage)
	if !ok {
		return auth.Identity{}, &protocolError{msg: fmt.Sprintf("expected password response, got %T", msg)}
	}
	failed := fatal(pgerror.InvalidPassword, "password authentication failed for user \"%s\"", st.User)
	if pw.Password == "" {
		return auth.Identity{}, failed
	}
	id, err := c.srv.authn.Authenticate(ctx, st, pw.Password)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			return auth.Identity{}, pe.Fatal()
		}
		c.logger.Info("authentication failed", "user", st.User, "err", err)
		return auth.Identity{}, failed
	}
	if id.User == "" {
		// An identity without a user is not an identity: fail closed.
		return auth.Identity{}, failed
	}
	return id, nil
}

// checkCertificateUser refuses a login whose verified client certificate
// does not name the authenticated user as its subject Common Name, as
// PostgreSQL's clientcert=verify-full does. The client learns only that
// certificate authentication failed; the log says why.
func (c *conn) checkCertificateUser(st Startup, user string) error {
	failed := fatal(pgerror.InvalidAuthorizationSpecification, "certificate authentication failed for user \"%s\"", st.User)
	tc, ok := c.rw.(*tls.Conn)
	if !ok {
		c.logger.Info("certificate authentication failed", "user", user, "reason", "no TLS connection")
		return failed
	}
	// Only a certificate the handshake verified may name a user.
	chains := tc.ConnectionState().VerifiedChains
	if len(chains) == 0 || len(chains[0]) == 0 {
		c.logger.Info("certificate authentication failed", "user", user, "reason", "no verified client certificate")
		return failed
	}
	if cn := chains[0][0].Subject.CommonName; cn != user {
		c.logger.Info("certificate authentication failed", "user", user,
			"reason", "the certificate's common name is not the user", "common_name", cn)
		return failed
	}
	return nil
}
