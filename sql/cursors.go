package sql

import (
	"context"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// DECLARE CURSOR options, as PostgreSQL's parser sets them (CURSOR_OPT_*).
const (
	cursorOptBinary   = 0x0001
	cursorOptScroll   = 0x0002
	cursorOptNoScroll = 0x0004
	cursorOptHold     = 0x0020
)

// runDeclareCursor plans the cursor's query through the same path as a
// SELECT, so gate one and gate two apply as they would to the query sent
// directly, and keeps its result open for FETCH to pull from.
func (s *Session) runDeclareCursor(ctx context.Context, d *pg_query.DeclareCursorStmt, query string, params *planner.Params) (Result, error) {
	hold := d.Options&cursorOptHold != 0
	if !hold && s.tx == nil {
		return nil, pgerror.New(pgerror.NoActiveSQLTransaction, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if d.Portalname == "" {
		return nil, pgerror.New(pgerror.InvalidCursorName, "invalid cursor name: must not be empty")
	}
	if s.cursors.get(d.Portalname) != nil {
		return nil, pgerror.New(pgerror.DuplicateCursor, "cursor \"%s\" already exists", d.Portalname)
	}
	if d.Options&cursorOptBinary != 0 {
		return nil, pgerror.Unsupported("DECLARE BINARY CURSOR is not supported yet")
	}
	if d.Options&cursorOptScroll != 0 {
		return nil, pgerror.Unsupported("SCROLL cursors are not supported yet: SQE cursors only move forward")
	}
	sel := d.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerror.Unsupported("DECLARE CURSOR supports only SELECT and VALUES queries")
	}
	s.markQueried()
	p, err := s.plan(ctx, sel, query, params)
	if err != nil {
		return nil, err
	}
	c, err := s.openCursor(ctx, d.Portalname, p.Root)
	if err != nil {
		return nil, err
	}
	c.hold = hold
	c.noScroll = d.Options&cursorOptNoScroll != 0
	s.cursors.add(c, s.tx != nil)
	return commandResult("DECLARE CURSOR"), nil
}

// openCursor builds the exec operators of a planned query under a context
// of the cursor's own: the statement that declares it ends long before the
// last FETCH, while the caller's identity must stay with the scans.
func (s *Session) openCursor(ctx context.Context, name string, root planner.Node) (*cursor, error) {
	cctx, cancel := context.WithCancel(s.callerContext(context.WithoutCancel(ctx)))
	// A cursor outlives the DECLARE: statement_timeout does not follow it.
	res, err := newRowsResult(cctx, cctx, root, queryLimits{memory: s.engine.cfg.MemoryLimit, spill: s.engine.cfg.Spill})
	if err != nil {
		cancel()
		return nil, err
	}
	return &cursor{name: name, cols: res.Columns(), res: res, ctx: cctx, cancel: cancel}, nil
}

func (s *Session) runFetch(_ context.Context, f *pg_query.FetchStmt) (Result, error) {
	c := s.cursors.get(f.Portalname)
	if c == nil {
		return nil, pgerror.New(pgerror.InvalidCursorName, "cursor \"%s\" does not exist", f.Portalname)
	}
	count, err := c.forwardCount(f)
	if err != nil {
		return nil, err
	}
	s.markQueried()
	return &fetchResult{c: c, want: count, move: f.Ismove, deadline: s.statementLimits().deadline}, nil
}

func (s *Session) runCloseCursor(c *pg_query.ClosePortalStmt) (Result, error) {
	if c.Portalname == "" {
		s.cursors.closeAll()
		return commandResult("CLOSE CURSOR ALL"), nil
	}
	if !s.cursors.close(c.Portalname) {
		return nil, pgerror.New(pgerror.InvalidCursorName, "cursor \"%s\" does not exist", c.Portalname)
	}
	return commandResult("CLOSE CURSOR"), nil
}

// runDiscard resets session state. Plans, sequences and temporary tables
// are not kept by SQE, so only DISCARD ALL has work to do: it closes the
// cursors, drops the named prepared statements and resets the settings
// here, and its tag tells pgwire to drop the connection's portals.
func (s *Session) runDiscard(d *pg_query.DiscardStmt) (Result, error) {
	switch d.Target {
	case pg_query.DiscardMode_DISCARD_ALL:
		if s.txStatus != 'I' {
			return nil, pgerror.New(pgerror.ActiveSQLTransaction, "DISCARD ALL cannot run inside a transaction block")
		}
		s.cursors.closeAll()
		s.prepared.RemoveNamed()
		s.resetAllSettings()
		s.syncTransactionSettings()
		return commandResult(DiscardAllTag), nil
	case pg_query.DiscardMode_DISCARD_PLANS:
		return commandResult("DISCARD PLANS"), nil
	case pg_query.DiscardMode_DISCARD_SEQUENCES:
		return commandResult("DISCARD SEQUENCES"), nil
	case pg_query.DiscardMode_DISCARD_TEMP:
		return commandResult("DISCARD TEMP"), nil
	}
	return nil, pgerror.Unsupported("this form of DISCARD is not supported yet")
}

// DiscardAllTag is the command tag of DISCARD ALL. The protocol layer
// drops the connection's prepared statements and portals when a statement
// completes with it, as PostgreSQL's DISCARD ALL does DEALLOCATE ALL.
const DiscardAllTag = "DISCARD ALL"
