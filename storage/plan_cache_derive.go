package storage

import (
	"context"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// derive plans a filtered scan of tbl's current snapshot from the plan of
// the same snapshot without a filter (cached, or planned and cached now),
// keeping the files whose column statistics do not prove that the filter
// matches none of their rows. A point lookup names a new literal every
// time: planned and cached one by one, each would read the manifests
// again and push other plans out of the cache.
//
// ok is false, and the caller plans with the filter, when derivation
// could keep a file iceberg-go's planner would drop: a partitioned table
// (the planner prunes by partition values and manifest summaries too), a
// filter with a predicate rowGroupMatch does not judge as precisely as
// the planner, or a table whose files are more than the cache holds.
// Keeping a file the planner would drop is never wrong, only slower.
func (c *planCache) derive(ctx context.Context, tbl *table.Table, filter iceberg.BooleanExpression) ([]table.FileScanTask, bool, error) {
	meta := tbl.Metadata()
	for _, spec := range meta.PartitionSpecs() {
		if !spec.IsUnpartitioned() {
			return nil, false, nil
		}
	}
	if filter == nil {
		return nil, false, nil
	}
	rewritten, err := iceberg.RewriteNotExpr(filter)
	if err != nil {
		return nil, false, nil
	}
	bound, err := iceberg.BindExpr(tbl.Schema(), rewritten, true)
	if err != nil || bound.Equals(iceberg.AlwaysTrue{}) {
		return nil, false, nil
	}
	ids, judged := judgedColumns(bound)
	if !judged {
		return nil, false, nil
	}
	all, err := c.plan(ctx, tbl, nil, 0)
	if err != nil {
		return nil, false, err
	}
	if len(all) > c.entries.maxWeight {
		return nil, false, nil
	}
	kept := all[:0]
	for _, task := range all {
		if task.File != nil {
			stats := fileStats(tbl.Schema(), task.File, ids)
			if match, err := iceberg.VisitExprEvaluator(bound, &rowGroupMatch{group: &stats}); err == nil && !match {
				continue
			}
		}
		// A task planned without a filter carries that plan's residual;
		// none makes the scan apply its own filter to the file.
		task.Residual = nil
		kept = append(kept, task)
	}
	return kept, true, nil
}

// fileStats is a data file's column statistics for the columns ids, as
// rowGroupMatch reads a row group's.
func fileStats(schema *iceberg.Schema, f iceberg.DataFile, ids []int) rowGroupStats {
	st := rowGroupStats{rows: f.Count(), lower: map[int]iceberg.Literal{},
		upper: map[int]iceberg.Literal{}, nulls: map[int]int64{}}
	nulls, lower, upper := f.NullValueCounts(), f.LowerBoundValues(), f.UpperBoundValues()
	for _, id := range ids {
		field, ok := schema.FindFieldByID(id)
		if !ok {
			continue
		}
		if n, ok := nulls[id]; ok {
			st.nulls[id] = n
		}
		lo, okL := boundLiteral(field.Type, lower[id])
		hi, okU := boundLiteral(field.Type, upper[id])
		if okL && okU {
			st.lower[id], st.upper[id] = lo, hi
		}
	}
	return st
}

// judgedColumns returns the field ids a bound filter reads, and whether
// rowGroupMatch judges every predicate in it as iceberg-go's planner
// would: a comparison, IN or NULL test on a column of a type it compares.
func judgedColumns(bound iceberg.BooleanExpression) ([]int, bool) {
	// VisitExpr, unlike VisitExprEvaluator, visits both sides of every
	// AND and OR, so every column is collected.
	v := &judgedVisitor{}
	judged, err := iceberg.VisitExpr(bound, v)
	return v.ids, err == nil && judged
}

type judgedVisitor struct{ ids []int }

func (*judgedVisitor) VisitTrue() bool                            { return true }
func (*judgedVisitor) VisitFalse() bool                           { return true }
func (*judgedVisitor) VisitAnd(l, r bool) bool                    { return l && r }
func (*judgedVisitor) VisitOr(l, r bool) bool                     { return l && r }
func (*judgedVisitor) VisitNot(bool) bool                         { return false }
func (*judgedVisitor) VisitUnbound(iceberg.UnboundPredicate) bool { return false }

func (v *judgedVisitor) VisitBound(pred iceberg.BoundPredicate) bool {
	ref, ok := pred.Term().(iceberg.BoundReference)
	if !ok {
		return false
	}
	switch pred.Op() {
	case iceberg.OpEQ, iceberg.OpLT, iceberg.OpLTEQ, iceberg.OpGT, iceberg.OpGTEQ, iceberg.OpIn,
		iceberg.OpIsNull, iceberg.OpNotNull:
	default:
		return false
	}
	switch ref.Field().Type.(type) {
	case iceberg.Int32Type, iceberg.Int64Type, iceberg.StringType, iceberg.DateType, iceberg.BooleanType:
	default:
		return false
	}
	v.ids = append(v.ids, ref.Field().ID)
	return true
}
