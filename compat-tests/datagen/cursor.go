package datagen

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// rowSource generates one table in units: a unit is one row, or, for
// partsupp and lineitem, all the rows of one part or one order.
type rowSource interface {
	// units is how many units the table has.
	units() int64
	// bind takes the typed column builders of b, in schema order.
	bind(b *array.RecordBuilder)
	// appendUnit appends the rows of unit n to the bound builders.
	appendUnit(n int64)
}

// cursor builds a table's batches one after the other, holding only the
// batch being built.
type cursor struct {
	src       rowSource
	b         *array.RecordBuilder
	next      int64
	batchRows int
}

func newCursor(t Table, src rowSource, batchRows int) *cursor {
	b := array.NewRecordBuilder(memory.DefaultAllocator, t.Schema)
	src.bind(b)
	return &cursor{src: src, b: b, batchRows: max(1, batchRows)}
}

// batch returns the next batch, or nil after the last. A batch holds
// batchRows rows, the last one fewer; a batch of a multi-row unit table
// ends at a unit boundary and may hold up to six rows more.
func (c *cursor) batch() arrow.RecordBatch {
	units := c.src.units()
	if c.next >= units {
		return nil
	}
	c.b.Reserve(c.batchRows)
	for c.next < units && c.b.Field(0).Len() < c.batchRows {
		c.src.appendUnit(c.next)
		c.next++
	}
	return c.b.NewRecordBatch()
}

func (c *cursor) release() { c.b.Release() }

// builders hands out a record builder's fields in order, typed.
type builders struct {
	b *array.RecordBuilder
	i int
}

func (f *builders) field() array.Builder {
	f.i++
	return f.b.Field(f.i - 1)
}
func (f *builders) int64() *array.Int64Builder { return f.field().(*array.Int64Builder) }
func (f *builders) int32() *array.Int32Builder { return f.field().(*array.Int32Builder) }
func (f *builders) str() *array.StringBuilder  { return f.field().(*array.StringBuilder) }
func (f *builders) decimal() *array.Decimal128Builder {
	return f.field().(*array.Decimal128Builder)
}
func (f *builders) date() *array.Date32Builder { return f.field().(*array.Date32Builder) }
