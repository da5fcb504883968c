package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// rowCount runs a planner.RowCount: one row holding, in each of its
// bigint columns, the table's row count from its files' record counts.
// When the files cannot count exactly it runs the plan the node stands
// for, built then, so that a plan answered from the files builds (and
// EXPLAIN ANALYZE shows) none of it.
type rowCount struct {
	node     *planner.RowCount
	fallback Operator
	done     bool
}

func (r *rowCount) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.fallback != nil {
		return r.fallback.Next(ctx)
	}
	if r.done {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	tbl, filter, ok := r.node.Source()
	var n int64
	if ok {
		n, ok = tbl.ExactRowCount(ctx, filter)
	}
	if !ok {
		op, err := Build(ctx, r.node.Input)
		if err != nil {
			return nil, err
		}
		r.fallback = op
		return op.Next(ctx)
	}
	r.done = true
	return countBatch(schemaOf(r.node.Columns()), n), nil
}

// countBatch is one row holding n in each of schema's int64 columns.
func countBatch(schema *arrow.Schema, n int64) arrow.RecordBatch {
	cols := make([]arrow.Array, schema.NumFields())
	for i := range cols {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.Append(n)
		cols[i] = b.NewArray()
		b.Release()
	}
	rec := array.NewRecordBatch(schema, cols, 1)
	for _, c := range cols {
		c.Release()
	}
	return rec
}

func (r *rowCount) Close() {
	if r.fallback != nil {
		r.fallback.Close()
		r.fallback = nil
	}
}
