package trino

import (
	"context"
	"encoding/json"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/remote"
	"github.com/sqe-db/sqe/sql/types"
)

// Query submits sql to Trino and follows its answer until the result
// columns are known (so that an error Trino finds planning the statement
// is returned here), then returns a stream reading the rows page by page
// as it is read.
func (e *Engine) Query(ctx context.Context, sql string, cols []planner.Column) (remote.Stream, error) {
	if ctx.Err() != nil {
		return nil, cancelled(ctx)
	}
	s := &stream{e: e, ctx: ctx, cols: cols}
	page, err := e.post(ctx, sql, &s.read)
	if err != nil {
		if ctx.Err() != nil {
			return nil, cancelled(ctx)
		}
		return nil, err
	}
	if err := s.take(page); err != nil {
		return nil, s.fail(err)
	}
	for !s.described && s.nextURI != "" {
		if err := s.fetch(); err != nil {
			return nil, err
		}
	}
	if !s.described {
		// Trino ended the query without describing a result.
		err := checkColumns(e.name, nil, cols)
		if err != nil {
			return nil, err
		}
		s.described = true
	}
	s.bb = remote.NewBatchBuilder(cols)
	return s, nil
}

// stream reads a query's answer from Trino, one page when a batch needs
// one.
type stream struct {
	e    *Engine
	ctx  context.Context
	cols []planner.Column
	bb   *remote.BatchBuilder

	// read counts the answer's bytes; BytesRead may be called from
	// another goroutine.
	read atomic.Int64

	queryID string
	// nextURI is where the next page is; empty once Trino has sent the
	// last one (or the query ended here).
	nextURI string
	// described is set once Trino's result columns have been checked.
	described bool
	// pending are the rows of the last page not yet in a batch.
	pending [][]json.RawMessage

	err    error
	closed bool
}

// Next returns the next batch: up to remote.BatchRows rows of the page being
// read, asking for the next page only when this one is used up.
func (s *stream) Next() (arrow.RecordBatch, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.closed {
		return nil, pgerror.New(pgerror.InternalError, "remote engine %q: the answer was read after it was closed", s.e.name)
	}
	for len(s.pending) == 0 {
		if s.nextURI == "" {
			return nil, planner.EOF
		}
		if err := s.fetch(); err != nil {
			return nil, err
		}
	}
	n := min(len(s.pending), remote.BatchRows)
	for _, row := range s.pending[:n] {
		if err := s.appendRow(row); err != nil {
			return nil, s.fail(err)
		}
	}
	s.pending = s.pending[n:]
	if len(s.pending) == 0 {
		s.pending = nil
	}
	return s.bb.Flush(), nil
}

// appendRow appends one row of Trino's JSON values.
func (s *stream) appendRow(row []json.RawMessage) error {
	if len(row) != len(s.cols) {
		return protocolViolation(s.e.name, nil, "a row whose number of values is not the result's number of columns")
	}
	for i, raw := range row {
		text, null, ok := valueText(raw)
		switch {
		case !ok:
			return pgerror.New(pgerror.InvalidTextRepresentation,
				"the engine returned a value that is not of type %s for result column %d", s.cols[i].Type.Name(), i+1)
		case null:
			s.bb.AppendNull(i)
		default:
			if t := s.cols[i].Type.OID; t == types.OIDDate || t == types.OIDTimestamp {
				text = postgresYear(text)
			}
			if err := s.bb.AppendText(i, text); err != nil {
				return err
			}
		}
	}
	s.bb.EndRow()
	return nil
}

// fetch reads the next page. When the statement's context has ended, or
// the page cannot be had, the query is cancelled on Trino.
func (s *stream) fetch() error {
	page, err := s.e.get(s.ctx, s.nextURI, &s.read)
	if err == nil {
		err = s.take(page)
	}
	if err != nil {
		return s.fail(err)
	}
	return nil
}

// take reads a page's columns, rows, error and nextUri.
func (s *stream) take(page *queryResults) error {
	if page.ID != "" {
		s.queryID = page.ID
	}
	// The next page's address is taken first, so that a failure below
	// cancels the query where Trino now has it.
	s.nextURI = page.NextURI
	if s.nextURI != "" && !s.e.sameOrigin(s.nextURI) {
		s.nextURI = ""
		return protocolViolation(s.e.name, nil, "a nextUri on another server")
	}
	if page.Error != nil {
		// A failed query has ended on Trino: there is nothing to cancel.
		s.nextURI = ""
		return queryFailed(s.e.name, s.queryID, page.Error)
	}
	if page.Columns != nil && !s.described {
		if err := checkColumns(s.e.name, page.Columns, s.cols); err != nil {
			return err
		}
		s.described = true
	}
	if len(page.Data) > 0 {
		if !s.described {
			return protocolViolation(s.e.name, nil, "rows before their columns")
		}
		s.pending = page.Data
	}
	return nil
}

// fail ends the stream with err, cancelling the query on Trino if it is
// still running there, and returns the error the stream now answers:
// the cancellation's once the statement's context has ended (a request
// cut short by it fails in whatever way it was cut).
func (s *stream) fail(err error) error {
	if s.ctx.Err() != nil {
		err = cancelled(s.ctx)
	}
	s.err = err
	s.pending = nil
	if s.nextURI != "" {
		s.e.cancel(s.ctx, s.nextURI)
		s.nextURI = ""
	}
	return err
}

// Close ends the stream; a query Trino is still running is cancelled.
func (s *stream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.nextURI != "" {
		s.e.cancel(s.ctx, s.nextURI)
		s.nextURI = ""
	}
	s.pending = nil
	if s.bb != nil {
		s.bb.Release()
	}
	return nil
}

// BytesRead is how many bytes of answer Trino has sent so far.
func (s *stream) BytesRead() int64 { return s.read.Load() }
