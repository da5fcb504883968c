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
// A block writes one table. The embedded catalog (iceberg-go's SQL
// catalog) commits table by table, each in its own SQLite transaction, so a
// second table could not be committed atomically with the first: a
// failure between the two would leave half the block committed. Until
// commits of several tables can be made one catalog transaction, a write
// to a second table is refused and the block keeps its promise.
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
	if err := s.tx.writes.checkTable(t.Ident()); err != nil {
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

// checkTable refuses a write to a second table in one block (see
// txnWrites).
func (tw *txnWrites) checkTable(id storage.Ident) error {
	if len(tw.staged) == 0 {
		return nil
	}
	first := tw.staged[0].w.Ident()
	if first == id {
		return nil
	}
	return pgerror.New(pgerror.FeatureNotSupported,
		"a transaction block cannot write to more than one table").
		WithDetail("This block has already written to %s.", first).
		WithHint("COMMIT the block first, or write to %s in a transaction of its own.", id)
}

// withStaged is t as the session sees it: inside a block with writes to
// t, its committed rows followed by the block's staged ones.
func (s *Session) withStaged(t *storage.Table) *storage.Table {
	if s.tx == nil || len(s.tx.writes.staged) == 0 {
		return t
	}
	return t.WithStaged(s.tx.writes.all())
}

// commitWrites commits the block's staged writes, one Iceberg commit per
// table. On failure nothing is committed (a block writes one table) and
// the staged files are removed.
func (s *Session) commitWrites(ctx context.Context) error {
	tw := &s.tx.writes
	if len(tw.staged) == 0 {
		return nil
	}
	t := tw.staged[0].table
	_, err := t.CommitStaged(s.callerContext(ctx), tw.all())
	if err != nil {
		tw.truncate(0)
		if errors.Is(err, storage.ErrNoSuchTable) {
			return pgerror.Wrap(err, pgerror.UndefinedTable, "relation \"%s\" was dropped during the transaction", t.Ident().Table)
		}
		return fmt.Errorf("commit to %s: %w", t.Ident(), err)
	}
	tw.staged = nil
	return nil
}
