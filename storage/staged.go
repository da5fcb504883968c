package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// StagedWrite is data written for a table but not committed: Parquet data
// files in the table's data folder that no snapshot references yet. A
// transaction block stages its writes and commits them at COMMIT
// (CommitStaged) or removes them at ROLLBACK (Discard). Until then only a
// Table made WithStaged sees the rows.
//
// Staging writes the files without the table's commit lock: no other writer
// can see them, so only the commit needs to be serialised.
type StagedWrite struct {
	host  tableHost
	ident Ident
	// tableUUID identifies the table the files were written for; a table
	// dropped and re-created under the same name is another table.
	tableUUID string
	// base is the table the files were written against; its FileIO
	// removes them on Discard.
	base  *table.Table
	files []iceberg.DataFile
	rows  int64
}

// Stage writes the reader's batches as data files of the table, checked
// and shaped as Append checks them, and commits nothing. A reader with no
// rows stages no files. On error the files written so far are removed.
func (t *Table) Stage(ctx context.Context, rdr array.RecordReader) (*StagedWrite, error) {
	if rdr == nil {
		return nil, fmt.Errorf("stage write to %s: nil reader", t.ident)
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	// Newest metadata, so the files match the current schema and spec.
	base, current, err := t.reload(ctx)
	if err != nil {
		return nil, err
	}
	files, err := writeDataFiles(ctx, base, current.schema, rdr)
	if err != nil {
		removeFiles(ctx, base, files)
		return nil, fmt.Errorf("write to %s: %w", t.ident, err)
	}
	w := &StagedWrite{host: t.host, ident: t.ident, tableUUID: base.Metadata().TableUUID().String(), base: base, files: files}
	for _, f := range files {
		w.rows += f.Count()
	}
	return w, nil
}

// Ident is the table the write is for.
func (w *StagedWrite) Ident() Ident { return w.ident }

// Rows is the number of rows staged.
func (w *StagedWrite) Rows() int64 { return w.rows }

// Discard removes the staged files. It is best effort (a file left behind
// is unreferenced garbage for maintenance to collect, never visible data)
// and safe to call more than once.
func (w *StagedWrite) Discard(ctx context.Context) {
	if w == nil {
		return
	}
	removeFiles(ctx, w.base, w.files)
	w.files = nil
	w.rows = 0
}

// CommitStaged commits the files of writes, all staged for this table, as
// one snapshot, and returns the table as of it. A commit that loses a race
// with another writer is replayed on the reloaded table (appending the
// same files is correct whatever the other writer committed) up to the
// catalog's retry count, then fails with SQLSTATE 40001. On failure the
// caller still owns the writes and should Discard them; after success
// they belong to the table.
func (t *Table) CommitStaged(ctx context.Context, writes []*StagedWrite) (*Table, error) {
	var files []iceberg.DataFile
	for _, w := range writes {
		if w.ident != t.ident {
			return nil, fmt.Errorf("commit to %s: a write staged for %s", t.ident, w.ident)
		}
		files = append(files, w.files...)
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	unlock, err := t.host.lockTable(ctx, t.ident)
	if err != nil {
		return nil, fmt.Errorf("commit to %s: wait for commit lock: %w", t.ident, err)
	}
	defer unlock()
	base, err := t.host.reloadTable(ctx, t.ident)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return newTable(t.host, t.ident, base)
	}
	for _, w := range writes {
		if w.tableUUID != base.Metadata().TableUUID().String() {
			return nil, errors.Join(ErrNoSuchTable,
				fmt.Errorf("commit to %s: the table was dropped and re-created since the write", t.ident))
		}
	}
	committed, err := t.commitFiles(ctx, base, files)
	if err != nil {
		return nil, err
	}
	for _, w := range writes {
		w.files = nil // the table owns them now
	}
	return newTable(t.host, t.ident, committed)
}

// WithStaged returns this version of the table with the rows of writes
// added at its end: its scans read the committed snapshot and then the
// staged files, which is how a transaction block reads its own writes.
// Writes for other tables are ignored.
func (t *Table) WithStaged(writes []*StagedWrite) *Table {
	var files []iceberg.DataFile
	var rows int64
	for _, w := range writes {
		if w.ident == t.ident {
			files = append(files, w.files...)
			rows += w.rows
		}
	}
	if len(files) == 0 {
		return t
	}
	out := *t
	out.staged = append(append([]iceberg.DataFile(nil), t.staged...), files...)
	out.stagedRows = t.stagedRows + rows
	return &out
}

// stagedTasks are scan tasks for the staged files, after every committed
// file. Without a residual, iceberg-go applies the scan's whole row filter
// to them; they carry no delete files because staged data has none.
func (t *Table) stagedTasks() []table.FileScanTask {
	tasks := make([]table.FileScanTask, len(t.staged))
	for i, f := range t.staged {
		tasks[i] = table.FileScanTask{File: f, Start: 0, Length: f.FileSizeBytes()}
	}
	return tasks
}
