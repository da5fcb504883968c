package remote

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

// BatchRows is how many rows a batch of an engine's answer holds.
const BatchRows = 4096

// BatchBuilder builds batches of the result columns' Arrow types from
// the values of the rows an engine sends, as text.
type BatchBuilder struct {
	cols []planner.Column
	b    *array.RecordBuilder
	rows int
}

func NewBatchBuilder(cols []planner.Column) *BatchBuilder {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
	}
	return &BatchBuilder{cols: cols, b: array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))}
}

// appendNull appends NULL to column i of the current row.
func (bb *BatchBuilder) AppendNull(i int) { bb.b.Field(i).AppendNull() }

// appendText appends to column i of the current row the value whose
// text form is s, read as a literal of the column's type is.
func (bb *BatchBuilder) AppendText(i int, s string) error {
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
func (bb *BatchBuilder) EndRow() { bb.rows++ }

// full says the current batch has its rows.
func (bb *BatchBuilder) Full() bool { return bb.rows >= BatchRows }

// flush returns the rows appended since the last flush as one batch, or
// nil when there are none.
func (bb *BatchBuilder) Flush() arrow.RecordBatch {
	if bb.rows == 0 {
		return nil
	}
	bb.rows = 0
	return bb.b.NewRecordBatch()
}

func (bb *BatchBuilder) Release() { bb.b.Release() }
