package pgwire

import (
	"context"
	"net"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/sql"
)

// Startup is what a client said about itself before authenticating.
type Startup struct {
	User, Database string
	Params         map[string]string // every StartupMessage parameter (application_name, options, ...)
	// Settings are the run-time parameters Params sets, options expanded,
	// in the order they apply (startupSettings).
	Settings   []sql.StartupSetting
	RemoteAddr net.Addr
	TLS        bool
}

// Authenticator checks the password (a JWT) for the startup user. Any error
// refuses the login; if the error is a *pgerror.Error it is sent as is (it
// will be FATAL 28P01), otherwise the client gets FATAL 28P01
// `password authentication failed for user "<user>"`.
type Authenticator interface {
	Authenticate(ctx context.Context, st Startup, password string) (auth.Identity, error)
}

// Session is one client's SQL session (implemented by package sql).
type Session interface {
	// Parse splits and parses a simple-query string. Zero statements =
	// empty or comment-only query. Errors are *pgerror.Error whose Position
	// is relative to the whole query string.
	Parse(ctx context.Context, query string) ([]*sql.Statement, error)
	Execute(ctx context.Context, stmt *sql.Statement) (sql.Result, error)
	// Prepare parses and analyses one statement for the extended protocol
	// (Parse). paramOIDs are the parameter types the client declared, 0 or
	// missing = infer.
	Prepare(ctx context.Context, query string, paramOIDs []uint32) (*sql.PreparedStatement, error)
	// Bind decodes parameter values (nil = NULL; paramFormats has 0, 1 or
	// one entry per parameter) and returns the portal's result. Nothing
	// runs before the result's first Next, so side effects happen at
	// Execute.
	Bind(ctx context.Context, ps *sql.PreparedStatement, params [][]byte, paramFormats []int16) (sql.Result, error)
	// PreparedStatements are the session's prepared statements by name
	// ("" is the unnamed one): Parse adds to them, Bind and Describe
	// find them there, Close removes them, as SQL's PREPARE, EXECUTE and
	// DEALLOCATE do, in one namespace.
	PreparedStatements() *sql.PreparedStatements
	// TxStatus is the ReadyForQuery status byte: 'I', 'T' or 'E'.
	TxStatus() byte
	// ReportedParameters are the current values of the GUC_REPORT settings
	// (application_name, DateStyle, TimeZone, ...); pgwire sends them all at
	// startup and, after each statement, those that changed.
	ReportedParameters() map[string]string
	// FailTransaction puts an open transaction block into the failed state
	// after an error raised outside the session (an unknown portal, a bad
	// format code), as PostgreSQL does.
	FailTransaction()
	Close()
}

// SessionFactory opens a Session for an authenticated client. A
// *pgerror.Error it returns is sent to the client as FATAL.
type SessionFactory interface {
	NewSession(ctx context.Context, id auth.Identity, st Startup) (Session, error)
}
