package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// SortStream runs the engine's sort over batches that do not come from a
// plan (the rows COPY FROM parses, those a table rewrite reads): the sort
// of a Sort node, holding what ctx's memory budget allows and spilling
// sorted runs to ctx's spill area past it. schema is the batches'
// schema, which the sorted batches keep; cols name its columns, one for
// one, and keys order by them (each key a ColRef to one of cols). next
// returns (nil, nil) at the end. The caller closes the operator, which
// does not close the source.
func SortStream(ctx context.Context, schema *arrow.Schema, cols []planner.Column, keys []planner.SortKey, next func(context.Context) (arrow.RecordBatch, error)) (Operator, error) {
	if len(cols) != schema.NumFields() {
		return nil, fmt.Errorf("sort: %d columns named for %d", len(cols), schema.NumFields())
	}
	node := &planner.Sort{Input: streamNode{cols: cols}, Keys: keys}
	op, err := newSort(ctx, &streamSource{next: next}, node)
	if err != nil {
		return nil, err
	}
	op.(*sortOp).schema = schema
	return op, nil
}

// streamNode stands for SortStream's source in the Sort node, which
// finds its keys' positions among the input's columns.
type streamNode struct{ cols []planner.Column }

func (n streamNode) Columns() []planner.Column { return n.cols }
func (n streamNode) Inputs() []planner.Node    { return nil }

// streamSource is SortStream's source as an operator.
type streamSource struct {
	next func(context.Context) (arrow.RecordBatch, error)
}

func (s *streamSource) Next(ctx context.Context) (arrow.RecordBatch, error) { return s.next(ctx) }
func (s *streamSource) Close()                                              {}
