package trino

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// batchRows is the most rows a batch of the answer holds, as for every
// remote engine (package remote's batch builder).
const batchRows = 4096

// batchBuilder builds batches of the result columns' Arrow types from
// values sent as text. It is package remote's batch builder, which that
// package does not export.
type batchBuilder struct {
	cols []planner.Column
	b    *array.RecordBuilder
	rows int
}

func newBatchBuilder(cols []planner.Column) *batchBuilder {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
	}
	return &batchBuilder{cols: cols, b: array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))}
}

// appendNull appends NULL to column i of the current row.
func (bb *batchBuilder) appendNull(i int) { bb.b.Field(i).AppendNull() }

// appendText appends to column i of the current row the value whose
// text form is s, read as a literal of the column's type is.
func (bb *batchBuilder) appendText(i int, s string) error {
	t := bb.cols[i].Type
	v, err := types.ParseText(s, t)
	if err != nil {
		// The value itself stays out of the message: it may be a raw
		// stored value the caller is not shown.
		return pgerror.New(pgerror.InvalidTextRepresentation,
			"the engine returned a value that is not of type %s for result column %d", t.Name(), i+1)
	}
	if err := exec.AppendValue(bb.b.Field(i), t, v); err != nil {
		return fmt.Errorf("result column %d: %w", i+1, err)
	}
	return nil
}

// endRow counts a row whose every column has been appended.
func (bb *batchBuilder) endRow() { bb.rows++ }

// flush returns the rows appended since the last flush as one batch, or
// nil when there are none.
func (bb *batchBuilder) flush() arrow.RecordBatch {
	if bb.rows == 0 {
		return nil
	}
	bb.rows = 0
	return bb.b.NewRecordBatch()
}

func (bb *batchBuilder) release() { bb.b.Release() }
