package storage

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/table/compaction"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// defaultCompactionTarget is the data file size compaction aims at when the
// table does not set write.target-file-size-bytes.
const defaultCompactionTarget int64 = 128 << 20

// CompactionResult is what RewriteDataFiles changed.
type CompactionResult struct {
	// RewrittenDataFiles were removed from the table; AddedDataFiles hold
	// their rows now. RewrittenBytes is the removed files' size.
	RewrittenDataFiles int
	AddedDataFiles     int
	RewrittenBytes     int64
	// RewrittenManifests were merged into AddedManifests.
	RewrittenManifests int
	AddedManifests     int
}

// RewriteDataFiles compacts the table. Data files smaller than the target
// size (table property write.target-file-size-bytes, 128 MiB when unset)
// are read, partition by partition, and written back as fewer files; then
// the manifests are merged. Both land in one commit (two snapshots: the
// files replaced, then the manifests merged), so a reader sees the table
// before or after, and the rows are the same either way: every
// value is read under the current schema and written as it was read, and
// the commit is refused unless the new files hold exactly as many rows as
// the ones they replace.
//
// A table with a sort order is compacted partition by partition instead
// (sortedCompactionGroups), its rows ordered by sort, so that the files
// it leaves hold ranges of the sort key that do not overlap; without a
// sort its rows are compacted as an unsorted table's.
//
// It is a write (gate one: UPDATE_TABLE) and holds the table's commit
// lock. A table with delete files is refused, as for every copy-on-write
// change (see Rewrite). A commit that loses a race with another writer is
// planned and written again on the reloaded table. Files written for a
// commit that did not happen are removed.
func (t *Table) RewriteDataFiles(ctx context.Context, sort RowSorter) (*Table, CompactionResult, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, CompactionResult{}, err
	}
	return t.rewriteDataFiles(ctx, sort, rewriteOptions{minInputFiles: 2, mergeManifests: true})
}

// rewriteOptions narrow RewriteDataFiles for automatic maintenance
// (maintenance_pass.go): a partition's small files are rewritten only
// when a group of them holds at least minInputFiles, and the manifests
// are merged only when mergeManifests is set.
type rewriteOptions struct {
	minInputFiles  int
	mergeManifests bool
}

func (t *Table) rewriteDataFiles(ctx context.Context, sort RowSorter, opts rewriteOptions) (*Table, CompactionResult, error) {
	var (
		res      CompactionResult
		manifest *table.RewriteManifestsResult
		base     *table.Table
		// written are the files of the newest attempt; committing says
		// that attempt went to the catalog, whose answer may be lost.
		written    []iceberg.DataFile
		committing bool
	)
	discard := func() {
		removeFiles(ctx, base, written)
		written = nil
	}
	// The stage writes data files, which the commit loop's stages normally
	// do not: they are invisible until committed, and a replay after a lost
	// race first removes the ones the lost attempt wrote.
	committed, err := t.commitStaged(ctx, "rewrite data files of", func(b *table.Table, current *Table) (*table.Transaction, error) {
		discard()
		base, committing, res, manifest = b, false, CompactionResult{}, nil
		if b.CurrentSnapshot() == nil {
			return nil, nil
		}
		if err := refuseDeleteFiles(t.ident, b.CurrentSnapshot()); err != nil {
			return nil, err
		}
		tx := b.NewTransaction()
		files, err := t.compactData(ctx, b, current, tx, &res, sort, opts.minInputFiles)
		written = files
		if err != nil {
			return nil, err
		}
		if opts.mergeManifests {
			if manifest, err = tx.RewriteManifests(ctx); err != nil {
				return nil, fmt.Errorf("rewrite data files of %s: merge manifests: %w", t.ident, err)
			}
		}
		if res.RewrittenDataFiles == 0 && (manifest == nil || manifest.IsNoOp()) {
			return nil, nil
		}
		committing = true
		return tx, nil
	})
	if err != nil {
		if !committing || errors.Is(err, ErrCommitConflict) {
			discard()
		}
		return nil, CompactionResult{}, err
	}
	if manifest != nil && !manifest.IsNoOp() {
		// Read after the commit: iceberg-go records the merge it committed.
		res.RewrittenManifests, res.AddedManifests = len(manifest.RewrittenManifests), len(manifest.AddedManifests)
	}
	return committed, res, nil
}

// compactData writes the groups of small data files of base's current
// snapshot as new files and stages their replacement on tx. It returns
// the files written, also on error, so that the caller can remove them.
func (t *Table) compactData(ctx context.Context, base *table.Table, current *Table, tx *table.Transaction, res *CompactionResult, sort RowSorter, minInputFiles int) ([]iceberg.DataFile, error) {
	target := base.Properties().GetInt64(table.WriteTargetFileSizeBytesKey, defaultCompactionTarget)
	if target <= 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "table %s: %s must be positive, not %d", t.ident.Table, table.WriteTargetFileSizeBytesKey, target)
	}
	target = min(target, math.MaxInt64-1) // compactionConfig adds one
	tasks, err := current.planInCommitOrder(ctx, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("rewrite data files of %s: plan files: %w", t.ident, err)
	}
	for _, task := range tasks {
		if len(task.DeleteFiles) > 0 || len(task.EqualityDeleteFiles) > 0 || len(task.DeletionVectorFiles) > 0 {
			return nil, deleteFilesPresent(t.ident)
		}
	}
	var groups []compaction.Group
	order := current.SortOrder()
	if len(order) > 0 && sort != nil {
		first, ok := base.Schema().FindFieldByName(order[0].Column)
		if !ok {
			return nil, unknownColumn(t.ident, order[0].Column)
		}
		groups = sortedCompactionGroups(tasks, target, first)
		if minInputFiles > 2 {
			groups = slices.DeleteFunc(groups, func(g compaction.Group) bool {
				return smallFiles(g.Tasks, target) < minInputFiles
			})
		}
	} else {
		plan, err := compactionConfig(target, minInputFiles).PlanCompaction(tasks)
		if err != nil {
			return nil, fmt.Errorf("rewrite data files of %s: %w", t.ident, err)
		}
		groups, sort = plan.Groups, nil
	}
	var written, removed []iceberg.DataFile
	for _, g := range groups {
		files, err := t.compactGroup(ctx, base, current, g, order, sort)
		written = append(written, files...)
		if err != nil {
			return written, err
		}
		for _, task := range g.Tasks {
			removed = append(removed, task.File)
		}
		res.RewrittenDataFiles += len(g.Tasks)
		res.AddedDataFiles += len(files)
		res.RewrittenBytes += g.TotalSizeBytes
	}
	if len(removed) == 0 {
		return nil, nil
	}
	err = tx.ReplaceDataFilesWithDataFiles(ctx, removed, written, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping())
	if err != nil {
		return written, fmt.Errorf("rewrite data files of %s: stage files: %w", t.ident, err)
	}
	return written, nil
}

// compactionConfig plans with iceberg-go's bin packing: every file below
// target is a candidate, packed per partition into groups of about target
// bytes, and a group needs minInputFiles files (at least two) to be worth
// rewriting. (The maximum
// only has to lie above the minimum: no file at or above target is a
// candidate anyway, since the table has no delete files.)
func compactionConfig(target int64, minInputFiles int) compaction.Config {
	cfg := compaction.DefaultConfig()
	cfg.TargetFileSizeBytes = target
	cfg.MinFileSizeBytes = target
	cfg.MaxFileSizeBytes = target + 1
	cfg.MinInputFiles = uint(max(minInputFiles, 2))
	return cfg
}

// compactGroup writes the rows of one group's files as new data files,
// streaming them from the old files, through sort by order when sort is
// set. It returns the files written, also on error.
func (t *Table) compactGroup(ctx context.Context, base *table.Table, current *Table, g compaction.Group, order []SortField, sort RowSorter) ([]iceberg.DataFile, error) {
	var want int64
	for _, task := range g.Tasks {
		want += task.File.Count()
	}
	rdr, err := newTaskReader(ctx, base, current.schema, g.Tasks)
	if err != nil {
		return nil, fmt.Errorf("rewrite data files of %s: %w", t.ident, err)
	}
	defer rdr.Release()
	var rows array.RecordReader = rdr
	if sort != nil {
		sorted, err := sort(ctx, rdr, order)
		if err != nil {
			return nil, fmt.Errorf("rewrite data files of %s: sort: %w", t.ident, err)
		}
		defer sorted.Release()
		rows = sorted
	}
	files, err := writeDataFiles(ctx, base, current.schema, rows)
	if err != nil {
		return files, fmt.Errorf("rewrite data files of %s: %w", t.ident, err)
	}
	var got int64
	for _, f := range files {
		got += f.Count()
	}
	if rdr.rows != want || got != want {
		return files, pgerror.New(pgerror.InternalError,
			"rewrite data files of %s: %d files of %d rows read back as %d rows and written as %d; nothing was changed",
			t.ident.Table, len(g.Tasks), want, rdr.rows, got)
	}
	return files, nil
}

// smallFiles counts the tasks whose file is below target bytes.
func smallFiles(tasks []table.FileScanTask, target int64) int {
	n := 0
	for _, task := range tasks {
		if task.File.FileSizeBytes() < target {
			n++
		}
	}
	return n
}
