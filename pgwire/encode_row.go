package pgwire

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql"
)

// rowEncoder turns Arrow batches of one result into DataRow messages in
// text format. Its encoders are chosen at the first batch (when the Arrow
// types are known) and kept while later batches have the same types. All
// per-row state is reused: one DataRow whose Values point into one scratch
// buffer, encoded straight into the caller's write buffer.
type rowEncoder struct {
	cols    []sql.Column
	encs    []textEncoder
	dtypes  []arrow.DataType // the Arrow types encs were chosen for
	row     pgproto3.DataRow
	scratch []byte
	ends    []int // end offset of each value in scratch; -1 = NULL
}

func newRowEncoder(cols []sql.Column) *rowEncoder {
	return &rowEncoder{
		cols:    cols,
		encs:    make([]textEncoder, len(cols)),
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
			enc, err := newTextEncoder(e.cols[c], arr.DataType())
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
		e.scratch = enc.appendText(e.scratch, i)
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
func writeBatch(mw *messageWriter, enc *rowEncoder, rec arrow.RecordBatch) error {
	if err := enc.bind(rec); err != nil {
		return err
	}
	n := int(rec.NumRows())
	for i := 0; i < n; i++ {
		if mw.err != nil {
			return mw.err
		}
		buf, err := enc.appendRow(mw.buf, i)
		if err != nil {
			return fmt.Errorf("encode row %d: %w", i, err)
		}
		mw.buf = buf
		if err := mw.maybeFlush(); err != nil {
			return err
		}
	}
	return nil
}
