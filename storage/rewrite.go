package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Rewrite is a copy-on-write change of a table in progress: DELETE,
// UPDATE and MERGE read the data files that may hold rows they change,
// decide row by row, and commit "remove these files, add those" as one
// snapshot. Outside a transaction block the change goes through the
// table's commit line (group_commit.go): rewrites take turns from
// BeginRewrite until their change is queued, each reading the table as
// the changes queued ahead of it leave it, and are committed in groups.
//
// The table must not carry delete files: iceberg-go's copy-on-write
// rewrites ignore them (iceberg-go issue 2042), and a rewritten file
// would bring deleted rows back. SQE never writes delete files; a table
// another engine gave some is refused.
type Rewrite struct {
	t     *Table
	base  *table.Table
	scan  *table.Scan
	tasks []table.FileScanTask
	// line is the commit line of a rewrite that commits (nil when it
	// stages), and view what it read; release ends its turn.
	line    *commitLine
	lines   *commitLines
	key     string
	view    pendingView
	release func()
}

// BeginRewrite authorizes the change (gate one: UPDATE_TABLE), waits for
// its turn on the table's commit line, and plans the data files that
// prune may match (nil: every file) in the table as the changes queued
// ahead of it leave it. prune only selects files; the files are read
// whole.
func (t *Table) BeginRewrite(ctx context.Context, prune iceberg.BooleanExpression) (*Rewrite, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if t.branch != "" {
		// Committed on its own by Commit (branch_writes.go).
		return t.BeginStagedRewrite(ctx, prune)
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	lines, key := t.host.commitLines(ctx, t.ident)
	lines.mu.Lock()
	line := lines.line(key, t.ident, t.host.commitAttempts())
	line.users++
	lines.mu.Unlock()
	leave := func() {
		lines.mu.Lock()
		line.users--
		lines.dropIdle(key, line)
		lines.mu.Unlock()
	}
	select {
	case line.rewriteSlot <- struct{}{}:
	case <-ctx.Done():
		leave()
		return nil, fmt.Errorf("rewrite %s: wait for its turn: %w", t.ident, ctx.Err())
	}
	r := &Rewrite{t: t, line: line, lines: lines, key: key, release: func() {
		<-line.rewriteSlot
		leave()
	}}
	view, err := t.viewFor(ctx, lines, line)
	if err != nil {
		r.Close()
		return nil, err
	}
	r.view = view
	current, err := newTable(t.host, t.ident, view.fresh)
	if err == nil {
		net := netChangeOf(t.ident, "", view.pending)
		current.staged, current.stagedRows = net.added, net.rows
		current.hidden = make(map[string]bool, len(net.removed))
		for _, f := range net.removed {
			current.hidden[f.FilePath()] = true
		}
		err = r.plan(ctx, view.fresh, current, prune)
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// BeginStagedRewrite is BeginRewrite for a change a transaction block
// stages rather than commits (Stage): it reads this version of the table
// as it stands, with the staged changes of WithStaged (the files staged
// writes removed skipped, the staged files read whole), and takes no
// commit lock, since it commits nothing.
func (t *Table) BeginStagedRewrite(ctx context.Context, prune iceberg.BooleanExpression) (*Rewrite, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	r := &Rewrite{t: t}
	if err := r.plan(ctx, t.tbl, t, prune); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// plan lists the files the rewrite reads: base's files that prune may
// match, minus those current's staged changes removed, then current's
// staged files.
func (r *Rewrite) plan(ctx context.Context, base *table.Table, current *Table, prune iceberg.BooleanExpression) error {
	r.base, r.t = base, current
	if snap := base.CurrentSnapshot(); snap != nil {
		if err := refuseDeleteFiles(r.t.ident, snap); err != nil {
			return err
		}
		tasks, err := current.planInCommitOrder(ctx, prune, 0)
		if err != nil {
			return fmt.Errorf("rewrite %s: plan files: %w", r.t.ident, err)
		}
		r.tasks = current.visible(tasks)
	}
	r.tasks = append(r.tasks, current.stagedTasks()...)
	for i := range r.tasks {
		task := &r.tasks[i]
		if len(task.DeleteFiles) > 0 || len(task.EqualityDeleteFiles) > 0 || len(task.DeletionVectorFiles) > 0 {
			return deleteFilesPresent(r.t.ident)
		}
		// Read the whole file: the residual filter would drop the rows
		// the rewrite must keep.
		task.Residual = nil
		task.Start, task.Length = 0, task.File.FileSizeBytes()
	}
	// One file at a time: a rewrite holds what it reads in memory anyway.
	r.scan = base.Scan(table.WithArrowBatchSize(defaultBatchSize), table.WithMaxConcurrency(1))
	return nil
}

// refuseDeleteFiles fails on a snapshot that says it has delete files.
func refuseDeleteFiles(id Ident, snap *table.Snapshot) error {
	if snap.Summary == nil {
		return nil
	}
	for _, key := range []string{"total-delete-files", "total-position-deletes", "total-equality-deletes"} {
		if n, err := strconv.ParseInt(snap.Summary.Properties[key], 10, 64); err == nil && n > 0 {
			return deleteFilesPresent(id)
		}
	}
	return nil
}

func deleteFilesPresent(id Ident) error {
	return pgerror.New(pgerror.FeatureNotSupported,
		"cannot rewrite table \"%s\": it has delete files (merge-on-read), which copy-on-write changes would not honour", id.Table).
		WithHint("Compact the table with the engine that wrote the delete files first.")
}

// Table is the table as of the rewrite's base snapshot.
func (r *Rewrite) Table() *Table { return r.t }

// Files is the number of data files the rewrite may change.
func (r *Rewrite) Files() int { return len(r.tasks) }

// ReadFile returns every row of data file i, in file order, under the
// table's schema. The caller releases the batches.
func (r *Rewrite) ReadFile(ctx context.Context, i int) ([]arrow.RecordBatch, error) {
	if i < 0 || i >= len(r.tasks) {
		return nil, fmt.Errorf("rewrite %s: no file %d of %d", r.t.ident, i, len(r.tasks))
	}
	readCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	gotSchema, records, err := r.scan.ReadTasks(readCtx, r.tasks[i:i+1])
	if err != nil {
		return nil, objectStoreFailure(fmt.Errorf("rewrite %s: read %s: %w", r.t.ident, r.tasks[i].File.FilePath(), err),
			"read a data file of", r.t.ident.Namespace+"."+r.t.ident.Table)
	}
	positions, err := columnPositions(r.t.schema, gotSchema)
	if err != nil {
		return nil, fmt.Errorf("rewrite %s: %w", r.t.ident, err)
	}
	var out []arrow.RecordBatch
	for rec, err := range records {
		if err != nil {
			releaseAll(out)
			return nil, objectStoreFailure(fmt.Errorf("rewrite %s: read %s: %w", r.t.ident, r.tasks[i].File.FilePath(), err),
				"read a data file of", r.t.ident.Namespace+"."+r.t.ident.Table)
		}
		cols := make([]arrow.Array, len(positions))
		for j, p := range positions {
			cols[j] = rec.Column(p)
		}
		out = append(out, array.NewRecordBatch(r.t.schema, cols, rec.NumRows()))
		rec.Release()
	}
	return out, nil
}

// FileRewrite replaces data file File (an index below Files) by the rows
// of Keep, which may be empty: then the file is just removed.
type FileRewrite struct {
	File int
	Keep []arrow.RecordBatch
}

// Commit writes the kept rows of each rewritten file and the added rows
// as new data files and queues, on the table's commit line, the removal
// of the rewritten files and the addition of the new ones; it returns
// once the group holding them is committed and durable. Files not named
// are untouched. On any failure nothing of the change is committed and
// the files written are removed.
//
// Another process may commit to the table between the read and the
// commit. When all it did was append, the rewrite still holds (the rows
// it read are unchanged; rows appended since were not part of the
// statement's snapshot, as in PostgreSQL) and is committed on the newer
// metadata. When it replaced or deleted files, the statement read data
// that may have changed: Commit fails with a *RerunConflict (SQLSTATE
// 40001), and the caller may run the statement again; so it does when a
// change it read failed. Commit ends the rewrite; Close after it is a
// no-op.
func (r *Rewrite) Commit(ctx context.Context, rewrites []FileRewrite, added array.RecordReader) (*Table, error) {
	if r.t != nil && r.t.branch != "" && r.base != nil {
		w, err := r.Stage(ctx, rewrites, added)
		if err != nil {
			return nil, err
		}
		return r.t.CommitStaged(ctx, []*StagedWrite{w})
	}
	defer r.Close()
	if r.base == nil || r.line == nil {
		return nil, errors.New("rewrite: commit after close")
	}
	written, removed, err := r.writeChanges(ctx, rewrites, added)
	if err != nil {
		return nil, err
	}
	if len(removed) == 0 && len(written) == 0 {
		return r.t, nil
	}
	c := newLineChange(r.view.fresh, written, removed, true)
	committed, err := r.t.commitQueued(ctx, r.lines, r.key, c, r.view.failures, r.Close)
	if err != nil {
		return nil, err
	}
	return newTable(r.t.host, r.t.ident, committed)
}

// Stage writes the change as Commit does but commits nothing: it returns
// the change as a StagedWrite for a transaction block to commit at COMMIT
// (CommitStagedTables) or discard. Stage ends the rewrite.
func (r *Rewrite) Stage(ctx context.Context, rewrites []FileRewrite, added array.RecordReader) (*StagedWrite, error) {
	defer r.Close()
	if r.base == nil {
		return nil, errors.New("rewrite: stage after close")
	}
	written, removed, err := r.writeChanges(ctx, rewrites, added)
	if err != nil {
		return nil, err
	}
	w := &StagedWrite{host: r.t.host, ident: r.t.ident, tableUUID: r.base.Metadata().TableUUID().String(),
		base: r.base, files: written, removed: removed, branch: r.t.branch}
	for _, f := range written {
		w.rows += f.Count()
	}
	for _, f := range removed {
		w.rows -= f.Count()
	}
	return w, nil
}

// writeChanges writes the kept rows of each rewritten file and the added
// rows as data files, and lists the files the change removes. On error
// the files written are removed.
//
// When the change rewrites one file, its kept rows and the added rows go
// into the same new file: a one-row UPDATE then replaces one file by one,
// where writing them apart would leave the table a file (and a manifest)
// more after every such statement. With several rewritten files each
// keeps its own, so that the files' layout (and their column bounds,
// which prune reads) stays as it was.
func (r *Rewrite) writeChanges(ctx context.Context, rewrites []FileRewrite, added array.RecordReader) (written, removed []iceberg.DataFile, err error) {
	defer func() {
		if err != nil {
			removeFiles(ctx, r.base, written)
			written = nil
		}
	}()
	for _, fr := range rewrites {
		if fr.File < 0 || fr.File >= len(r.tasks) {
			return written, nil, fmt.Errorf("rewrite %s: no file %d of %d", r.t.ident, fr.File, len(r.tasks))
		}
		removed = append(removed, r.tasks[fr.File].File)
		if len(fr.Keep) == 0 {
			continue
		}
		var rdr array.RecordReader = sliceReader(r.t.schema, fr.Keep)
		if len(rewrites) == 1 && added != nil {
			rdr = &concatReader{readers: []array.RecordReader{rdr, added}}
			added = nil
		}
		files, err := writeDataFiles(ctx, r.base, r.t.schema, rdr)
		written = append(written, files...)
		if err != nil {
			return written, nil, fmt.Errorf("rewrite %s: %w", r.t.ident, err)
		}
	}
	if added != nil {
		files, err := writeDataFiles(ctx, r.base, r.t.schema, added)
		written = append(written, files...)
		if err != nil {
			return written, nil, fmt.Errorf("rewrite %s: %w", r.t.ident, err)
		}
	}
	return written, removed, nil
}

// onlyAppendedSince reports whether every commit from base's snapshot to
// fresh's only appended files, so that the files base held are all still
// there, unchanged.
func onlyAppendedSince(base, fresh *table.Table) bool {
	return appendedOrOwnSince(base, fresh, nil)
}

// appendedOrOwnSince is onlyAppendedSince allowing the snapshots own
// too: those a commit line committed, whose changes the rewrite asking
// read as pending (group_commit.go).
func appendedOrOwnSince(base, fresh *table.Table, own []int64) bool {
	if base.Metadata().TableUUID() != fresh.Metadata().TableUUID() {
		return false
	}
	var stop int64 = -1
	if s := base.CurrentSnapshot(); s != nil {
		stop = s.SnapshotID
	}
	meta := fresh.Metadata()
	if fresh.CurrentSnapshot() == nil {
		return stop == -1
	}
	for s := fresh.CurrentSnapshot(); s != nil && s.SnapshotID != stop; {
		if !slices.Contains(own, s.SnapshotID) && (s.Summary == nil || s.Summary.Operation != table.OpAppend) {
			return false
		}
		if s.ParentSnapshotID == nil {
			return stop == -1
		}
		if s = meta.SnapshotByID(*s.ParentSnapshotID); s == nil {
			return false // base's snapshot is no longer in the history
		}
	}
	return true
}

// RerunConflict is a write that lost a race with another writer after
// reading data the other writer changed: nothing was committed, and
// running the whole statement again, on the new data, is the way on.
// Limit is how many times a statement may be run in all.
type RerunConflict struct {
	Limit int
	err   error
}

func (e *RerunConflict) Error() string { return e.err.Error() }
func (e *RerunConflict) Unwrap() error { return e.err }

// Close ends the rewrite without committing and ends its turn.
func (r *Rewrite) Close() {
	if r.scan != nil {
		_ = r.scan.Close()
		r.scan = nil
	}
	r.base = nil
	if r.release != nil {
		r.release()
		r.release = nil
	}
}

func releaseAll(batches []arrow.RecordBatch) {
	for _, b := range batches {
		b.Release()
	}
}

// sliceReader reads batches the caller keeps owning.
func sliceReader(schema *arrow.Schema, batches []arrow.RecordBatch) array.RecordReader {
	rdr, err := array.NewRecordReader(schema, batches)
	if err != nil {
		// The batches come from ReadFile under the same schema.
		return errReader{schema: schema, err: err}
	}
	return rdr
}

type errReader struct {
	schema *arrow.Schema
	err    error
}

func (e errReader) Retain()                        {}
func (e errReader) Release()                       {}
func (e errReader) Schema() *arrow.Schema          { return e.schema }
func (e errReader) Next() bool                     { return false }
func (e errReader) RecordBatch() arrow.RecordBatch { return nil }
func (e errReader) Record() arrow.RecordBatch      { return nil }
func (e errReader) Err() error                     { return e.err }

// RerunDelay is how long to wait before running a statement again after
// its attempt-th RerunConflict: the commit backoff, growing and jittered,
// so that two writers that keep colliding drift apart.
func RerunDelay(attempt int) time.Duration { return commitBackoff(attempt) }
