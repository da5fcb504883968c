package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/storage/bufferpool"
)

// A query gathers its rows (a filter's kept rows, a join's pairs, a
// probe's keys) into buffers of a pool of its own, which go back to the
// pool when the operator above releases the batch and serve the next
// one: a join's output was a fresh allocation per batch, tens of MiB a
// query that the collector then zeroed and collected again. The pool
// lives in the context of the query's Next calls; workers' contexts
// derive from it.
type batchBuffersKey struct{}

// withBatchBuffers is ctx carrying the query's pool p.
func withBatchBuffers(ctx context.Context, p *bufferpool.Pool) context.Context {
	return context.WithValue(ctx, batchBuffersKey{}, p)
}

// batchBuffersFrom is the query's pool, or nil outside a query's run.
func batchBuffersFrom(ctx context.Context) *bufferpool.Pool {
	p, _ := ctx.Value(batchBuffersKey{}).(*bufferpool.Pool)
	return p
}

// pooledRoot is a plan's root operator, run with the query's pool in the
// context of each Next.
type pooledRoot struct {
	Operator
	pool *bufferpool.Pool
}

func (r *pooledRoot) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return r.Operator.Next(withBatchBuffers(ctx, r.pool))
}
