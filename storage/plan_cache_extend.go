package storage

import (
	"context"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// planAncestorDepth bounds how many commits back extend looks for a
// cached plan. Extending reads the manifest list of every commit in
// between, so past some depth a full plan costs less.
const planAncestorDepth = 32

// extend plans tbl's current snapshot from the cached plan of an ancestor
// when every commit since that ancestor appended exactly one data file, as
// a table written by single-row INSERTs does. A fast append keeps the
// ancestor's manifests as they were, so the plan is the ancestor's tasks
// followed by those of the appended files, which iceberg-go's incremental
// append scan plans from the new manifests alone, with the same filter.
//
// The result equals a full plan's: the appended files are the newest
// commits and each is the only file of its commit, so sortByCommit puts
// them last in a full plan too. ok is false, and the caller plans in
// full, when a full plan could differ: a limit (it picks manifests by row
// count), version 1 metadata (no sequence numbers to order by), a file
// large enough to be split into several tasks, or a filter over a
// partitioned file (a full plan simplifies the filter per partition).
func (c *planCache) extend(ctx context.Context, tbl *table.Table, k planKey, filter iceberg.BooleanExpression, limit int64) ([]table.FileScanTask, bool, error) {
	meta := tbl.Metadata()
	if planLimit(filter, limit) != 0 || meta.Version() < 2 {
		return nil, false, nil
	}
	base, from, ok := c.ancestorPlan(meta, k)
	if !ok {
		return nil, false, nil
	}
	scan := tbl.NewIncrementalAppendScan(table.WithRowFilter(planFilter(filter))).FromSnapshotExclusive(from)
	added, err := scan.PlanFiles(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, err
		}
		// Whatever the incremental scan could not do, a full plan may.
		return nil, false, nil
	}
	unfiltered := planFilter(filter).Equals(iceberg.AlwaysTrue{})
	splitSize := planSplitSize(meta)
	for i := range added {
		task := &added[i]
		if task.DataSequenceNumber == nil || task.File.FileSizeBytes() > splitSize {
			return nil, false, nil
		}
		if !unfiltered {
			spec := meta.PartitionSpecByID(int(task.File.SpecID()))
			if spec == nil || !spec.IsUnpartitioned() {
				return nil, false, nil
			}
		}
		// The incremental scan hands each task the whole filter as its
		// residual; a full plan of an unpartitioned file leaves it nil,
		// which makes the reader apply the scan's filter: the same rows.
		task.Residual = nil
	}
	tasks := append(base, added...)
	sortByCommit(tasks)
	return tasks, true, nil
}

// ancestorPlan walks back from the current snapshot through commits that
// each appended one data file, and returns the first cached plan it meets
// and the id of the snapshot it plans.
func (c *planCache) ancestorPlan(meta table.Metadata, k planKey) ([]table.FileScanTask, int64, bool) {
	snap := meta.CurrentSnapshot()
	for range planAncestorDepth {
		if !appendsOneFile(snap) || snap.ParentSnapshotID == nil {
			return nil, 0, false
		}
		parent := meta.SnapshotByID(*snap.ParentSnapshotID)
		pk, ok := k.at(parent)
		if !ok {
			return nil, 0, false
		}
		if tasks, ok := c.get(pk); ok {
			return tasks, parent.SnapshotID, true
		}
		snap = parent
	}
	return nil, 0, false
}

// appendsOneFile reports whether the snapshot's summary says it is an
// append of exactly one data file.
func appendsOneFile(snap *table.Snapshot) bool {
	return snap != nil && snap.Summary != nil && snap.Summary.Operation == table.OpAppend &&
		snap.Summary.Properties["added-data-files"] == "1"
}
