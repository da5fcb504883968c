package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/iceberg-go/table"
)

// groupCommitter is a catalog that can make the commits of several
// tables visible together: it writes each table's next metadata while a
// context carries a commitGroup, then moves all pointers at once.
type groupCommitter interface {
	swapGroup(ctx context.Context, g *commitGroup) error
}

// CommitsWith reports whether writes staged for t and for other can be
// committed as one atomic change by CommitStagedTables: always for the
// same table, and for two tables of a catalog that commits several
// tables in one transaction (the embedded catalog).
func (t *Table) CommitsWith(other *Table) bool {
	if t.ident == other.ident {
		return t.branch == other.branch
	}
	if t.host != other.host {
		return false
	}
	_, ok := t.host.(groupCommitter)
	return ok
}

// stagedPart is one table's share of a commit of staged writes.
type stagedPart struct {
	ident     Ident
	branch    string
	tableUUID string
	net       netChange
}

// CommitStagedTables commits writes, staged for one or more tables that
// CommitsWith one another, as one atomic change: each table gets one new
// snapshot (an append, or a replace when the writes removed files) and
// all become visible together, or none does. Losing a race with another
// writer replays the commit on the reloaded tables, up to the catalog's
// retry count, then fails with SQLSTATE 40001; so does a commit whose
// removed files another writer has replaced meanwhile (the change was
// computed from rows that are gone). On failure the caller still owns the
// writes and should Discard them, except after an error that leaves it
// unknown whether the catalog took the commit: then the writes no longer
// hold their files, so that Discard cannot remove files a committed
// snapshot may reference.
func CommitStagedTables(ctx context.Context, writes []*StagedWrite) error {
	if len(writes) == 0 {
		return nil
	}
	host := writes[0].host
	var parts []stagedPart
	for _, w := range writes {
		if w.host != host {
			return fmt.Errorf("commit: writes to %s and %s are in different catalogs", writes[0].ident, w.ident)
		}
		i := slices.IndexFunc(parts, func(p stagedPart) bool { return p.ident == w.ident })
		if i < 0 {
			parts = append(parts, stagedPart{ident: w.ident, branch: w.branch, tableUUID: w.tableUUID, net: netChangeOf(w.ident, w.branch, writes)})
			continue
		}
		if parts[i].branch != w.branch {
			return twoBranches(w.ident)
		}
		if parts[i].tableUUID != w.tableUUID {
			return errors.Join(ErrNoSuchTable,
				fmt.Errorf("commit to %s: the table was dropped and re-created since the write", w.ident))
		}
	}
	if len(parts) > 1 {
		if _, ok := host.(groupCommitter); !ok {
			return fmt.Errorf("commit: the catalog of %s cannot commit several tables at once", parts[0].ident)
		}
	}
	// Locks in name order, so two multi-table commits cannot deadlock.
	slices.SortFunc(parts, func(a, b stagedPart) int {
		return cmp.Or(cmp.Compare(a.ident.Namespace, b.ident.Namespace), cmp.Compare(a.ident.Table, b.ident.Table))
	})
	for _, p := range parts {
		if err := host.authorize(ctx, ActionUpdateTable, p.ident); err != nil {
			return err
		}
	}
	for _, p := range parts {
		unlock, err := host.lockTable(ctx, p.ident)
		if err != nil {
			return fmt.Errorf("commit to %s: wait for commit lock: %w", p.ident, err)
		}
		defer unlock()
	}
	for attempt := 1; ; attempt++ {
		uncertain, err := commitPartsOnce(ctx, host, parts)
		if err == nil {
			break
		}
		if uncertain {
			disown(writes)
			return err
		}
		if !isCommitConflict(err) {
			return err
		}
		if attempt >= host.commitAttempts() {
			return commitConflict(parts[0].ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			return fmt.Errorf("commit to %s: %w", parts[0].ident, err)
		}
	}
	for _, p := range parts {
		// Staged files a later write removed again are garbage now.
		if len(p.net.dropped) > 0 {
			removeFiles(ctx, writes[0].base, p.net.dropped)
		}
	}
	disown(writes)
	return nil
}

// disown hands the writes' files over: to the tables after a commit, or
// to nobody when a commit's outcome is unknown.
func disown(writes []*StagedWrite) {
	for _, w := range writes {
		w.files, w.removed = nil, nil
	}
}

// commitPartsOnce makes one attempt at committing parts on the tables'
// newest metadata. uncertain reports an error after which the catalog may
// have taken a commit.
func commitPartsOnce(ctx context.Context, host tableHost, parts []stagedPart) (uncertain bool, err error) {
	var group *commitGroup
	commitCtx := ctx
	if len(parts) > 1 {
		group = &commitGroup{}
		commitCtx = withCommitGroup(ctx, group)
	}
	for _, p := range parts {
		base, err := host.reloadTable(ctx, p.ident)
		if err != nil {
			return false, err
		}
		tx, err := p.transaction(ctx, base)
		if err != nil {
			return false, err
		}
		if tx == nil {
			continue
		}
		txCtx := commitCtx
		if len(p.net.removed) > 0 {
			txCtx = withNoReplay(commitCtx)
		}
		if _, err := tx.Commit(txCtx); err != nil {
			if isCommitConflict(err) {
				return false, err
			}
			return group == nil, host.commitError(ctx, p.ident, fmt.Errorf("commit to %s: %w", p.ident, err))
		}
	}
	if group == nil {
		return false, nil
	}
	err = host.(groupCommitter).swapGroup(ctx, group)
	return err != nil && !isCommitConflict(err), err
}

// transaction stages the part's net change on base: nil when there is
// nothing to commit.
func (p stagedPart) transaction(ctx context.Context, base *table.Table) (*table.Transaction, error) {
	if base.Metadata().TableUUID().String() != p.tableUUID {
		return nil, errors.Join(ErrNoSuchTable,
			fmt.Errorf("commit to %s: the table was dropped and re-created since the write", p.ident))
	}
	if snap := snapshotOfBranch(base, p.branch); snap != nil && len(p.net.removed) > 0 {
		if err := refuseDeleteFiles(p.ident, snap); err != nil {
			return nil, err
		}
	}
	head, err := branchHead(base, p.ident, p.branch)
	if err != nil {
		return nil, err
	}
	for _, w := range p.net.removers {
		if !onlyAppendedSince(w.base, head) {
			return nil, commitConflict(p.ident, 1, errors.New("files this transaction changed were replaced by another writer"))
		}
	}
	tx := base.NewTransaction()
	if p.branch != "" {
		tx = base.NewTransactionOnBranch(p.branch)
	}
	switch {
	case len(p.net.removed) > 0:
		err = tx.ReplaceDataFilesWithDataFiles(ctx, p.net.removed, p.net.added, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping())
	case len(p.net.added) > 0:
		err = tx.AddDataFiles(ctx, p.net.added, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping())
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("commit to %s: stage files: %w", p.ident, err)
	}
	return tx, nil
}
