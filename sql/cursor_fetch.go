package sql

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// fetchAll is the count PostgreSQL's parser gives FETCH ALL (FETCH_ALL).
const fetchAll = math.MaxInt64

// forwardCount is how many rows a FETCH or MOVE asks for, refusing the
// directions that need to move backward or re-read a row: SQE's cursors
// stream forward only.
func (c *cursor) forwardCount(f *pg_query.FetchStmt) (int64, error) {
	n := f.HowMany
	switch f.Direction {
	case pg_query.FetchDirection_FETCH_FORWARD:
		if n > 0 {
			return n, nil
		}
	case pg_query.FetchDirection_FETCH_BACKWARD:
		// BACKWARD -n is FORWARD n; BACKWARD ALL is stored as +ALL.
		if n < 0 {
			return -n, nil
		}
	}
	verb := "FETCH"
	if f.Ismove {
		verb = "MOVE"
	}
	if c.noScroll && (f.Direction != pg_query.FetchDirection_FETCH_ABSOLUTE && f.Direction != pg_query.FetchDirection_FETCH_RELATIVE) {
		return 0, pgerror.New(pgerror.ObjectNotInPrerequisiteState, "cursor can only scan forward").
			WithHint("Declare it with SCROLL option to enable backward scan.")
	}
	switch f.Direction {
	case pg_query.FetchDirection_FETCH_ABSOLUTE:
		return 0, pgerror.Unsupported("%s ABSOLUTE, FIRST and LAST are not supported yet: SQE cursors only move forward", verb)
	case pg_query.FetchDirection_FETCH_RELATIVE:
		return 0, pgerror.Unsupported("%s RELATIVE is not supported yet: SQE cursors only move forward", verb)
	case pg_query.FetchDirection_FETCH_BACKWARD:
		return 0, pgerror.Unsupported("%s BACKWARD and PRIOR are not supported yet: SQE cursors only move forward", verb)
	}
	return 0, pgerror.Unsupported("%s with a count of zero or less is not supported yet: SQE cursors only move forward", verb)
}

// next returns up to max rows of the cursor, or nil at its end. The rest
// of a batch larger than max stays in the cursor for the next FETCH, so
// nothing is read ahead of what the client asks for but one batch.
func (c *cursor) next(ctx context.Context, max int64) (arrow.RecordBatch, error) {
	if c.failed {
		return nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState, "portal \"%s\" cannot be run", c.name)
	}
	for c.batch == nil {
		if c.done {
			return nil, nil
		}
		// The cursor's scans run under its own context; a cancelled FETCH
		// cancels it, and the cursor fails as a portal does in PostgreSQL.
		stop := context.AfterFunc(ctx, c.cancel)
		b, err := c.res.Next(c.ctx)
		stop()
		if err != nil {
			c.failed = true
			if ctx.Err() != nil {
				return nil, pgerror.From(ctx.Err())
			}
			return nil, err
		}
		if ctx.Err() != nil {
			c.failed = true
			if b != nil {
				b.Release()
			}
			return nil, pgerror.From(ctx.Err())
		}
		if b == nil {
			c.done = true
			return nil, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		c.batch = b
	}
	n := c.batch.NumRows()
	if n <= max {
		out := c.batch
		c.batch = nil
		return out, nil
	}
	out := c.batch.NewSlice(0, max)
	rest := c.batch.NewSlice(max, n)
	c.batch.Release()
	c.batch = rest
	return out, nil
}

// fetchResult is one FETCH or MOVE: it pulls from the cursor as pgwire
// pulls from it, and never closes the cursor.
type fetchResult struct {
	c    *cursor
	want int64
	got  int64
	move bool
	// deadline is the FETCH's statement_timeout end; zero for none.
	deadline time.Time
}

func (f *fetchResult) Columns() []Column {
	if f.move {
		return nil
	}
	return f.c.cols
}

func (f *fetchResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !f.deadline.IsZero() {
		// The cursor's scans keep their own context, so a per-call one
		// is safe here: it only signals the cursor through next.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, f.deadline)
		defer cancel()
	}
	for f.got < f.want {
		b, err := f.c.next(ctx, f.want-f.got)
		if err != nil || b == nil {
			return nil, err
		}
		f.got += b.NumRows()
		if !f.move {
			return b, nil
		}
		b.Release()
	}
	return nil, nil
}

func (f *fetchResult) CommandTag() string {
	verb := "FETCH "
	if f.move {
		verb = "MOVE "
	}
	return verb + strconv.FormatInt(f.got, 10)
}

func (f *fetchResult) Close() {}

// fetchColumns is the row shape of a prepared FETCH: its cursor's, or
// none for MOVE or a cursor that does not exist (yet), as PostgreSQL
// describes it.
func (s *Session) fetchColumns(f *pg_query.FetchStmt) []Column {
	c := s.cursors.get(f.Portalname)
	if c == nil || f.Ismove {
		return nil
	}
	return c.cols
}
