package storage

import (
	"context"
	"fmt"
	"strconv"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// ExactRowCount is how many rows a scan of the table with filter returns,
// the rows of the caller's staged writes included (WithStaged), counted
// from the record counts the manifests keep for each data file: no data
// file is read. ok is false when the files cannot tell exactly, and a
// scan must count the rows:
//
//   - a delete file (position, equality or deletion vector) applies to one
//     of them: SQE rewrites files instead (copy-on-write), another engine
//     may not;
//   - without a filter, the snapshot summary's total-records disagrees
//     with them;
//   - with a filter (a row filter, which a scan prunes files by and,
//     once the files prove it, does not evaluate), some file's statistics
//     do not prove it true for every row of the file (AdmitsEveryRow).
//     Only then is a file's record count the number of its rows the
//     filter admits; a file the filter prunes has none.
//
// The count of the snapshot's files is cached with the catalog's plans,
// so a snapshot counted again costs a cache lookup.
func (t *Table) ExactRowCount(ctx context.Context, filter iceberg.BooleanExpression) (n int64, ok bool, err error) {
	var bound iceberg.BooleanExpression
	if filter != nil {
		if bound, err = t.bindProof(filter); err != nil {
			return 0, false, fmt.Errorf("count rows of %s: %w", t.ident, err)
		}
	}
	committed, err := t.committedCount(ctx, filter, bound)
	if err != nil {
		return 0, false, fmt.Errorf("count rows of %s: %w", t.ident, err)
	}
	staged := countFiles(t.stagedTasks(), bound)
	if !committed.exact || !staged.exact {
		return 0, false, nil
	}
	return committed.rows + staged.rows, true, nil
}

// committedCount counts the rows of the snapshot's files that a scan with
// filter reads, bound being filter bound for the proof (nil without a
// filter), less the files staged changes removed.
func (t *Table) committedCount(ctx context.Context, filter, bound iceberg.BooleanExpression) (fileCount, error) {
	cache := t.host.planCache()
	if len(t.hidden) == 0 && cache != nil {
		return cache.count(ctx, t.tbl, filter, bound)
	}
	tasks, err := t.planInCommitOrder(ctx, filter, 0)
	if err != nil {
		return fileCount{}, err
	}
	if filter == nil && !agreesWithSummary(t.tbl, countFiles(tasks, nil)) {
		return fileCount{}, nil
	}
	return countFiles(t.visible(tasks), bound), nil
}

// count is the row count of the plan of tbl's current snapshot with
// filter (bound as for committedCount), cached under the plan's key.
func (c *planCache) count(ctx context.Context, tbl *table.Table, filter, bound iceberg.BooleanExpression) (fileCount, error) {
	k, keyed := planKeyFor(tbl, filter, 0)
	if keyed {
		if fc, ok := c.counts.get(k); ok {
			return fc, nil
		}
	}
	tasks, err := c.plan(ctx, tbl, filter, 0)
	if err != nil {
		return fileCount{}, err
	}
	fc := countFiles(tasks, bound)
	if filter == nil && !agreesWithSummary(tbl, fc) {
		fc = fileCount{}
	}
	if keyed {
		c.counts.put(k, fc)
	}
	return fc, nil
}

// fileCount is what a plan's data files say of the rows a scan of them
// returns: how many, and whether that is exact.
type fileCount struct {
	rows  int64
	exact bool
}

// countFiles sums the record counts of the tasks' data files, each file
// once (iceberg-go plans a large file as several tasks). bound, when not
// nil, is a filter every file must prove true for each of its rows. The
// count is not exact when a delete file applies to a task.
func countFiles(tasks []table.FileScanTask, bound iceberg.BooleanExpression) fileCount {
	out := fileCount{exact: true}
	seen := make(map[string]bool, len(tasks))
	for _, task := range tasks {
		f := task.File
		if f == nil || f.Count() < 0 || len(task.DeleteFiles)+len(task.EqualityDeleteFiles)+len(task.DeletionVectorFiles) > 0 {
			return fileCount{}
		}
		if seen[f.FilePath()] {
			continue
		}
		seen[f.FilePath()] = true
		if bound != nil {
			if ok, err := fileAdmitsEveryRow(bound, task); err != nil || !ok {
				return fileCount{}
			}
		}
		out.rows += f.Count()
	}
	return out
}

// agreesWithSummary reports whether the total-records of tbl's current
// snapshot summary, when it says one, is fc's count of its files.
func agreesWithSummary(tbl *table.Table, fc fileCount) bool {
	s := tbl.CurrentSnapshot()
	if s == nil {
		return fc.rows == 0
	}
	if s.Summary == nil {
		return true
	}
	total, ok := s.Summary.Properties["total-records"]
	if !ok {
		return true
	}
	n, err := strconv.ParseInt(total, 10, 64)
	return err == nil && n == fc.rows
}
