package pgwire

import (
	"context"
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
)

// copyCancelCheckRows is how many rows a COPY sends between checks of its
// context, so a cancel or a disconnect stops it inside a large batch.
const copyCancelCheckRows = 1024

// copyOut streams a COPY ... TO STDOUT to the client: CopyOutResponse,
// one CopyData per row (a header line first when asked; in binary the
// file signature rides on the first message and the trailer on its own
// last one, as PostgreSQL frames them), CopyDone and CommandComplete. The
// rows go through the connection's write buffer, flushed as it fills, so
// memory stays bounded by one batch. The returned error is the
// statement's; a failed write is latched in c.w for connectionEnded.
func (c *conn) copyOut(ctx context.Context, res sql.CopyOutResult) error {
	f := res.CopyFormat()
	overall := formatText
	if f.Mode == sql.CopyBinary {
		overall = formatBinary
	}
	codes := make([]uint16, len(f.Columns))
	for i := range codes {
		codes[i] = uint16(overall)
	}
	if err := c.w.send(&pgproto3.CopyOutResponse{OverallFormat: byte(overall), ColumnFormatCodes: codes}); err != nil {
		return nil
	}
	enc := newCopyEncoder(f)
	enc.zone = c.timeZone()
	if f.Header && f.Mode != sql.CopyBinary {
		buf, start := beginCopyData(c.w.buf)
		c.w.buf = endCopyData(enc.appendHeaderLine(buf), start)
	}
	for {
		rec, err := res.Next(ctx)
		if err != nil {
			return statementError(ctx, err)
		}
		if rec == nil {
			break
		}
		err = c.copyBatch(ctx, enc, rec)
		rec.Release()
		if c.w.err != nil {
			return nil
		}
		if err != nil {
			return statementError(ctx, err)
		}
	}
	if f.Mode == sql.CopyBinary {
		buf, start := beginCopyData(c.w.buf)
		c.w.buf = endCopyData(enc.appendTrailer(buf), start)
	}
	if err := c.w.send(&pgproto3.CopyDone{}); err != nil {
		return nil
	}
	_ = c.w.send(&pgproto3.CommandComplete{CommandTag: []byte(res.CommandTag())})
	return nil
}

// copyBatch binds a batch and writes one CopyData per row.
func (c *conn) copyBatch(ctx context.Context, enc *copyEncoder, rec arrow.RecordBatch) error {
	if err := enc.bind(rec); err != nil {
		return err
	}
	n := int(rec.NumRows())
	for i := 0; i < n; i++ {
		if i%copyCancelCheckRows == copyCancelCheckRows-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		buf, start := beginCopyData(c.w.buf)
		c.w.buf = endCopyData(enc.appendRow(buf, i), start)
		if err := c.w.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}

// beginCopyData starts a CopyData message in dst; the payload is appended
// straight after it and endCopyData fills in the length, so a row is
// never built apart and copied.
func beginCopyData(dst []byte) ([]byte, int) {
	return append(dst, 'd', 0, 0, 0, 0), len(dst)
}

// endCopyData completes the CopyData message begun at start.
func endCopyData(dst []byte, start int) []byte {
	binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	return dst
}
