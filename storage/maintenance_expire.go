package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// ExpireOptions says which snapshots ExpireSnapshots removes.
type ExpireOptions struct {
	// OlderThan expires snapshots committed before it; zero leaves the age
	// to the table property history.expire.max-snapshot-age-ms (5 days
	// when unset). A time in the future expires every snapshot but the
	// ones retained below.
	OlderThan time.Time
	// RetainLast keeps at least that many of the newest snapshots of each
	// branch whatever their age; 0 leaves it to the table property
	// history.expire.min-snapshots-to-keep (1 when unset).
	RetainLast int
}

// ExpiryResult is what ExpireSnapshots removed. The file counts are files
// actually deleted: a file already gone is not counted.
type ExpiryResult struct {
	ExpiredSnapshots           int64
	DeletedDataFiles           int64
	DeletedPositionDeleteFiles int64
	DeletedEqualityDeleteFiles int64
	DeletedManifests           int64
	DeletedManifestLists       int64
	DeletedStatisticsFiles     int64
}

// ExpireSnapshots removes old snapshots from the table's metadata, then
// deletes the files only they referenced: data and delete files,
// manifests, manifest lists and statistics files. The snapshot a branch
// or tag points at, the current one included, is never expired. Time
// travel to an expired snapshot is no longer possible, and a query still
// reading one may fail.
//
// It is a write (gate one: UPDATE_TABLE) and holds the table's commit
// lock; a commit that loses a race with another writer is planned again
// on the reloaded table. Files are deleted only after the commit: SQE
// counts them itself rather than letting iceberg-go delete them, which
// reports no counts.
func (t *Table) ExpireSnapshots(ctx context.Context, opts ExpireOptions) (*Table, ExpiryResult, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, ExpiryResult{}, err
	}
	if opts.RetainLast < 0 {
		return nil, ExpiryResult{}, pgerror.New(pgerror.InvalidParameterValue, "the number of snapshots to retain must not be negative")
	}
	var expireOpts []table.ExpireSnapshotsOpt
	if !opts.OlderThan.IsZero() {
		expireOpts = append(expireOpts, table.WithOlderThan(max(time.Since(opts.OlderThan), 0)))
	}
	if opts.RetainLast > 0 {
		expireOpts = append(expireOpts, table.WithRetainLast(opts.RetainLast))
	}
	expireOpts = append(expireOpts, table.WithPostCommit(false))
	var before *table.Table
	committed, err := t.commitStaged(ctx, "expire snapshots of", func(base *table.Table, _ *Table) (*table.Transaction, error) {
		before = base
		// iceberg-go refuses too, with a plain error; the same test here
		// gives the client a SQLSTATE.
		if v, ok := base.Properties()[table.GCEnabledKey]; ok && !strings.EqualFold(v, "true") {
			return nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState,
				"cannot expire snapshots of table %s: its property %s is %s", t.ident.Table, table.GCEnabledKey, v)
		}
		tx := base.NewTransaction()
		if err := tx.ExpireSnapshots(expireOpts...); err != nil {
			return nil, fmt.Errorf("expire snapshots of %s: %w", t.ident, err)
		}
		return tx, nil
	})
	if err != nil {
		return nil, ExpiryResult{}, err
	}
	res, err := deleteExpiredFiles(ctx, before, committed.tbl)
	if err != nil {
		return nil, ExpiryResult{}, fmt.Errorf("expire snapshots of %s: the snapshots are expired, but finding their files failed: %w", t.ident, err)
	}
	return committed, res, nil
}
