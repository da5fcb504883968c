package storage

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Commit retry: a commit that loses to another writer is replayed on the
// reloaded table up to the catalog's retry count (DefaultCommitRetries
// unless configured), waiting a growing, jittered delay between attempts.
const (
	commitBackoffBase = 20 * time.Millisecond
	commitBackoffMax  = 1 * time.Second
)

// Appends of at most groupedAppendRows rows and groupedAppendBytes bytes
// are handed to their group's leader as checked batches rather than as
// files: the leader writes the group's small appends into shared files,
// so that a table written by many concurrent one-row INSERTs gains a file
// per commit rather than one per statement.
const (
	groupedAppendRows  = 10_000
	groupedAppendBytes = 4 << 20
)

// Append writes the reader's batches and commits them as an Iceberg
// snapshot, returning the table as of that snapshot. Every batch is
// checked first: its columns must match the table's by name and type
// (lossless widening such as int16 to int32 is done here), and a NULL in a
// NOT NULL column fails the append with an error wrapping ErrConstraint.
// The rows are written without the table's commit lock; appends that
// reach the commit while another is in flight are committed together, in
// one snapshot (group_commit.go), and the small ones among them written
// to shared files. Append returns once that snapshot is durable. On
// failure nothing of this append is committed. A reader with no rows
// commits nothing.
func (t *Table) Append(ctx context.Context, rdr array.RecordReader) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if rdr == nil {
		return nil, fmt.Errorf("append to %s: nil reader", t.ident)
	}
	if t.branch != "" {
		// Committed on its own (branch_writes.go).
		w, err := t.Stage(ctx, rdr)
		if err != nil {
			return nil, err
		}
		return t.CommitStaged(ctx, []*StagedWrite{w})
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	// Write against the newest metadata so the files match the current
	// schema and partition spec, not the ones the caller loaded.
	base, current, err := t.reload(ctx)
	if err != nil {
		return nil, err
	}
	change, err := t.appendChange(ctx, base, current.schema, rdr)
	if err != nil {
		return nil, err
	}
	if change == nil {
		return current, nil
	}
	lines, key := t.host.commitLines(ctx, t.ident)
	committed, err := t.commitQueued(ctx, lines, key, change, -1, nil)
	if err != nil {
		return nil, err
	}
	return newTable(t.host, t.ident, committed)
}

// appendChange reads rdr into the change an append queues: its checked
// batches when they are few and the table has no sort order (a shared
// file would mix the sorted runs of several statements), or else the
// data files it writes. nil: no rows.
func (t *Table) appendChange(ctx context.Context, base *table.Table, schema *arrow.Schema, rdr array.RecordReader) (*lineChange, error) {
	var held []arrow.RecordBatch
	release := func() {
		for _, b := range held {
			b.Release()
		}
	}
	if base.SortOrder().IsUnsorted() {
		var rows, bytes int64
		var shaper *batchShaper
		for rows <= groupedAppendRows && bytes <= groupedAppendBytes && rdr.Next() {
			rec := rdr.RecordBatch()
			if rec.NumRows() == 0 {
				continue
			}
			if shaper == nil || !rec.Schema().Equal(shaper.source) {
				s, err := newBatchShaper(schema, rec.Schema())
				if err != nil {
					release()
					return nil, fmt.Errorf("append to %s: %w", t.ident, err)
				}
				shaper = s
			}
			out, err := shaper.shape(ctx, rec)
			if err != nil {
				release()
				return nil, fmt.Errorf("append to %s: %w", t.ident, err)
			}
			held = append(held, out)
			rows += out.NumRows()
			bytes += batchBytes(out)
		}
		if err := rdr.Err(); err != nil {
			release()
			return nil, fmt.Errorf("append to %s: read input: %w", t.ident, err)
		}
		if rows <= groupedAppendRows && bytes <= groupedAppendBytes {
			if rows == 0 {
				return nil, nil
			}
			c := newLineChange(base, nil, nil, false)
			c.schema, c.batches = schema, held
			return c, nil
		}
		// Too many to hand over: write them, and the rest, as files.
		rdr = &concatReader{readers: []array.RecordReader{sliceReader(schema, held), rdr}}
		defer release()
	}
	files, err := writeDataFiles(ctx, base, schema, rdr)
	if err != nil {
		removeFiles(ctx, base, files)
		return nil, fmt.Errorf("append to %s: %w", t.ident, err)
	}
	if len(files) == 0 {
		return nil, nil
	}
	return newLineChange(base, files, nil, false), nil
}

// batchBytes is the size of b's buffers.
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, col := range b.Columns() {
		n += int64(col.Data().SizeInBytes())
	}
	return n
}

// writeDataFiles writes the reader's batches, shaped to schema, as Parquet
// data files of tbl. It returns the files written so far even on error, so
// that the caller can remove them.
func writeDataFiles(ctx context.Context, tbl *table.Table, schema *arrow.Schema, rdr array.RecordReader) ([]iceberg.DataFile, error) {
	var fed int64 // rows handed to the writer
	batches := func(yield func(arrow.RecordBatch, error) bool) {
		var shaper *batchShaper
		for rdr.Next() {
			rec := rdr.RecordBatch()
			if shaper == nil || !rec.Schema().Equal(shaper.source) {
				s, err := newBatchShaper(schema, rec.Schema())
				if err != nil {
					yield(nil, err)
					return
				}
				shaper = s
			}
			if rec.NumRows() == 0 {
				continue
			}
			out, err := shaper.shape(ctx, rec)
			if err != nil {
				yield(nil, err)
				return
			}
			fed += out.NumRows()
			if !yield(out, nil) {
				return
			}
		}
		if err := rdr.Err(); err != nil {
			yield(nil, fmt.Errorf("read input: %w", err))
		}
	}

	var written iter.Seq2[iceberg.DataFile, error]
	if writesOwnParquet(tbl, schema) {
		written = writeParquetFiles(ctx, tbl, schema, batches)
	} else {
		// iceberg-go starts writing when called, not when iterated.
		written = table.WriteRecords(ctx, tbl, schema, batches)
	}
	var files []iceberg.DataFile
	for df, err := range written {
		if err != nil {
			return files, dataWriteError(tbl, err)
		}
		files = append(files, df)
	}
	if err := ctx.Err(); err != nil {
		return files, err
	}
	return files, checkWrittenRows(tbl, files, fed)
}

// isCommitConflict reports whether err says that the table moved on under
// the commit and nothing was written, so a replay is safe.
func isCommitConflict(err error) bool {
	if errors.Is(err, table.ErrCommitFailed) || errors.Is(err, errMovedUnderRewrite) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "requirement failed") &&
		(strings.Contains(msg, "has changed") || strings.Contains(msg, "was created concurrently"))
}

func commitBackoff(attempt int) time.Duration {
	d := commitBackoffBase << (attempt - 1)
	if d > commitBackoffMax {
		d = commitBackoffMax
	}
	return d/2 + rand.N(d/2+1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// removeFiles deletes data files that will never be committed. It is best
// effort: a leftover file is unreferenced garbage, not wrong data.
func removeFiles(ctx context.Context, tbl *table.Table, files []iceberg.DataFile) {
	if tbl == nil || len(files) == 0 {
		return
	}
	fs, err := tbl.FS(context.WithoutCancel(ctx))
	if err != nil {
		return
	}
	for _, f := range files {
		_ = fs.Remove(f.FilePath())
	}
}
