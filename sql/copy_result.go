package sql

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// CopyOutResult is a running COPY ... TO STDOUT. Its Columns are nil (a
// COPY sends no RowDescription); its batches are the rows to copy, which
// pgwire frames as CopyData in the CopyFormat. CommandTag is "COPY n".
type CopyOutResult interface {
	Result
	CopyFormat() CopyFormat
}

// StartCopyOut returns res as a CopyOutResult when it is a COPY ... TO
// STDOUT, or nil. A portal's result (Bind) has not run yet: it is started
// here, so that an error binding the COPY reaches the client before it is
// told a COPY begins, as in PostgreSQL. The returned result reads through
// res, so the session still sees a failure while rows are produced.
func StartCopyOut(ctx context.Context, res Result) (CopyOutResult, error) {
	inner := res
	if d, ok := inner.(*deferredResult); ok {
		if err := d.start(ctx); err != nil {
			return nil, err
		}
		if d.inner == nil {
			return nil, nil
		}
		inner = d.inner
	}
	if t, ok := inner.(*trackedResult); ok {
		inner = t.Result
	}
	c, ok := inner.(CopyOutResult)
	if !ok {
		return nil, nil
	}
	if c == res {
		return c, nil
	}
	return copyOutView{Result: res, format: c.CopyFormat()}, nil
}

// start runs a bound statement now instead of at its first Next.
func (d *deferredResult) start(ctx context.Context) error {
	if d.inner != nil || d.done {
		return nil
	}
	d.done = true
	r, err := d.run(ctx)
	if err != nil {
		return err
	}
	d.inner = r
	return nil
}

// copyOutView is a COPY result seen through the session's wrappers.
type copyOutView struct {
	Result
	format CopyFormat
}

func (v copyOutView) CopyFormat() CopyFormat { return v.format }

// copyResult streams a COPY's rows from the plan of its SELECT.
type copyResult struct {
	rows   *rowsResult
	format CopyFormat
}

func (s *Session) newCopyResult(ctx context.Context, root planner.Node, opts *copyOptions) (*copyResult, error) {
	rows, err := newRowsResult(ctx, s.callerContext(ctx), root, s.statementLimits())
	if err != nil {
		return nil, err
	}
	f := opts.format
	f.Columns = rows.Columns()
	return &copyResult{rows: rows, format: f}, nil
}

func (c *copyResult) Columns() []Column      { return nil }
func (c *copyResult) CopyFormat() CopyFormat { return c.format }

func (c *copyResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return c.rows.Next(ctx)
}

func (c *copyResult) CommandTag() string { return "COPY " + strconv.FormatInt(c.rows.rows, 10) }

func (c *copyResult) Close() { c.rows.Close() }
