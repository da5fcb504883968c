package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// emitExisting queues the rows of the probed batch a semi join keeps
// (those with a match) or an anti join keeps (those without), each once
// and in input order, with the left columns only.
func (j *hashJoin) emitExisting(ctx context.Context, p *probeState) error {
	want := j.kind == planner.SemiJoin
	var idx []int32
	for r, m := range p.leftMatched {
		if m == want {
			idx = append(idx, int32(r))
		}
	}
	switch {
	case len(idx) == 0:
		return nil
	case len(idx) == len(p.leftMatched):
		// The whole batch: its columns as they are.
		j.out = append(j.out, array.NewRecordBatch(j.schema, p.batch.Columns(), p.batch.NumRows()))
		return nil
	}
	cols, err := takeColumns(ctx, p.batch.Columns(), idx)
	if err != nil {
		return err
	}
	j.queue(cols, len(idx))
	return nil
}
