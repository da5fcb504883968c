package storage

import (
	"context"
	"fmt"
	"iter"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go/table"
)

// taskReader streams the rows of some data files of a table, one file
// after the other in the given order, under the table's current schema
// (columns resolved by field id, so renamed columns read under their new
// name and added ones as NULL). It lets a compaction write its output
// while it reads, holding one batch at a time.
type taskReader struct {
	schema    *arrow.Schema
	scan      *table.Scan
	positions []int
	next      func() (arrow.RecordBatch, error, bool)
	stop      func()
	cur       arrow.RecordBatch
	err       error
	rows      int64 // rows read so far
	refs      int64
}

// newTaskReader opens a reader over tasks of base, shaped to schema (the
// Arrow form of base's current schema). The caller releases it.
func newTaskReader(ctx context.Context, base *table.Table, schema *arrow.Schema, tasks []table.FileScanTask) (*taskReader, error) {
	whole := make([]table.FileScanTask, len(tasks))
	for i, task := range tasks {
		// Read whole files with no residual filter: every row must move.
		task.Residual = nil
		task.Start, task.Length = 0, task.File.FileSizeBytes()
		whole[i] = task
	}
	scan := base.Scan(table.WithArrowBatchSize(defaultBatchSize), table.WithMaxConcurrency(1))
	got, records, err := scan.ReadTasks(ctx, whole)
	if err != nil {
		_ = scan.Close()
		return nil, fmt.Errorf("read data files: %w", err)
	}
	positions, err := columnPositions(schema, got)
	if err != nil {
		_ = scan.Close()
		return nil, err
	}
	next, stop := iter.Pull2(records)
	return &taskReader{schema: schema, scan: scan, positions: positions, next: next, stop: stop, refs: 1}, nil
}

func (r *taskReader) Schema() *arrow.Schema { return r.schema }

func (r *taskReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil || r.next == nil {
		return false
	}
	rec, err, ok := r.next()
	if !ok {
		return false
	}
	if err != nil {
		r.err = fmt.Errorf("read data files: %w", err)
		return false
	}
	cols := make([]arrow.Array, len(r.positions))
	for i, p := range r.positions {
		cols[i] = rec.Column(p)
	}
	r.cur = array.NewRecordBatch(r.schema, cols, rec.NumRows())
	rec.Release()
	r.rows += r.cur.NumRows()
	return true
}

func (r *taskReader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record is RecordBatch under its older name, which array.RecordReader
// still requires.
func (r *taskReader) Record() arrow.RecordBatch { return r.cur }

func (r *taskReader) Err() error { return r.err }

func (r *taskReader) Retain() { r.refs++ }

func (r *taskReader) Release() {
	r.refs--
	if r.refs > 0 {
		return
	}
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.stop != nil {
		r.stop()
		r.stop, r.next = nil, nil
	}
	if r.scan != nil {
		_ = r.scan.Close()
		r.scan = nil
	}
}
