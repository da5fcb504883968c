package pgwire

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
)

// Wire format codes of a column's values.
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// rowEncoder turns Arrow batches of one result into DataRow messages, each
// column in text or binary format. Its encoders are chosen at the first
// batch (when the Arrow types are known) and kept while later batches have
// the same types. All per-row state is reused: one DataRow whose Values
// point into one scratch buffer, encoded straight into the caller's write
// buffer.
type rowEncoder struct {
	zone    *time.Location // timestamptz text is printed in it; nil: UTC
	cols    []sql.Column
	formats []int16 // per column; nil = all text
	encs    []valueEncoder
	dtypes  []arrow.DataType // the Arrow types encs were chosen for
	row     pgproto3.DataRow
	scratch []byte
	ends    []int // end offset of each value in scratch; -1 = NULL
}

// valueEncoder is a column's text or binary encoder behind one method
// name, so the row loop does not care which format a column uses.
type valueEncoder interface {
	bind(arr arrow.Array) error
	isNull(i int) bool
	appendValue(dst []byte, i int) []byte
}

type textValue struct{ textEncoder }

func (v textValue) appendValue(dst []byte, i int) []byte { return v.appendText(dst, i) }

type binaryValue struct{ binaryEncoder }

func (v binaryValue) appendValue(dst []byte, i int) []byte { return v.appendBinary(dst, i) }

// newRowEncoder encodes cols in the given formats: one per column, or nil
// for text throughout.
func newRowEncoder(cols []sql.Column, formats []int16) *rowEncoder {
	return &rowEncoder{
		cols:    cols,
		formats: formats,
		encs:    make([]valueEncoder, len(cols)),
		dtypes:  make([]arrow.DataType, len(cols)),
		row:     pgproto3.DataRow{Values: make([][]byte, len(cols))},
		scratch: make([]byte, 0, 256),
		ends:    make([]int, len(cols)),
	}
}

// bind prepares the encoders for rec.
func (e *rowEncoder) bind(rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != len(e.cols) {
		return fmt.Errorf("batch has %d columns, result describes %d", rec.NumCols(), len(e.cols))
	}
	for c := range e.cols {
		arr := rec.Column(c)
		if e.encs[c] == nil || !arrow.TypeEqual(e.dtypes[c], arr.DataType()) {
			enc, err := e.newEncoder(c, arr.DataType())
			if err != nil {
				return err
			}
			e.encs[c], e.dtypes[c] = enc, arr.DataType()
		}
		if err := e.encs[c].bind(arr); err != nil {
			return fmt.Errorf("column %q: %w", e.cols[c].Name, err)
		}
	}
	return nil
}

func (e *rowEncoder) zoneOrUTC() *time.Location { return zoneOrUTC(e.zone) }

func (e *rowEncoder) newEncoder(c int, dt arrow.DataType) (valueEncoder, error) {
	if e.formats != nil && e.formats[c] == formatBinary {
		enc, err := newBinaryEncoder(e.cols[c], dt)
		if err != nil {
			return nil, err
		}
		return binaryValue{enc}, nil
	}
	enc, err := newTextEncoderIn(e.cols[c], dt, e.zoneOrUTC())
	if err != nil {
		return nil, err
	}
	return textValue{enc}, nil
}

// appendRow appends row i of the bound batch to dst as a DataRow message.
func (e *rowEncoder) appendRow(dst []byte, i int) ([]byte, error) {
	// Values are sliced out of scratch only after every value is appended,
	// because scratch may move while it grows.
	e.scratch = e.scratch[:0]
	for c, enc := range e.encs {
		if enc.isNull(i) {
			e.ends[c] = -1
			continue
		}
		e.scratch = enc.appendValue(e.scratch, i)
		e.ends[c] = len(e.scratch)
	}
	start := 0
	for c, end := range e.ends {
		if end < 0 {
			e.row.Values[c] = nil
			continue
		}
		// A full slice expression keeps an empty string non-nil, so it is
		// sent as '' rather than NULL.
		e.row.Values[c] = e.scratch[start:end:end]
		start = end
	}
	return e.row.Encode(dst)
}

// writeBatch binds rec and appends all its rows to mw, flushing whenever
// the buffer passes the threshold, so a large batch never sits in memory
// twice.
func writeBatch(ctx context.Context, mw *messageWriter, enc *rowEncoder, rec arrow.RecordBatch) error {
	if err := enc.bind(rec); err != nil {
		return err
	}
	return writeRows(ctx, mw, enc, 0, int(rec.NumRows()))
}

// writeRows appends rows [from, to) of the batch enc is bound to. It
// stops with ctx's error when the statement is cancelled, looking at
// every flush: a batch may hold many thousands of rows, and a client
// reading slowly must not wait for all of them before its cancel
// request is answered.
func writeRows(ctx context.Context, mw *messageWriter, enc *rowEncoder, from, to int) error {
	for i := from; i < to; i++ {
		if mw.err != nil {
			return mw.err
		}
		buf, err := enc.appendRow(mw.buf, i)
		if err != nil {
			return fmt.Errorf("encode row %d: %w", i, err)
		}
		mw.buf = buf
		if len(mw.buf) < flushThreshold {
			continue
		}
		if err := mw.flush(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}
