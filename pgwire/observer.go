package pgwire

import (
	"io"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Observer is told what the server does, for metrics. Its methods are
// called on connection goroutines: they must be safe for concurrent use
// and must not block.
type Observer interface {
	// ConnectionOpened and ConnectionClosed bracket a session, from a
	// successful login to the connection's end.
	ConnectionOpened()
	ConnectionClosed()
	// ConnectionRefused reports a connection refused before its session
	// opened, with the SQLSTATE of the FATAL error it was sent.
	ConnectionRefused(sqlstate string)
	// ErrorSent reports every ErrorResponse sent, by SQLSTATE, whichever
	// layer raised the error.
	ErrorSent(sqlstate string)
	// RowsSent and BytesSent count DataRows and protocol bytes sent.
	RowsSent(n int64)
	BytesSent(n int64)
}

// nopObserver is the Observer of a server configured without one.
type nopObserver struct{}

func (nopObserver) ConnectionOpened()        {}
func (nopObserver) ConnectionClosed()        {}
func (nopObserver) ConnectionRefused(string) {}
func (nopObserver) ErrorSent(string)         {}
func (nopObserver) RowsSent(int64)           {}
func (nopObserver) BytesSent(int64)          {}

// errorMessage is the ErrorResponse for err, reported to the observer as
// it is sent: refusals during startup also as a refused connection.
func (c *conn) errorMessage(err error) *pgproto3.ErrorResponse {
	msg := c.errorResponse(err)
	obs := c.srv.cfg.Observer
	obs.ErrorSent(msg.Code)
	if c.session == nil && msg.Severity == pgerror.SeverityFatal {
		obs.ConnectionRefused(msg.Code)
	}
	return msg
}

// observedWriter reports the bytes written to a client's socket.
type observedWriter struct {
	w   io.Writer
	obs Observer
}

func (cw observedWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.obs.BytesSent(int64(n))
	return n, err
}
