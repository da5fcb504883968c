package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/apache/iceberg-go/table"
)

// commitTogether commits each part's files to its table as one snapshot
// per table, and all of them in one catalog transaction: every table's
// new metadata file is written first, then the pointers move together.
// The tables' commit locks are taken in name order, so two such commits
// in this node cannot deadlock.
func (c *embeddedCatalog) commitTogether(ctx context.Context, parts []stagedPart) error {
	parts = slices.Clone(parts)
	slices.SortFunc(parts, func(a, b stagedPart) int {
		return cmp.Or(cmp.Compare(a.ident.Namespace, b.ident.Namespace), cmp.Compare(a.ident.Table, b.ident.Table))
	})
	for _, p := range parts {
		if err := c.authorize(ctx, ActionUpdateTable, p.ident); err != nil {
			return err
		}
	}
	for _, p := range parts {
		unlock, err := c.lockTable(ctx, p.ident)
		if err != nil {
			return fmt.Errorf("commit to %s: wait for commit lock: %w", p.ident, err)
		}
		defer unlock()
	}
	for attempt := 1; ; attempt++ {
		group := &commitGroup{}
		err := c.stageGroup(withCommitGroup(ctx, group), parts)
		if err == nil {
			err = c.swapPointers(ctx, group.swaps)
		}
		if err == nil {
			for i, s := range group.swaps {
				c.metadata.put(s.to, group.metas[i])
			}
			return nil
		}
		if !isCommitConflict(err) {
			return err
		}
		if attempt >= c.commitAttempts() {
			return commitConflict(parts[0].ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			return fmt.Errorf("commit to %s: %w", parts[0].ident, err)
		}
	}
}

// stageGroup writes each table's next metadata for the group, on the
// table's newest metadata.
func (c *embeddedCatalog) stageGroup(ctx context.Context, parts []stagedPart) error {
	for _, p := range parts {
		base, err := c.reloadTable(ctx, p.ident)
		if err != nil {
			return err
		}
		if base.Metadata().TableUUID().String() != p.tableUUID {
			return errors.Join(ErrNoSuchTable,
				fmt.Errorf("commit to %s: the table was dropped and re-created since the write", p.ident))
		}
		tx := base.NewTransaction()
		if err := tx.AddDataFiles(ctx, p.files, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping()); err != nil {
			return fmt.Errorf("commit to %s: stage files: %w", p.ident, err)
		}
		if _, err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("commit to %s: %w", p.ident, err)
		}
	}
	return nil
}
