package pgwire

import (
	"context"
	"io"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// copyIn runs a COPY ... FROM STDIN: CopyInResponse, then the statement
// reads the client's CopyData through copyInReader, straight from the
// inbox the reader goroutine keeps filling, until CopyDone (success:
// CommandComplete "COPY n"), CopyFail (57014) or an error of its own. The
// reader goroutine never waits on the statement, so a client that goes
// away mid-COPY cancels it at once. After an error the client's remaining
// CopyData, CopyDone and CopyFail messages are dropped (handle ignores
// them, as PostgreSQL does). The returned error is the statement's.
func (c *conn) copyIn(ctx context.Context, res sql.CopyInResult) error {
	f := res.CopyInFormat()
	overall := formatText
	if f.Mode == sql.CopyBinary {
		overall = formatBinary
	}
	codes := make([]uint16, len(f.Columns))
	for i := range codes {
		codes[i] = uint16(overall)
	}
	if err := c.w.send(&pgproto3.CopyInResponse{OverallFormat: byte(overall), ColumnFormatCodes: codes}); err != nil {
		return nil
	}
	if d := res.Deadline(); !d.IsZero() {
		// The statement's timeout bounds the wait for the client's data
		// too: a client that stalls mid-COPY is ended with 57014.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	src := &copyInReader{c: c, ctx: ctx}
	err := res.Load(ctx, src)
	if src.terminated {
		// Terminate ends the connection; the COPY committed nothing.
		c.cancel(errTerminated)
		return nil
	}
	if err != nil {
		return statementError(ctx, err)
	}
	c.sendNotices()
	return c.w.send(&pgproto3.CommandComplete{CommandTag: []byte(res.CommandTag())})
}

// copyInReader is the COPY data as an io.Reader: the payloads of the
// client's CopyData messages, ending at CopyDone. Flush and Sync are
// ignored during COPY, as PostgreSQL ignores them; any other message
// fails the COPY.
type copyInReader struct {
	c          *conn
	ctx        context.Context
	pending    []byte
	err        error
	terminated bool
}

func (r *copyInReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		msg, err := r.c.in.pop(r.ctx, r.c.w.flush)
		if err != nil {
			r.err = err
			return 0, err
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			r.pending = m.Data
		case *pgproto3.CopyDone:
			r.err = io.EOF
		case *pgproto3.CopyFail:
			r.err = pgerror.New(pgerror.QueryCanceled, "COPY from stdin failed: %s", m.Message)
		case *pgproto3.Flush, *pgproto3.Sync:
		case *pgproto3.Terminate:
			r.terminated = true
			r.err = errTerminated
		default:
			r.err = pgerror.New(pgerror.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", messageType(msg))
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// messageType is a frontend message's type byte.
func messageType(msg pgproto3.FrontendMessage) byte {
	b, err := msg.Encode(nil)
	if err != nil || len(b) == 0 {
		return 0
	}
	return b[0]
}
