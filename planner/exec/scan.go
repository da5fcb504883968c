package exec

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// scan streams a table's batches (see scanColumns for what it reads).
type scan struct {
	node   *planner.Scan
	stream planner.RecordStream
	cols   scanColumns
	batch  *batchAssembler
}

func newScan(n *planner.Scan) *scan {
	cols := scanColumnsOf(n)
	return &scan{node: n, cols: cols, batch: newBatchAssembler(schemaOf(n.Cols), cols)}
}

func (s *scan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.stream == nil {
		st, err := s.node.Table.Scan(ctx, s.cols.table, s.node.PushedFilter())
		if err != nil {
			return nil, fmt.Errorf("scan %s: %w", s.node.Table.QualifiedName().Name, err)
		}
		s.stream = st
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := s.stream.Next()
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		// Storage names fields after the table; the plan names them after
		// its columns.
		return s.batch.assemble(b), nil
	}
}

func (s *scan) Close() {
	s.batch.release()
	if s.stream != nil {
		s.stream.Close()
		s.stream = nil
	}
}

// oneRow yields one row without columns.
type oneRow struct{ done bool }

func (o *oneRow) Next(context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	o.done = true
	return array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1), nil
}

func (o *oneRow) Close() {}
