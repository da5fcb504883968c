package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// StagedWrite is a change of a table written but not committed: Parquet
// data files in the table's data folder that no snapshot references yet,
// and, for a staged DELETE, UPDATE or MERGE, the data files the change
// removes (the table's committed files, or files an earlier staged write
// added). A transaction block stages its writes and commits them at
// COMMIT (CommitStagedTables) or removes them at ROLLBACK (Discard).
// Until then only a Table made WithStaged sees the change.
//
// Staging writes the files without the table's commit lock: no other writer
// can see them, so only the commit needs to be serialised.
type StagedWrite struct {
	host  tableHost
	ident Ident
	// tableUUID identifies the table the files were written for; a table
	// dropped and re-created under the same name is another table.
	tableUUID string
	// base is the table the change was computed against; its FileIO
	// removes the files on Discard, and the commit checks that the files
	// it removes are still the table's.
	base    *table.Table
	files   []iceberg.DataFile
	removed []iceberg.DataFile
	rows    int64 // rows added net of rows removed
	// branch is the branch the write commits to; "" for main.
	branch string
}

// Stage writes the reader's batches as data files of the table, checked
// and shaped as Append checks them, and commits nothing. A reader with no
// rows stages no files. On error the files written so far are removed.
func (t *Table) Stage(ctx context.Context, rdr array.RecordReader) (*StagedWrite, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
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
	w := &StagedWrite{host: t.host, ident: t.ident, tableUUID: base.Metadata().TableUUID().String(), base: base, files: files, branch: t.branch}
	for _, f := range files {
		w.rows += f.Count()
	}
	return w, nil
}

// Ident is the table the write is for.
func (w *StagedWrite) Ident() Ident { return w.ident }

// Rows is the number of rows the write adds, net of those it removes.
func (w *StagedWrite) Rows() int64 { return w.rows }

// Discard removes the files the write added (the files it removed stay:
// they belong to the table or to an earlier write). It is best effort (a file left behind
// is unreferenced garbage for maintenance to collect, never visible data)
// and safe to call more than once.
func (w *StagedWrite) Discard(ctx context.Context) {
	if w == nil {
		return
	}
	removeFiles(ctx, w.base, w.files)
	w.files = nil
	w.removed = nil
	w.rows = 0
}

// CommitStaged commits writes, all staged for this table, as one
// snapshot (CommitStagedTables) and returns the table as of it.
func (t *Table) CommitStaged(ctx context.Context, writes []*StagedWrite) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	for _, w := range writes {
		if w.ident != t.ident {
			return nil, fmt.Errorf("commit to %s: a write staged for %s", t.ident, w.ident)
		}
	}
	if err := CommitStagedTables(ctx, writes); err != nil {
		return nil, err
	}
	_, current, err := t.reload(ctx)
	return current, err
}

// WithStaged returns this version of the table with the changes of
// writes applied after its snapshot: its scans skip the committed files
// the writes removed and read the staged files after the snapshot's,
// which is how a transaction block reads its own writes. Writes for other
// tables are ignored. When another writer has meanwhile replaced files
// that a staged change removed, the block's view cannot be built on this
// snapshot, and WithStaged fails with SQLSTATE 40001, as PostgreSQL does
// for a transaction that would update a row updated concurrently.
func (t *Table) WithStaged(writes []*StagedWrite) (*Table, error) {
	net := netChangeOf(t.ident, t.branch, writes)
	if len(net.added) == 0 && len(net.removed) == 0 {
		return t, nil
	}
	for _, w := range net.removers {
		if !onlyAppendedSince(w.base, t.tbl) {
			return nil, commitConflict(t.ident, 1, errors.New("files this transaction changed were replaced by another writer"))
		}
	}
	out := *t
	out.staged = net.added
	out.hidden = make(map[string]bool, len(net.removed))
	for _, f := range net.removed {
		out.hidden[f.FilePath()] = true
	}
	out.stagedRows = net.rows
	return &out, nil
}

// visible drops the tasks of files that staged changes removed.
func (t *Table) visible(tasks []table.FileScanTask) []table.FileScanTask {
	if len(t.hidden) == 0 {
		return tasks
	}
	return slices.DeleteFunc(tasks, func(task table.FileScanTask) bool { return t.hidden[task.File.FilePath()] })
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

// netChange is what a table's staged writes amount to when applied in
// order: the staged files still present (added), the committed files
// removed, the staged files added and then removed again (garbage once
// the change commits), and the writes that removed committed files.
type netChange struct {
	added, removed, dropped []iceberg.DataFile
	removers                []*StagedWrite
	rows                    int64
}

func netChangeOf(id Ident, branch string, writes []*StagedWrite) netChange {
	var net netChange
	for _, w := range writes {
		if w.ident != id || w.branch != branch {
			continue
		}
		removesCommitted := false
		for _, f := range w.removed {
			i := slices.IndexFunc(net.added, func(a iceberg.DataFile) bool { return a.FilePath() == f.FilePath() })
			if i >= 0 {
				net.added = slices.Delete(net.added, i, i+1)
				net.dropped = append(net.dropped, f)
				continue
			}
			net.removed = append(net.removed, f)
			removesCommitted = true
		}
		if removesCommitted {
			net.removers = append(net.removers, w)
		}
		net.added = append(net.added, w.files...)
		net.rows += w.rows
	}
	return net
}

// Empty reports a write that neither adds nor removes a file.
func (w *StagedWrite) Empty() bool { return len(w.files) == 0 && len(w.removed) == 0 }
