package demo

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/storage"
)

// AppendGenerated writes rows generated rows to t, one commit per
// rowsPerCommit rows, each commit's batches of rowsPerBatch rows made by
// batch (the first row's 1-based number and the row count) only when the
// writer asks for them, so memory holds one batch at a time. It returns
// the table after the last commit.
func AppendGenerated(ctx context.Context, t *storage.Table, schema *arrow.Schema, rows, rowsPerCommit, rowsPerBatch int,
	batch func(first int64, n int) arrow.RecordBatch) (*storage.Table, error) {
	for start := 0; start < rows; start += rowsPerCommit {
		end := min(start+rowsPerCommit, rows)
		rdr := array.ReaderFromIter(schema, func(yield func(arrow.RecordBatch, error) bool) {
			for lo := start; lo < end; lo += rowsPerBatch {
				if !yield(batch(int64(lo)+1, min(rowsPerBatch, end-lo)), nil) {
					return
				}
			}
		})
		next, err := t.Append(ctx, rdr)
		rdr.Release()
		if err != nil {
			return nil, err
		}
		t = next
	}
	return t, nil
}
