package pgwire

import (
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeDuplicateCursor is the SQLSTATE of a Bind to a portal that exists.
const codeDuplicateCursor = "42P03"

// handleExtended runs one extended-protocol message (Parse, Bind,
// Describe, Execute, Close) against the connection's prepared statements
// and portals. A returned error is sent as an ErrorResponse and the rest of
// the batch is skipped up to Sync (see handle).
func (c *conn) handleExtended(msg pgproto3.FrontendMessage) error {
	switch m := msg.(type) {
	case *pgproto3.Parse:
		return c.parseMessage(m)
	case *pgproto3.Bind:
		return c.bindMessage(m)
	case *pgproto3.Describe:
		return c.describeMessage(m)
	case *pgproto3.Execute:
		return c.executeMessage(m)
	case *pgproto3.Close:
		return c.closeMessage(m)
	}
	return pgerror.New(pgerror.ProtocolViolation, "unexpected %s message", messageName(msg))
}

// parseMessage prepares a statement. As in PostgreSQL, the unnamed
// statement is dropped before the new one is parsed (so it is gone even if
// the parse fails), while a named one must not exist yet, whether Parse
// or PREPARE made it; that is checked after parsing, so a syntax error
// wins.
func (c *conn) parseMessage(m *pgproto3.Parse) error {
	if m.Name == "" {
		c.session.PreparedStatements().Remove("")
	}
	ctx, end := c.beginStatement()
	ps, err := c.session.Prepare(ctx, m.Query, m.ParameterOIDs)
	end()
	if err != nil {
		return statementError(ctx, err)
	}
	ps.Name = m.Name
	if err := c.session.PreparedStatements().Add(ps); err != nil {
		return err
	}
	return c.w.send(&pgproto3.ParseComplete{})
}

// lookupStatement finds a prepared statement with PostgreSQL's error for a
// missing one.
func (c *conn) lookupStatement(name string) (*sql.PreparedStatement, error) {
	return c.session.PreparedStatements().Get(name)
}

// lookupPortal finds a portal with PostgreSQL's error for a missing one.
func (c *conn) lookupPortal(name string) (*portal, error) {
	if p, ok := c.portals[name]; ok {
		return p, nil
	}
	return nil, pgerror.New(pgerror.InvalidCursorName, "portal \"%s\" does not exist", name)
}

// bindMessage creates a portal from a prepared statement and parameter
// values. Binding the unnamed portal replaces it; a named portal must not
// exist. The statement does not run until Execute.
func (c *conn) bindMessage(m *pgproto3.Bind) error {
	ps, err := c.lookupStatement(m.PreparedStatement)
	if err != nil {
		return err
	}
	if m.DestinationPortal == "" {
		c.dropPortal("")
	} else if _, dup := c.portals[m.DestinationPortal]; dup {
		return pgerror.New(codeDuplicateCursor, "cursor \"%s\" already exists", m.DestinationPortal)
	}
	ctx, end := c.beginStatement()
	res, err := c.session.Bind(ctx, ps, m.Parameters, m.ParameterFormatCodes)
	end()
	if err != nil {
		return statementError(ctx, err)
	}
	p, err := newPortal(m.DestinationPortal, ps, res, m.ResultFormatCodes)
	if err == nil && p.enc != nil {
		p.enc.zone = c.timeZone()
	}
	if err != nil {
		res.Close()
		return err
	}
	if c.portals == nil {
		c.portals = make(map[string]*portal)
	}
	c.portals[p.name] = p
	return c.w.send(&pgproto3.BindComplete{})
}

// describeMessage answers Describe: for a statement its parameter types
// and its row shape in text format (the result formats are not known
// before Bind), for a portal its row shape in the formats Bind chose.
func (c *conn) describeMessage(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		ps, err := c.lookupStatement(m.Name)
		if err != nil {
			return err
		}
		oids := make([]uint32, len(ps.ParamTypes))
		for i, t := range ps.ParamTypes {
			oids[i] = t.OID
		}
		if err := c.w.send(&pgproto3.ParameterDescription{ParameterOIDs: oids}); err != nil {
			return err
		}
		return c.describeRows(ps.Columns, nil)
	case 'P':
		p, err := c.lookupPortal(m.Name)
		if err != nil {
			return err
		}
		return c.describeRows(p.cols, p.formats)
	}
	return pgerror.New(pgerror.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
}

func (c *conn) describeRows(cols []sql.Column, formats []int16) error {
	if cols == nil {
		return c.w.send(&pgproto3.NoData{})
	}
	return c.w.send(rowDescription(cols, formats))
}

// executeMessage runs a portal, or resumes a suspended one, sending at
// most MaxRows rows (0 = all). A portal that stops short of its end
// answers PortalSuspended and keeps its place; one that reaches it answers
// CommandComplete. A failed portal is dropped.
func (c *conn) executeMessage(m *pgproto3.Execute) error {
	p, err := c.lookupPortal(m.Portal)
	if err != nil {
		return err
	}
	if p.stmt.Empty {
		return c.w.send(&pgproto3.EmptyQueryResponse{})
	}
	if !p.admitted {
		if err := c.admitQuery(); err != nil {
			return err
		}
		p.admitted = true
	}
	c.activityRunning(p.stmt.SQL)
	ctx, end := c.beginStatement()
	defer end()
	if cp, err := sql.StartCopyOut(ctx, p.res); err != nil || cp != nil {
		// A COPY ignores the row limit and always runs to its end.
		if err == nil {
			err = c.copyOut(ctx, cp)
		}
		if err != nil {
			c.dropPortal(p.name)
		}
		return statementError(ctx, err)
	}
	if cp, err := sql.StartCopyIn(ctx, p.res); err != nil || cp != nil {
		if err == nil {
			err = c.copyIn(ctx, cp)
		}
		if err != nil {
			c.dropPortal(p.name)
		}
		return statementError(ctx, err)
	}
	sent, suspended, err := p.run(ctx, c.w, m.MaxRows)
	c.srv.cfg.Observer.RowsSent(sent)
	if err != nil {
		c.dropPortal(p.name)
		return statementError(ctx, err)
	}
	if c.w.err != nil {
		return nil // the connection is ending; handle picks it up
	}
	if suspended {
		return c.w.send(&pgproto3.PortalSuspended{})
	}
	tag := p.commandTag(sent)
	c.sendNotices()
	err = c.w.send(&pgproto3.CommandComplete{CommandTag: tag})
	c.afterCommand(string(tag))
	return err
}

// afterCommand applies what a completed statement means for the
// connection's protocol state: DISCARD ALL drops every portal, as
// PostgreSQL's does (the Session dropped the prepared statements).
func (c *conn) afterCommand(tag string) {
	if tag == sql.DiscardAllTag {
		c.closePortals()
	}
}

// closeMessage drops a prepared statement or portal; closing one that does
// not exist is not an error.
func (c *conn) closeMessage(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		c.session.PreparedStatements().Remove(m.Name)
	case 'P':
		c.dropPortal(m.Name)
	default:
		return pgerror.New(pgerror.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	return c.w.send(&pgproto3.CloseComplete{})
}

// dropPortal closes and forgets a portal, if it exists.
func (c *conn) dropPortal(name string) {
	if p, ok := c.portals[name]; ok {
		p.close()
		delete(c.portals, name)
	}
}

// endOfTransaction drops the portals when no transaction block is open:
// PostgreSQL's portals live until the end of their transaction, and
// outside a block that is the Sync (or simple Query) that ends the
// implicit one. Prepared statements live as long as the connection.
func (c *conn) endOfTransaction() {
	if c.session.TxStatus() == 'T' {
		return
	}
	c.closePortals()
}

// closePortals releases every portal's result.
func (c *conn) closePortals() {
	for name, p := range c.portals {
		p.close()
		delete(c.portals, name)
	}
}
