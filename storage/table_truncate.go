package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
)

// Truncate removes every row in one Iceberg delete commit (one snapshot)
// and returns the table as of it. Whole data files are dropped from the
// table, never rewritten, so no delete files arise. A table without a
// snapshot, or whose current snapshot holds no rows, is left as it is.
func (t *Table) Truncate(ctx context.Context) (*Table, error) {
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	unlock, err := t.host.lockTable(ctx, t.ident)
	if err != nil {
		return nil, fmt.Errorf("truncate %s: wait for commit lock: %w", t.ident, err)
	}
	defer unlock()
	for attempt := 1; ; attempt++ {
		base, err := t.host.reloadTable(ctx, t.ident)
		if err != nil {
			return nil, err
		}
		current, err := newTable(t.host, t.ident, base)
		if err != nil {
			return nil, err
		}
		if base.CurrentSnapshot() == nil || current.RowCountEstimate() == 0 {
			return current, nil
		}
		tx := base.NewTransaction()
		if err := tx.Delete(ctx, iceberg.AlwaysTrue{}, nil); err != nil {
			return nil, fmt.Errorf("truncate %s: %w", t.ident, err)
		}
		committed, err := tx.Commit(ctx)
		if err == nil {
			return newTable(t.host, t.ident, committed)
		}
		if !isCommitConflict(err) {
			return nil, fmt.Errorf("truncate %s: commit: %w", t.ident, err)
		}
		if attempt == maxCommitAttempts {
			return nil, commitConflict(t.ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			return nil, fmt.Errorf("truncate %s: %w", t.ident, err)
		}
	}
}
