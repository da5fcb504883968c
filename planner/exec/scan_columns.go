package exec

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// scanColumns is what a scan of n asks storage for: the table columns it
// reads, and which of n's columns those are. A column only a proven row
// filter names (planner.Scan.Unread) is not read, and a scan that reads
// no column still asks for the first one, for its row counts.
type scanColumns struct {
	table []int
	// read[i] says whether n.Cols[i] comes from storage; nil when all do.
	read []bool
}

func scanColumnsOf(n *planner.Scan) scanColumns {
	if n.Unread == nil {
		if len(n.TableColumns) == 0 {
			return scanColumns{table: []int{0}, read: []bool{}}
		}
		return scanColumns{table: n.TableColumns}
	}
	sc := scanColumns{read: make([]bool, len(n.Cols))}
	for i, c := range n.TableColumns {
		if !n.Unread[i] {
			sc.table = append(sc.table, c)
			sc.read[i] = true
		}
	}
	if len(sc.table) == 0 {
		sc.table = []int{0}
	}
	return sc
}

// batchAssembler puts storage batches under a scan's schema: read columns
// are storage's arrays, shared, and unread ones NULLs, sliced from one
// array per column kept for the scan's life. Nothing above reads an
// unread column's values: only the proven filter names it.
type batchAssembler struct {
	schema *arrow.Schema
	read   []bool
	nulls  []arrow.Array // by schema position, for unread columns
}

func newBatchAssembler(schema *arrow.Schema, sc scanColumns) *batchAssembler {
	return &batchAssembler{schema: schema, read: sc.read, nulls: make([]arrow.Array, schema.NumFields())}
}

// assemble takes b's reference and returns the scan's batch.
func (a *batchAssembler) assemble(b arrow.RecordBatch) arrow.RecordBatch {
	defer b.Release()
	rows := b.NumRows()
	if a.read == nil {
		return array.NewRecordBatch(a.schema, b.Columns(), rows)
	}
	cols := make([]arrow.Array, a.schema.NumFields())
	next := 0
	for i := range cols {
		if a.read[i] {
			cols[i] = b.Column(next)
			next++
			continue
		}
		cols[i] = a.nullColumn(i, int(rows))
		defer cols[i].Release()
	}
	return array.NewRecordBatch(a.schema, cols, rows)
}

func (a *batchAssembler) nullColumn(i, rows int) arrow.Array {
	if a.nulls[i] == nil || a.nulls[i].Len() < rows {
		if a.nulls[i] != nil {
			a.nulls[i].Release()
		}
		a.nulls[i] = array.MakeArrayOfNull(memory.DefaultAllocator, a.schema.Field(i).Type, max(rows, defaultNullColumnRows))
	}
	return array.NewSlice(a.nulls[i], 0, int64(rows))
}

// defaultNullColumnRows is a storage batch's usual size, so that one
// array serves every batch.
const defaultNullColumnRows = 8192

func (a *batchAssembler) release() {
	for i, n := range a.nulls {
		if n != nil {
			n.Release()
			a.nulls[i] = nil
		}
	}
}
