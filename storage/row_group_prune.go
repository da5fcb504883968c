package storage

import (
	"context"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// rowGroupFilter binds a scan's filter for judging row groups; nil when
// there is nothing to judge (no filter, or one that binds to nothing the
// statistics can refute), so the scan reads every planned row group.
func (t *Table) rowGroupFilter(filter iceberg.BooleanExpression) iceberg.BooleanExpression {
	if filter == nil || filter.Equals(iceberg.AlwaysTrue{}) {
		return nil
	}
	rewritten, err := iceberg.RewriteNotExpr(filter)
	if err != nil {
		return nil
	}
	bound, err := iceberg.BindExpr(t.tbl.Schema(), rewritten, true)
	if err != nil || bound.Equals(iceberg.AlwaysTrue{}) {
		return nil
	}
	return bound
}

// rowGroupTasks splits task by row group (splitByRowGroup: a whole file,
// or the part of a large file iceberg-go planned as one task) and drops
// the groups whose footer statistics, or else bloom filters, prove that
// bound (nil: none) matches no row. A task that cannot be split stays
// whole: the planner already judged the file by its statistics, which
// are the group's; a file of one row group is judged only by its bloom
// filters, when bound tests a column that has them (bloomTested). A
// footer or filter that is not read (budget, see footerReads and
// bloomReads) or cannot be read is doubt, so the groups are kept and the
// read that follows reports a failure.
func (t *Table) rowGroupTasks(ctx context.Context, task table.FileScanTask, bound iceberg.BooleanExpression, budget *pruneBudget) []table.FileScanTask {
	parts, first, inFile := splitByRowGroup(task)
	if bound == nil || first < 0 || (inFile == 1 && !t.bloomTested(bound)) {
		return parts
	}
	groups, ok, err := t.host.rowGroupCache().stats(ctx, t.tbl, task.File, budget)
	if err != nil || !ok || len(groups) != inFile {
		return parts
	}
	groups = groups[first : first+len(parts)]
	var probe *bloomProbe
	defer func() {
		if probe != nil {
			probe.close()
		}
	}()
	kept := parts[:0]
	for i, part := range parts {
		match, err := iceberg.VisitExprEvaluator(bound, &rowGroupMatch{group: &groups[i]})
		if err == nil && match && groups[i].blooms != nil {
			// Filters are read only for the groups statistics keep.
			if probe == nil {
				probe = t.newBloomProbe(ctx, task.File, budget)
			}
			match, err = iceberg.VisitExprEvaluator(bound, &rowGroupMatch{group: &groups[i], bloom: probe.match(first+i, &groups[i])})
		}
		if err != nil || match {
			kept = append(kept, part)
		}
	}
	return kept
}

// prunedTasks is tasks with the row groups bound cannot match taken out,
// the surviving groups of a file that lie next to each other joined into
// one task again so that each is read as one range.
func (t *Table) prunedTasks(ctx context.Context, tasks []table.FileScanTask, bound iceberg.BooleanExpression) []table.FileScanTask {
	if bound == nil {
		return tasks
	}
	out := make([]table.FileScanTask, 0, len(tasks))
	budget := newPruneBudget()
	for _, task := range tasks {
		for _, part := range t.rowGroupTasks(ctx, task, bound, budget) {
			if n := len(out); n > 0 && joins(out[n-1], part) {
				out[n-1].Length += part.Length
				continue
			}
			out = append(out, part)
		}
	}
	return out
}

// joins reports whether b is the range of the same file right after a's.
func joins(a, b table.FileScanTask) bool {
	return a.File != nil && b.File != nil && a.File.FilePath() == b.File.FilePath() &&
		a.Start+a.Length == b.Start
}
