package pgwire

import (
	"context"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// portal is a bound statement (Bind) ready to run or to resume (Execute).
// It holds the batch it is part-way through between Executes, so a client
// fetching N rows at a time never makes SQE re-read or buffer more than
// one batch.
type portal struct {
	name    string
	stmt    *sql.PreparedStatement
	res     sql.Result
	cols    []sql.Column // nil when the statement returns no rows
	formats []int16      // one per column, nil when cols is nil
	enc     *rowEncoder  // nil when cols is nil

	batch arrow.RecordBatch // the batch being sent; nil between batches
	next  int               // the first row of batch not sent yet
	done  bool              // res has returned its last batch
	// admitted is set once the query limiter has counted the portal, so
	// resuming it is not another query.
	admitted bool
}

// newPortal wraps a bound result. resultFormats has 0 entries (all text),
// 1 (all columns alike) or one per column, as in the Bind message.
func newPortal(name string, ps *sql.PreparedStatement, res sql.Result, resultFormats []int16) (*portal, error) {
	p := &portal{name: name, stmt: ps, res: res, cols: res.Columns()}
	if p.cols == nil {
		// PostgreSQL ignores result formats for a statement without rows.
		return p, nil
	}
	formats, err := expandFormats(resultFormats, len(p.cols))
	if err != nil {
		return nil, err
	}
	p.formats = formats
	p.enc = newRowEncoder(p.cols, formats)
	return p, nil
}

// expandFormats turns a Bind message's result format codes into one per
// column.
func expandFormats(codes []int16, ncols int) ([]int16, error) {
	formats := make([]int16, ncols)
	switch len(codes) {
	case 0:
	case 1:
		for i := range formats {
			formats[i] = codes[0]
		}
	default:
		if len(codes) != ncols {
			return nil, pgerror.New(pgerror.ProtocolViolation, "bind message has %d result formats but query has %d columns", len(codes), ncols)
		}
		copy(formats, codes)
	}
	return formats, nil
}

// checkFormats refuses format codes other than text and binary. As in
// PostgreSQL this happens when the first row is about to be sent, not at
// Bind or Describe.
func (p *portal) checkFormats() error {
	for _, f := range p.formats {
		if f != formatText && f != formatBinary {
			return pgerror.New(pgerror.InvalidParameterValue, "unsupported format code: %d", f)
		}
	}
	return nil
}

// run sends rows from where the portal stopped: all of them when maxRows
// is 0, else at most maxRows. It reports how many rows it sent and whether
// it stopped because of maxRows (the portal is suspended, even when no row
// is left: like PostgreSQL it finds out only on the next Execute).
func (p *portal) run(ctx context.Context, mw *messageWriter, maxRows uint32) (sent int64, suspended bool, err error) {
	limit := int64(maxRows)
	for {
		if p.batch != nil {
			n := int(p.batch.NumRows())
			to := n
			if limit > 0 && int64(to-p.next) > limit-sent {
				to = p.next + int(limit-sent)
			}
			if err := writeRows(ctx, mw, p.enc, p.next, to); err != nil {
				return sent, false, err
			}
			sent += int64(to - p.next)
			p.next = to
			if p.next < n {
				return sent, true, nil
			}
			p.batch.Release()
			p.batch = nil
		}
		if limit > 0 && sent >= limit {
			return sent, true, nil
		}
		if p.done {
			return sent, false, nil
		}
		rec, err := p.res.Next(ctx)
		if err != nil {
			return sent, false, err
		}
		if rec == nil {
			p.done = true
			return sent, false, nil
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		if p.enc == nil {
			rec.Release()
			return sent, false, pgerror.New(pgerror.InternalError, "statement without columns returned rows")
		}
		if err := p.checkFormats(); err != nil {
			rec.Release()
			return sent, false, err
		}
		if err := p.enc.bind(rec); err != nil {
			rec.Release()
			return sent, false, err
		}
		p.batch, p.next = rec, 0
	}
}

// commandTag is the CommandComplete tag of the Execute that finished the
// portal after sending sent rows. PostgreSQL counts only that Execute's
// rows in a row-returning statement's tag ("SELECT 2" for the last two
// rows of a portal fetched two at a time), so the count the result gives
// for the whole statement is replaced.
func (p *portal) commandTag(sent int64) []byte {
	tag := p.res.CommandTag()
	if p.cols == nil {
		return []byte(tag)
	}
	sp := strings.LastIndexByte(tag, ' ')
	if sp < 0 {
		return []byte(tag)
	}
	if _, err := strconv.ParseInt(tag[sp+1:], 10, 64); err != nil {
		return []byte(tag)
	}
	return strconv.AppendInt([]byte(tag[:sp+1]), sent, 10)
}

// close releases the portal's batch and result.
func (p *portal) close() {
	if p.batch != nil {
		p.batch.Release()
		p.batch = nil
	}
	p.res.Close()
}
