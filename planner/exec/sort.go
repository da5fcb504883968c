package exec

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// outputBatchRows is the size of batches that operators which materialise
// (sort, aggregate) emit.
const outputBatchRows = 8192

// sortOp reads all of its input (the state a sort must hold), orders the
// row indices, and emits batches in order.
type sortOp struct {
	input  Operator
	node   *planner.Sort
	keyPos []int
	schema *arrow.Schema

	cols  []arrow.Array // the input, concatenated per column
	order []int32
	pos   int
	rows  int
	mem   reservation
	// keep > 0 makes this a top-N sort (ORDER BY ... LIMIT): only the
	// first keep rows are ever needed, so the buffer is cut back to them
	// whenever it grows past topNSlack times that, and memory stays
	// bounded by the limit rather than the input.
	keep int

	loaded bool
	// spill is where a sort past its budget writes sorted runs (nil: it
	// cannot spill); runs are those written, merge reads them back in
	// order; ins counts what spilled for EXPLAIN ANALYZE.
	spill *SpillArea
	ins   *Instrumentation
	runs  []*spillFile
	merge *sortMerge
	// owner is the plan node what spills is counted against: the Sort,
	// or the window that sorts its input through this sort.
	owner planner.Node
	// smallMerge makes a spilled sort return batches of spill size
	// (spillBatchRows) rather than outputBatchRows: its reader holds a
	// run of them.
	smallMerge bool
}

// topNSlack is how far past its limit a top-N sort's buffer may grow
// before it is sorted and cut back; a few times the limit amortises the
// sorting, and small limits still compact in reasonable batches.
const topNSlack = 4

// newTopNSort is a sort of which only the first keep rows are read.
func newTopNSort(ctx context.Context, in Operator, n *planner.Sort, keep int64) (Operator, error) {
	op, err := newSort(ctx, in, n)
	if err != nil {
		return nil, err
	}
	if keep > 0 && keep < 1<<30 {
		// Its state is bounded by the limit: it never spills.
		op.(*sortOp).keep = int(keep)
		op.(*sortOp).spill = nil
	}
	return op, nil
}

func newSort(ctx context.Context, in Operator, n *planner.Sort) (Operator, error) {
	s := &sortOp{input: in, node: n, schema: schemaOf(n.Columns()), mem: newReservation(ctx, "Sort"),
		spill: spillAreaFor(ctx), ins: instrumentationFrom(ctx), owner: n}
	for _, k := range n.Keys {
		cr, ok := k.Expr.(*planner.ColRef)
		if !ok {
			in.Close()
			return nil, fmt.Errorf("sort key %s is not a column", k.Expr)
		}
		pos := -1
		for i, c := range n.Input.Columns() {
			if c.ID == cr.ID {
				pos = i
			}
		}
		if pos < 0 {
			in.Close()
			return nil, fmt.Errorf("sort key %s not in input", cr)
		}
		s.keyPos = append(s.keyPos, pos)
	}
	return s, nil
}

func (s *sortOp) load(ctx context.Context) error {
	var batches []arrow.RecordBatch
	// batchMem is what the buffered batches hold; headroom is what a sort
	// that may spill reserves on top to sort them (sortBuffered).
	var batchMem, headroom int64
	defer func() {
		for _, b := range batches {
			b.Release()
		}
		s.mem.shrink(batchMem + headroom)
	}()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := s.input.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		size := batchBytes(b)
		if s.spill != nil {
			// The batch, and room to sort what is buffered: the rows'
			// index and, for more than one batch, their copy in the
			// concatenated columns (sortBuffered). Past the budget the
			// buffered rows go to a sorted run on disk.
			room := sortRoom(len(batches)+1, batchMem+size, s.rows+int(b.NumRows()))
			if !s.mem.tryGrow(size + room - headroom) {
				if len(batches) > 0 {
					s.mem.shrink(headroom)
					headroom = 0
					err := s.spillRun(ctx, batches)
					for _, old := range batches {
						old.Release()
					}
					s.mem.shrink(batchMem)
					batches, batchMem, s.rows = nil, 0, 0
					if err != nil {
						b.Release()
						return err
					}
				}
				room = sortRoom(1, size, int(b.NumRows()))
				if err := s.mem.grow(size + room); err != nil {
					b.Release()
					return err
				}
			}
			headroom = room
		} else if err := s.mem.grow(size); err != nil {
			b.Release()
			return err
		}
		batches = append(batches, b)
		batchMem += size
		s.rows += int(b.NumRows())
		if s.keep > 0 && s.rows > max(topNSlack*s.keep, outputBatchRows) {
			top, err := s.topRows(ctx, batches)
			if err != nil {
				return err
			}
			for _, old := range batches {
				old.Release()
			}
			s.mem.shrink(batchMem)
			batches, batchMem = nil, 0
			topMem := batchBytes(top)
			if err := s.mem.grow(topMem); err != nil {
				top.Release()
				return err
			}
			batchMem = topMem
			batches = []arrow.RecordBatch{top}
			s.rows = int(top.NumRows())
		}
	}
	s.mem.shrink(headroom)
	headroom = 0
	if len(s.runs) > 0 {
		// What is still buffered becomes the last run, and the runs are
		// merged.
		if len(batches) > 0 {
			if err := s.spillRun(ctx, batches); err != nil {
				return err
			}
		}
		return s.startMerge(ctx)
	}
	// The columns, charged until Close, replace the batches.
	cols, order, _, err := s.sortBuffered(ctx, batches)
	if err != nil {
		return err
	}
	if len(batches) == 1 {
		// The columns are the batch's: its charge stays.
		batchMem = 0
	}
	s.cols, s.order = cols, order
	return nil
}

// sortRoom is what sorting n buffered batches of bytes and rows takes on
// top of them (sortBuffered).
func sortRoom(n int, bytes int64, rows int) int64 {
	room := 4 * int64(rows)
	if n > 1 {
		room += bytes
	}
	return room
}

// sortBuffered concatenates the buffered batches per column and orders
// their rows, reserving what the columns and the order hold (charged,
// which the caller gives back when it drops them). A single batch's
// columns are its own: they are not copied nor charged again.
func (s *sortOp) sortBuffered(ctx context.Context, batches []arrow.RecordBatch) (cols []arrow.Array, order []int32, charged int64, err error) {
	ncols := len(s.schema.Fields())
	cols = make([]arrow.Array, ncols)
	defer func() {
		if err != nil {
			releaseAll(cols)
			s.mem.shrink(charged)
			cols, order, charged = nil, nil, 0
		}
	}()
	for c := 0; c < ncols; c++ {
		if len(batches) == 1 {
			cols[c] = batches[0].Column(c)
			cols[c].Retain()
			continue
		}
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		if len(parts) == 0 {
			cols[c] = array.MakeArrayOfNull(memory.DefaultAllocator, s.schema.Field(c).Type, 0)
			continue
		}
		size := arraysBytes(parts)
		if err := s.mem.grow(size); err != nil {
			return nil, nil, 0, err
		}
		charged += size
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, nil, 0, fmt.Errorf("sort: %w", err)
		}
		cols[c] = col
	}
	rows := 0
	for _, b := range batches {
		rows += int(b.NumRows())
	}
	cmps := make([]func(i, j int) int, len(s.keyPos))
	for k, pos := range s.keyPos {
		c, err := typedComparator(cols[pos], s.node.Keys[k].Expr.Type(), s.node.Keys[k].Desc, s.node.Keys[k].NullsFirst)
		if err != nil {
			return nil, nil, 0, err
		}
		cmps[k] = c
	}
	if err := s.mem.grow(4 * int64(rows)); err != nil {
		return nil, nil, 0, err
	}
	charged += 4 * int64(rows)
	order = make([]int32, rows)
	for i := range order {
		order[i] = int32(i)
	}
	if err := sortIndices(ctx, order, cmps); err != nil {
		return nil, nil, 0, err
	}
	return cols, order, charged, nil
}

// sortIndices orders row indices stably by cmps. Once ctx is cancelled
// (it is looked at every cancelCheckRows comparisons) the remaining
// comparisons answer "equal", so the sort ends quickly, and the error is
// ctx's.
func sortIndices(ctx context.Context, order []int32, cmps []func(i, j int) int) error {
	var err error
	calls := 0
	slices.SortStableFunc(order, func(a, b int32) int {
		if err != nil {
			return 0
		}
		if calls++; calls == cancelCheckRows {
			calls = 0
			if err = ctx.Err(); err != nil {
				return 0
			}
		}
		for _, c := range cmps {
			if r := c(int(a), int(b)); r != 0 {
				return r
			}
		}
		return 0
	})
	if err != nil {
		return err
	}
	return ctx.Err()
}

func (s *sortOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.loaded {
		s.loaded = true
		if err := s.load(ctx); err != nil {
			s.order, s.rows = nil, 0
			return nil, err
		}
	}
	if s.merge != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return s.merge.next(ctx)
	}
	if s.pos >= s.rows {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	end := min(s.pos+outputBatchRows, s.rows)
	idx := newFixed(arrow.PrimitiveTypes.Int32, s.order[s.pos:end], nil, 0)
	defer idx.Release()
	out := make([]arrow.Array, len(s.cols))
	for c, col := range s.cols {
		a, err := takeArray(ctx, col, idx)
		if err != nil {
			for _, o := range out[:c] {
				o.Release()
			}
			return nil, fmt.Errorf("sort: %w", err)
		}
		out[c] = a
	}
	n := end - s.pos
	s.pos = end
	b := array.NewRecordBatch(s.schema, out, int64(n))
	for _, a := range out {
		a.Release()
	}
	return b, nil
}

func (s *sortOp) Close() {
	for _, c := range s.cols {
		if c != nil {
			c.Release()
		}
	}
	s.cols = nil
	s.order = nil
	s.closeSpill()
	s.mem.close()
	s.input.Close()
}

// comparator orders two rows of one column, with PostgreSQL's NULL
// placement.
func comparator(a arrow.Array, desc, nullsFirst bool) (func(i, j int) int, error) {
	return pairComparator(a, a, desc, nullsFirst)
}

// pairComparator orders row i of a against row j of b, two arrays of one
// type: the comparison of a sort, which a spilled sort's merge also uses
// between the batches of two runs.
func pairComparator(a, b arrow.Array, desc, nullsFirst bool) (func(i, j int) int, error) {
	var base func(i, j int) int
	switch a.DataType().ID() {
	case arrow.INT16:
		va, vb := values[int16](a), values[int16](b)
		base = func(i, j int) int { return cmp.Compare(va[i], vb[j]) }
	case arrow.INT32, arrow.DATE32:
		va, vb := values[int32](a), values[int32](b)
		base = func(i, j int) int { return cmp.Compare(va[i], vb[j]) }
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		va, vb := values[int64](a), values[int64](b)
		base = func(i, j int) int { return cmp.Compare(va[i], vb[j]) }
	case arrow.INTERVAL_MONTH_DAY_NANO:
		va, vb := values[arrow.MonthDayNanoInterval](a), values[arrow.MonthDayNanoInterval](b)
		base = func(i, j int) int {
			return types.CompareIntervals(types.IntervalFromArrow(va[i]), types.IntervalFromArrow(vb[j]))
		}
	case arrow.UINT32:
		va, vb := values[uint32](a), values[uint32](b)
		base = func(i, j int) int { return cmp.Compare(va[i], vb[j]) }
	case arrow.FLOAT32:
		va, vb := values[float32](a), values[float32](b)
		base = func(i, j int) int { return floatCmp(float64(va[i]), float64(vb[j])) }
	case arrow.FLOAT64:
		va, vb := values[float64](a), values[float64](b)
		base = func(i, j int) int { return floatCmp(va[i], vb[j]) }
	case arrow.DECIMAL128:
		va, vb := values[decimal128.Num](a), values[decimal128.Num](b)
		base = func(i, j int) int { return va[i].Cmp(vb[j]) }
	case arrow.DECIMAL64:
		va, vb := values[int64](a), values[int64](b)
		base = func(i, j int) int { return cmp.Compare(va[i], vb[j]) }
	case arrow.EXTENSION:
		ga, ok := a.(*types.NumericArray)
		gb, okb := b.(*types.NumericArray)
		if !ok || !okb {
			return nil, fmt.Errorf("sorting %s is not implemented", a.DataType())
		}
		base = func(i, j int) int { return types.CompareNumericBytes(ga.Bytes(i), gb.Bytes(j)) }
	case arrow.STRING:
		sa, sb := a.(*array.String), b.(*array.String)
		base = func(i, j int) int { return cmp.Compare(sa.Value(i), sb.Value(j)) }
	case arrow.FIXED_SIZE_BINARY, arrow.BINARY:
		sa, sb := a.(bytesValues), b.(bytesValues)
		base = func(i, j int) int { return bytes.Compare(sa.Value(i), sb.Value(j)) }
	case arrow.BOOL:
		ba, bb := a.(*array.Boolean), b.(*array.Boolean)
		base = func(i, j int) int { return boolCmp(ba.Value(i), bb.Value(j)) }
	case arrow.NULL:
		base = func(int, int) int { return 0 }
	case arrow.LIST:
		// Arrays order element by element (NULL elements after the
		// others), a prefix before the longer array, as PostgreSQL's.
		la, lb := a.(*array.List), b.(*array.List)
		elem, err := pairComparator(la.ListValues(), lb.ListValues(), false, false)
		if err != nil {
			return nil, err
		}
		base = func(i, j int) int {
			si, ei := la.ValueOffsets(i)
			sj, ej := lb.ValueOffsets(j)
			for k := int64(0); si+k < ei && sj+k < ej; k++ {
				if c := elem(int(si+k), int(sj+k)); c != 0 {
					return c
				}
			}
			return cmp.Compare(ei-si, ej-sj)
		}
	default:
		return nil, fmt.Errorf("sorting %s is not implemented", a.DataType())
	}
	return withOrder(a, b, base, desc, nullsFirst), nil
}

// withOrder wraps a comparison of two non-null values, row i of a and row
// j of b, with the sort direction and PostgreSQL's NULL placement.
func withOrder(a, b arrow.Array, base func(i, j int) int, desc, nullsFirst bool) func(i, j int) int {
	hasNulls := a.NullN() > 0 || b.NullN() > 0
	return func(i, j int) int {
		if hasNulls {
			ni, nj := a.IsNull(i), b.IsNull(j)
			switch {
			case ni && nj:
				return 0
			case ni:
				if nullsFirst {
					return -1
				}
				return 1
			case nj:
				if nullsFirst {
					return 1
				}
				return -1
			}
		}
		r := base(i, j)
		if desc {
			return -r
		}
		return r
	}
}

// topRows sorts the buffered batches and returns their first s.keep rows
// as one batch.
func (s *sortOp) topRows(ctx context.Context, batches []arrow.RecordBatch) (arrow.RecordBatch, error) {
	ncols := len(s.schema.Fields())
	cols := make([]arrow.Array, ncols)
	defer releaseAll(cols)
	for c := 0; c < ncols; c++ {
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("sort: %w", err)
		}
		cols[c] = col
	}
	n := cols[0].Len()
	cmps := make([]func(i, j int) int, len(s.keyPos))
	for k, pos := range s.keyPos {
		c, err := typedComparator(cols[pos], s.node.Keys[k].Expr.Type(), s.node.Keys[k].Desc, s.node.Keys[k].NullsFirst)
		if err != nil {
			return nil, err
		}
		cmps[k] = c
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if err := sortIndices(ctx, order, cmps); err != nil {
		return nil, err
	}
	order = order[:min(s.keep, n)]
	out := make([]arrow.Array, ncols)
	for c := range cols {
		t, err := takeIndices(cols[c], order)
		if err != nil {
			releaseAll(out[:c])
			return nil, err
		}
		out[c] = t
	}
	defer releaseAll(out)
	return array.NewRecordBatch(s.schema, out, int64(len(order))), nil
}
