package exec

import (
	"context"
	"maps"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// WithWorkTableRows returns ctx carrying rows as the contents of wt, for a
// plan built outside a recursive query that reads rows its caller holds
// (INSERT ... RETURNING reads the rows it wrote). The batches stay the
// caller's: the scan hands out references and releases nothing.
func WithWorkTableRows(ctx context.Context, wt *planner.WorkTable, rows []arrow.RecordBatch) context.Context {
	tables := workTables{}
	if outer, ok := ctx.Value(workTablesKey{}).(workTables); ok {
		tables = maps.Clone(outer)
	}
	tables[wt] = rows
	return context.WithValue(ctx, workTablesKey{}, tables)
}
