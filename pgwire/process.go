package pgwire

import (
	"fmt"
	"time"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// handle processes one frontend message on the handler goroutine. A
// returned error ends the connection (finish reports it); errors the client
// should see and survive are sent from here and not returned.
func (c *conn) handle(msg pgproto3.FrontendMessage) error {
	if c.ignoreTillSync {
		switch msg.(type) {
		case *pgproto3.Sync, *pgproto3.Terminate:
		default:
			return nil
		}
	}
	switch msg.(type) {
	case *pgproto3.Query, *pgproto3.Parse, *pgproto3.Bind, *pgproto3.Execute:
		// An identity whose token expired must not live on in a pooled
		// connection: its next statement ends the session.
		if tokenExpired(c.tokenExpiry, c.srv.cfg.TokenExpiryGrace, time.Now()) {
			return tokenExpiredEnd()
		}
	}
	switch m := msg.(type) {
	case *pgproto3.Terminate:
		return errTerminated
	case *pgproto3.Query:
		if err := checkMessageEncoding(m); err != nil {
			c.session.FailTransaction()
			if err := c.sendError(err); err != nil {
				return err
			}
			return c.readyForQuery()
		}
		return c.simpleQuery(m.String)
	case *pgproto3.Sync:
		c.ignoreTillSync = false
		c.endOfTransaction()
		if err := c.sendChangedParameters(); err != nil {
			return err
		}
		return c.readyForQuery()
	case *pgproto3.Flush:
		return c.w.flush()
	case *pgproto3.Parse, *pgproto3.Bind, *pgproto3.Describe, *pgproto3.Execute, *pgproto3.Close:
		err := checkMessageEncoding(m)
		if err == nil {
			err = c.handleExtended(m)
		}
		if fatal := c.connectionEnded(); fatal != nil {
			return fatal
		}
		if err != nil {
			c.ignoreTillSync = true
			// An error in a transaction block fails the block, whichever
			// layer raised it.
			c.session.FailTransaction()
			return c.sendError(err)
		}
		return nil
	case *pgproto3.FunctionCall:
		// The client waits for a ReadyForQuery after a function call.
		if err := c.sendError(pgerror.New(pgerror.ProtocolViolation, "fastpath function calls are not supported")); err != nil {
			return err
		}
		return c.readyForQuery()
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		// What a client still sends after a COPY FROM STDIN failed is
		// dropped, as PostgreSQL does.
		return nil
	}
	return &protocolError{msg: fmt.Sprintf("unexpected %s message", messageName(msg))}
}

// sendError sends a non-fatal ErrorResponse for err.
func (c *conn) sendError(err error) error {
	c.sendNotices()
	return c.w.send(c.errorMessage(err))
}

// readyForQuery tells the client the server is idle, and flushes.
func (c *conn) readyForQuery() error {
	status := c.session.TxStatus()
	c.activityIdle(status)
	if err := c.w.send(&pgproto3.ReadyForQuery{TxStatus: status}); err != nil {
		return err
	}
	return c.w.flush()
}

// messageName is a message's protocol name for error texts.
func messageName(msg pgproto3.FrontendMessage) string {
	name := fmt.Sprintf("%T", msg)
	const prefix = "*pgproto3."
	if len(name) > len(prefix) && name[:len(prefix)] == prefix {
		return name[len(prefix):]
	}
	return name
}
