package storage

import (
	"context"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// plan returns the committed files that a scan of tbl's current snapshot
// with filter (nil: every row) and limit (0: none) reads, oldest commit
// first. It answers from the cache, else from the snapshot's plan without
// a filter (derive, not cached), else by extending the cached plan of an
// earlier snapshot with the files appended since, else by planning in
// full; the answer is cached. The caller owns the returned slice. A nil
// cache plans in full every time.
func (c *planCache) plan(ctx context.Context, tbl *table.Table, filter iceberg.BooleanExpression, limit int64) ([]table.FileScanTask, error) {
	if c == nil {
		return planFiles(ctx, tbl, filter, limit)
	}
	digest, ok := c.metadataDigest(tbl)
	if !ok {
		return planFiles(ctx, tbl, filter, limit)
	}
	k, ok := planKeyOver(digest, tbl, filter, limit)
	if !ok {
		return planFiles(ctx, tbl, filter, limit)
	}
	if tasks, ok := c.get(k); ok {
		return tasks, nil
	}
	if tasks, ok, err := c.derive(ctx, tbl, filter); err != nil || ok {
		return tasks, err
	}
	tasks, ok, err := c.extend(ctx, tbl, k, filter, limit)
	if err != nil {
		return nil, err
	}
	if !ok {
		if tasks, err = planFiles(ctx, tbl, filter, limit); err != nil {
			return nil, err
		}
	}
	c.put(k, tasks)
	return tasks, nil
}

// planFiles has iceberg-go plan the scan, reading the snapshot's manifest
// list and every manifest that may hold matching files, and puts the
// tasks in commit order. Planning reads no column selection, so a scan
// that reads other columns can use the plan.
func planFiles(ctx context.Context, tbl *table.Table, filter iceberg.BooleanExpression, limit int64) ([]table.FileScanTask, error) {
	opts := []table.ScanOption{table.WithRowFilter(planFilter(filter))}
	if limit > 0 {
		opts = append(opts, table.WithLimit(limit))
	}
	scan := tbl.Scan(opts...)
	defer func() { _ = scan.Close() }()
	tasks, err := scan.PlanFiles(ctx)
	if err != nil {
		return nil, err
	}
	sortByCommit(tasks)
	return tasks, nil
}
