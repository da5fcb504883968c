package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go/table"
)

// stageFunc stages one commit on a transaction over the table's newest
// metadata (base, and current, its Table form). It returns the transaction
// to commit, or nil when there is nothing to commit (current stands). It
// may run more than once: after a conflict it runs again on the reloaded
// table, so it must only stage, never act.
type stageFunc func(base *table.Table, current *Table) (*table.Transaction, error)

// commitStaged authorizes an update of the table, takes its commit lock
// and commits what stage stages, replaying it on the reloaded table when
// another writer moved the table on (up to the catalog's commit
// attempts, then 40001). verb names the operation in errors ("alter", "truncate").
func (t *Table) commitStaged(ctx context.Context, verb string, stage stageFunc) (*Table, error) {
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	unlock, err := t.host.lockTable(ctx, t.ident)
	if err != nil {
		return nil, fmt.Errorf("%s %s: wait for commit lock: %w", verb, t.ident, err)
	}
	defer unlock()
	for attempt := 1; ; attempt++ {
		base, current, err := t.reload(ctx)
		if err != nil {
			return nil, err
		}
		tx, err := stage(base, current)
		if err != nil {
			return nil, err
		}
		if tx == nil {
			return current, nil
		}
		committed, err := tx.Commit(ctx)
		if err == nil {
			return newTable(t.host, t.ident, committed)
		}
		if !isCommitConflict(err) {
			return nil, t.host.commitError(ctx, t.ident, fmt.Errorf("%s %s: commit: %w", verb, t.ident, err))
		}
		if attempt >= t.host.commitAttempts() {
			return nil, commitConflict(t.ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			return nil, fmt.Errorf("%s %s: %w", verb, t.ident, err)
		}
	}
}

// reload reads the table's newest metadata: as iceberg-go's table (base)
// and as a Table (current), for writes that must match the current schema
// and partition spec rather than the ones the caller loaded.
func (t *Table) reload(ctx context.Context) (*table.Table, *Table, error) {
	base, err := t.host.reloadTable(ctx, t.ident)
	if err != nil {
		return nil, nil, err
	}
	current, err := newTable(t.host, t.ident, base)
	if err != nil {
		return nil, nil, err
	}
	return base, current, nil
}
