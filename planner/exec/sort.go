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
		op.(*sortOp).keep = int(keep)
	}
	return op, nil
}

func newSort(ctx context.Context, in Operator, n *planner.Sort) (Operator, error) {
	s := &sortOp{input: in, node: n, schema: schemaOf(n.Columns()), mem: newReservation(ctx, "Sort")}
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
	var batchMem int64
	defer func() {
		for _, b := range batches {
			b.Release()
		}
		// The batches are now copied into cols, which stay charged.
		s.mem.shrink(batchMem)
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
		if err := s.mem.grow(size); err != nil {
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
	ncols := len(s.schema.Fields())
	s.cols = make([]arrow.Array, ncols)
	for c := 0; c < ncols; c++ {
		parts := make([]arrow.Array, len(batches))
		for i, b := range batches {
			parts[i] = b.Column(c)
		}
		if len(parts) == 0 {
			s.cols[c] = array.MakeArrayOfNull(memory.DefaultAllocator, s.schema.Field(c).Type, 0)
			continue
		}
		if err := s.mem.grow(arraysBytes(parts)); err != nil {
			return err
		}
		col, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return fmt.Errorf("sort: %w", err)
		}
		s.cols[c] = col
	}
	cmps := make([]func(i, j int) int, len(s.keyPos))
	for k, pos := range s.keyPos {
		c, err := typedComparator(s.cols[pos], s.node.Keys[k].Expr.Type(), s.node.Keys[k].Desc, s.node.Keys[k].NullsFirst)
		if err != nil {
			return err
		}
		cmps[k] = c
	}
	if err := s.mem.grow(4 * int64(s.rows)); err != nil {
		return err
	}
	order := make([]int32, s.rows)
	for i := range order {
		order[i] = int32(i)
	}
	if err := sortIndices(ctx, order, cmps); err != nil {
		return err
	}
	s.order = order
	return nil
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
	if s.order == nil {
		if err := s.load(ctx); err != nil {
			return nil, err
		}
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
	s.mem.close()
	s.input.Close()
}

// comparator orders two rows of one column, with PostgreSQL's NULL
// placement.
func comparator(a arrow.Array, desc, nullsFirst bool) (func(i, j int) int, error) {
	var base func(i, j int) int
	switch a.DataType().ID() {
	case arrow.INT16:
		v := values[int16](a)
		base = func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case arrow.INT32, arrow.DATE32:
		v := values[int32](a)
		base = func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		v := values[int64](a)
		base = func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case arrow.INTERVAL_MONTH_DAY_NANO:
		v := values[arrow.MonthDayNanoInterval](a)
		base = func(i, j int) int {
			return types.CompareIntervals(types.IntervalFromArrow(v[i]), types.IntervalFromArrow(v[j]))
		}
	case arrow.UINT32:
		v := values[uint32](a)
		base = func(i, j int) int { return cmp.Compare(v[i], v[j]) }
	case arrow.FLOAT32:
		v := values[float32](a)
		base = func(i, j int) int { return floatCmp(float64(v[i]), float64(v[j])) }
	case arrow.FLOAT64:
		v := values[float64](a)
		base = func(i, j int) int { return floatCmp(v[i], v[j]) }
	case arrow.DECIMAL128:
		v := values[decimal128.Num](a)
		base = func(i, j int) int { return v[i].Cmp(v[j]) }
	case arrow.EXTENSION:
		g, ok := a.(*types.NumericArray)
		if !ok {
			return nil, fmt.Errorf("sorting %s is not implemented", a.DataType())
		}
		base = func(i, j int) int { return types.CompareNumericBytes(g.Bytes(i), g.Bytes(j)) }
	case arrow.STRING:
		s := a.(*array.String)
		base = func(i, j int) int { return cmp.Compare(s.Value(i), s.Value(j)) }
	case arrow.FIXED_SIZE_BINARY, arrow.BINARY:
		s := a.(bytesValues)
		base = func(i, j int) int { return bytes.Compare(s.Value(i), s.Value(j)) }
	case arrow.BOOL:
		b := a.(*array.Boolean)
		base = func(i, j int) int { return boolCmp(b.Value(i), b.Value(j)) }
	case arrow.NULL:
		base = func(int, int) int { return 0 }
	case arrow.LIST:
		// Arrays order element by element (NULL elements after the
		// others), a prefix before the longer array, as PostgreSQL's.
		l := a.(*array.List)
		elem, err := comparator(l.ListValues(), false, false)
		if err != nil {
			return nil, err
		}
		base = func(i, j int) int {
			si, ei := l.ValueOffsets(i)
			sj, ej := l.ValueOffsets(j)
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
	return withOrder(a, base, desc, nullsFirst), nil
}

// withOrder wraps a comparison of two non-null values with the sort
// direction and PostgreSQL's NULL placement.
func withOrder(a arrow.Array, base func(i, j int) int, desc, nullsFirst bool) func(i, j int) int {
	hasNulls := a.NullN() > 0
	return func(i, j int) int {
		if hasNulls {
			ni, nj := a.IsNull(i), a.IsNull(j)
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
