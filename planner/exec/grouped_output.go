package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// groupedOutput is a grouping operator's finished result, handed out in
// slices of outputBatchRows; the hash aggregate and the grouping-sets
// aggregate share it.
type groupedOutput struct {
	out arrow.RecordBatch
	pos int64
}

// nextSlice returns the next slice of the result, or nil after the last.
func (g *groupedOutput) nextSlice() arrow.RecordBatch {
	if g.out == nil || g.pos >= g.out.NumRows() {
		return nil
	}
	end := min(g.pos+outputBatchRows, g.out.NumRows())
	b := g.out.NewSlice(g.pos, end)
	g.pos = end
	return b
}

// releaseOutput drops the result.
func (g *groupedOutput) releaseOutput() {
	if g.out != nil {
		g.out.Release()
		g.out = nil
	}
}

// consumeGrouped feeds every batch next gives to consumeBatch, then sets
// mem to what the grouping state holds (stateBytes), until the input
// ends, fails or ctx is cancelled; both hash aggregates read their
// input this way. A batch comes with the rows of it to fold (nil: all).
func consumeGrouped(ctx context.Context, next func(context.Context) (arrow.RecordBatch, []int32, error), mem *reservation,
	consumeBatch func(context.Context, arrow.RecordBatch, []int32) error, stateBytes func() int64) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, sel, err := next(ctx)
		if err != nil || b == nil {
			return err
		}
		err = consumeBatch(ctx, b, sel)
		b.Release()
		if err == nil {
			err = mem.resize(stateBytes())
		}
		if err != nil {
			return err
		}
	}
}
