package sql

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// writeReader feeds batches a statement produces to storage.Table.Append
// as an array.RecordReader. Each batch is put under the table's column
// names and checked for NULLs in NOT NULL columns, so the client gets
// PostgreSQL's message naming the relation. Append pulls the batches as
// it writes them, so nothing is held beyond the batch in flight unless
// keep asks for the written batches (RETURNING).
type writeReader struct {
	refs    atomic.Int64
	table   *arrow.Schema
	relname string
	next    func() (arrow.RecordBatch, error)

	cur  arrow.RecordBatch
	err  error
	rows int64
	keep bool
	kept []arrow.RecordBatch
}

func newWriteReader(table *arrow.Schema, relname string, next func() (arrow.RecordBatch, error)) *writeReader {
	r := &writeReader{table: table, relname: relname, next: next}
	r.refs.Store(1)
	return r
}

func (r *writeReader) Retain() { r.refs.Add(1) }

func (r *writeReader) Release() {
	if r.refs.Add(-1) == 0 && r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
}

func (r *writeReader) Schema() *arrow.Schema { return r.table }

func (r *writeReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil {
		return false
	}
	for {
		rec, err := r.next()
		if err != nil {
			r.err = err
			return false
		}
		if rec == nil {
			return false
		}
		if rec.NumRows() == 0 {
			rec.Release()
			continue
		}
		out, err := r.shape(rec)
		rec.Release()
		if err != nil {
			r.err = err
			return false
		}
		r.rows += out.NumRows()
		if r.keep {
			out.Retain()
			r.kept = append(r.kept, out)
		}
		r.cur = out
		return true
	}
}

// shape renames rec's columns to the table's and checks NOT NULL.
func (r *writeReader) shape(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if int(rec.NumCols()) != r.table.NumFields() {
		return nil, pgerror.New(pgerror.InternalError, "write of %d columns into %d-column table %s", rec.NumCols(), r.table.NumFields(), r.relname)
	}
	fields := make([]arrow.Field, r.table.NumFields())
	for i, f := range r.table.Fields() {
		col := rec.Column(i)
		if !f.Nullable && col.NullN() > 0 {
			return nil, pgerror.New(pgerror.NotNullViolation, "null value in column \"%s\" of relation \"%s\" violates not-null constraint", f.Name, r.relname)
		}
		fields[i] = arrow.Field{Name: f.Name, Type: col.DataType(), Nullable: f.Nullable}
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), rec.Columns(), rec.NumRows()), nil
}

func (r *writeReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its deprecated name.
func (r *writeReader) Record() arrow.RecordBatch { return r.cur }

func (r *writeReader) Err() error { return r.err }

// releaseKept drops the batches kept for RETURNING.
func (r *writeReader) releaseKept() {
	for _, b := range r.kept {
		b.Release()
	}
	r.kept = nil
}
