package storage

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// concatReader reads its readers one after the other, for writing the
// rows of several sources into the same data files. The readers may
// differ in schema (writeDataFiles shapes each batch to the table's);
// the reported schema is the first reader's. It does not own the
// readers: their owners release them.
type concatReader struct {
	readers []array.RecordReader
	next    int // index of the reader being read
	cur     arrow.RecordBatch
	err     error
}

func (c *concatReader) Retain()  {}
func (c *concatReader) Release() {}

func (c *concatReader) Schema() *arrow.Schema { return c.readers[0].Schema() }

func (c *concatReader) Next() bool {
	c.cur = nil
	for c.err == nil && c.next < len(c.readers) {
		r := c.readers[c.next]
		if r.Next() {
			c.cur = r.RecordBatch()
			return true
		}
		c.err = r.Err()
		c.next++
	}
	return false
}

func (c *concatReader) RecordBatch() arrow.RecordBatch { return c.cur }

// Record is RecordBatch under its older name.
func (c *concatReader) Record() arrow.RecordBatch { return c.cur }

func (c *concatReader) Err() error { return c.err }
