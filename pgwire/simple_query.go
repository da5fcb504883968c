package pgwire

import (
	"context"
	"errors"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// simpleQuery runs a Query message: parse the string, run its statements in
// order, each with its own cancellable context, stop at the first error,
// then ReadyForQuery. It returns an error only when the connection must end
// (a failed write, or the connection's context ended).
func (c *conn) simpleQuery(query string) error {
	// Like PostgreSQL, a simple query replaces the unnamed statement and
	// portal, and ending its implicit transaction ends the portals.
	c.session.PreparedStatements().Remove("")
	c.dropPortal("")
	defer c.endOfTransaction()
	c.activityRunning(query)
	stmts, err := c.parse(query)
	if err != nil {
		if fatal := c.connectionEnded(); fatal != nil {
			return fatal
		}
		if err := c.sendError(err); err != nil {
			return err
		}
		return c.readyForQuery()
	}
	if len(stmts) == 0 {
		if err := c.w.send(&pgproto3.EmptyQueryResponse{}); err != nil {
			return err
		}
		return c.readyForQuery()
	}
	for _, stmt := range stmts {
		stmtErr := c.admitQuery()
		if stmtErr != nil {
			// Refused before the session saw it: an open transaction
			// block fails as after any error.
			c.session.FailTransaction()
		} else {
			stmtErr = c.runStatement(stmt)
		}
		if fatal := c.connectionEnded(); fatal != nil {
			return fatal
		}
		if err := c.sendChangedParameters(); err != nil {
			return err
		}
		if stmtErr != nil {
			if err := c.sendError(stmtErr); err != nil {
				return err
			}
			break
		}
	}
	return c.readyForQuery()
}

// connectionEnded returns why the connection must stop now: its context
// ended (the statement error that caused is not reported), or a write to
// the client failed.
func (c *conn) connectionEnded() error {
	if c.ctx.Err() != nil {
		return context.Cause(c.ctx)
	}
	return c.w.err
}

func (c *conn) parse(query string) ([]*sql.Statement, error) {
	ctx, end := c.beginStatement()
	defer end()
	stmts, err := c.session.Parse(ctx, query)
	return stmts, statementError(ctx, err)
}

// runStatement executes one statement and streams its result. The returned
// error is the statement's, for the client; write failures are latched in
// c.w and picked up by connectionEnded.
func (c *conn) runStatement(stmt *sql.Statement) error {
	ctx, end := c.beginStatement()
	defer end()
	res, err := c.session.Execute(ctx, stmt)
	if err != nil {
		return statementError(ctx, err)
	}
	defer res.Close()
	if cp, err := sql.StartCopyOut(ctx, res); err != nil {
		return statementError(ctx, err)
	} else if cp != nil {
		return c.copyOut(ctx, cp)
	}
	if cp, err := sql.StartCopyIn(ctx, res); err != nil {
		return statementError(ctx, err)
	} else if cp != nil {
		return c.copyIn(ctx, cp)
	}

	cols := res.Columns()
	var enc *rowEncoder
	if cols != nil {
		if err := c.w.send(rowDescription(cols, nil)); err != nil {
			return nil
		}
		enc = newRowEncoder(cols, nil)
		enc.zone = c.timeZone()
	}
	for {
		rec, err := res.Next(ctx)
		if err != nil {
			return statementError(ctx, err)
		}
		if rec == nil {
			break
		}
		if enc == nil {
			rec.Release()
			return pgerror.New(pgerror.InternalError, "statement without columns returned rows")
		}
		err = writeBatch(ctx, c.w, enc, rec)
		c.srv.cfg.Observer.RowsSent(rec.NumRows())
		rec.Release()
		if c.w.err != nil {
			return nil
		}
		if err != nil {
			return statementError(ctx, err)
		}
	}
	tag := res.CommandTag()
	c.sendNotices()
	_ = c.w.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	c.afterCommand(tag)
	return nil
}

// statementError maps the error of a cancelled statement to 57014 even
// when the layer that saw the cancellation did not wrap ctx's error.
func statementError(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var pe *pgerror.Error
	if ctx.Err() != nil && !errors.As(err, &pe) {
		return pgerror.From(ctx.Err())
	}
	return err
}

// rowDescription describes cols in the given formats (one per column, or
// nil for text throughout).
func rowDescription(cols []sql.Column, formats []int16) *pgproto3.RowDescription {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.AttNum),
			DataTypeOID:          col.Type.OID,
			DataTypeSize:         col.Type.Len(),
			TypeModifier:         col.Type.Typmod(),
			Format:               formatText,
		}
		if formats != nil {
			fields[i].Format = formats[i]
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}
