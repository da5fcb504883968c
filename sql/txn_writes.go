package sql

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// txnWrites are the writes of an open transaction block. Each INSERT or
// COPY FROM in the block writes its data files at once but commits
// nothing (storage.StagedWrite); COMMIT makes them one Iceberg commit of
// the table, ROLLBACK (also after an error, and when the connection ends
// inside the block) deletes the files. Reads in the block see the staged
// rows after the table's committed ones (sessionCatalog.ResolveTable).
//
// A block may write several tables when their catalog commits them in
// one transaction (the embedded catalog moves every table's metadata
// pointer in one SQLite transaction); COMMIT then makes all of them
// visible at once or none. A catalog that commits table by table (the
// REST catalog) could leave half a block committed, so there a write to
// a second table is refused and the block keeps its promise.
//
// Other data-changing statements join a block by staging through
// stageWrite's pattern: produce storage.StagedWrite values (or a staged
// change of another kind added beside them) and append them here, so that
// commit, rollback and savepoints need no change of their own.
type txnWrites struct {
	staged []stagedWrite
}

// stagedWrite is one statement's staged data with the table it is for.
type stagedWrite struct {
	table *storage.Table
	w     *storage.StagedWrite
}

// all returns the staged writes in statement order.
func (tw *txnWrites) all() []*storage.StagedWrite {
	out := make([]*storage.StagedWrite, len(tw.staged))
	for i, s := range tw.staged {
		out[i] = s.w
	}
	return out
}

// truncate discards the writes after the first n, as ROLLBACK TO does for
// the writes made since its savepoint.
func (tw *txnWrites) truncate(n int) {
	for _, s := range tw.staged[n:] {
		s.w.Discard(context.Background())
	}
	tw.staged = tw.staged[:n]
}

// writeTable appends rdr's rows to t: at once as its own commit outside a
// block, staged for COMMIT inside one.
func (s *Session) writeTable(ctx context.Context, t *storage.Table, rdr array.RecordReader) error {
	if s.tx == nil {
		_, err := t.Append(ctx, rdr)
		return err
	}
	if err := s.tx.writes.checkTable(t); err != nil {
		return err
	}
	w, err := t.Stage(ctx, rdr)
	if err != nil {
		return err
	}
	if w.Rows() == 0 {
		return nil
	}
	s.tx.writes.staged = append(s.tx.writes.staged, stagedWrite{table: t, w: w})
	return nil
}

// checkTable refuses a write to a table that cannot be committed
// atomically with the block's earlier writes (see txnWrites).
func (tw *txnWrites) checkTable(t *storage.Table) error {
	for _, s := range tw.staged {
		if !s.table.CommitsWith(t) {
			return pgerror.New(pgerror.FeatureNotSupported,
				"a transaction block cannot write to both %s and %s", s.table.Ident(), t.Ident()).
				WithDetail("The catalog of %s commits one table at a time, so the block could not be committed atomically.", t.Ident()).
				WithHint("COMMIT the block first, or write to %s in a transaction of its own.", t.Ident())
		}
	}
	return nil
}

// withStaged is t as the session sees it: inside a block with writes to
// t, its committed rows followed by the block's staged ones.
func (s *Session) withStaged(t *storage.Table) (*storage.Table, error) {
	if s.tx == nil || len(s.tx.writes.staged) == 0 {
		return t, nil
	}
	return t.WithStaged(s.tx.writes.all())
}

// commitWrites commits the block's staged writes: one Iceberg commit per
// table, all made visible together. On failure nothing is committed and
// the staged files are removed.
func (s *Session) commitWrites(ctx context.Context) error {
	tw := &s.tx.writes
	if len(tw.staged) == 0 {
		return nil
	}
	err := storage.CommitStagedTables(s.callerContext(ctx), tw.all())
	if err != nil {
		tw.truncate(0)
		if errors.Is(err, storage.ErrNoSuchTable) {
			return pgerror.Wrap(err, pgerror.UndefinedTable, "a table written in this transaction was dropped before COMMIT")
		}
		return fmt.Errorf("commit: %w", err)
	}
	tw.staged = nil
	return nil
}
