package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// A window that may spill (its query has a spill area and a memory
// limit) does not hold its whole input. Its input, with the partition
// keys, ORDER BY keys and arguments evaluated beside each row, goes
// through a sort that spills (sort_spill.go), by partition keys then
// ORDER BY keys as the window's own sort orders them; the sorted rows are
// read back a run of whole partitions at a time, at least
// windowChunkRows rows unless the input ends, and every function is
// computed over that run as over the whole sorted input (every function
// and frame stays within its partition). Memory is then bounded by the
// sort's and the largest partition's, not the input's; a partition that
// does not fit in the budget by itself still fails with 53200. The rows
// come out in the order of the window in memory: both sorts are stable.

// windowChunkRows is the fewest rows a run of partitions computed at once
// holds, unless the input ends first or it holds a sixteenth of the
// budget: enough to spread the per-run work over many rows.
const windowChunkRows = outputBatchRows

// windowSpill is the state of a window that sorts through a spilling
// sort.
type windowSpill struct {
	sorted *sortOp
	// The layout of the sorted batches: the input's columns, then the
	// partition keys, the ORDER BY keys and each function's arguments.
	ncols, nparts, norders int
	nargs                  []int

	// pending are the sorted rows read and not computed yet (whole
	// partitions but for the last), held under pendingMem.
	pending     []arrow.RecordBatch
	pendingRows int
	pendingMem  int64
	eof         bool
	// chunkBytes is the memory of pending rows that makes a run ready
	// before windowChunkRows.
	chunkBytes int64
}

// newWindowSpill sets w up to sort its input through a sort that spills
// to area.
func (w *windowOp) newWindowSpill(ctx context.Context, area *SpillArea) {
	inCols := w.node.Input.Columns()
	sp := &windowSpill{ncols: len(inCols), nparts: len(w.parts), norders: len(w.orders),
		chunkBytes: max(MemoryBudgetFrom(ctx).Limit()/16, minSpillBatchBytes)}
	var fields []arrow.Field
	for _, c := range inCols {
		fields = append(fields, arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true})
	}
	field := func(e planner.Expr) {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("k%d", len(fields)), Type: e.Type().Arrow(), Nullable: true})
	}
	sortNode := &planner.Sort{Input: w.node.Input}
	var keyPos []int
	for _, e := range w.node.PartitionBy {
		keyPos = append(keyPos, len(fields))
		sortNode.Keys = append(sortNode.Keys, planner.SortKey{Expr: e})
		field(e)
	}
	for _, k := range w.node.OrderBy {
		keyPos = append(keyPos, len(fields))
		sortNode.Keys = append(sortNode.Keys, k)
		field(k.Expr)
	}
	for _, f := range w.node.Funcs {
		args := callArgs(f)
		sp.nargs = append(sp.nargs, len(args))
		for _, a := range args {
			field(a)
		}
	}
	schema := arrow.NewSchema(fields, nil)
	sp.sorted = &sortOp{input: &windowEval{w: w, schema: schema}, node: sortNode, keyPos: keyPos, schema: schema,
		mem: newReservation(ctx, "WindowAgg"), spill: area, ins: instrumentationFrom(ctx), owner: w.node,
		smallMerge: true}
	w.spill = sp
}

// windowEval is a window's input with its keys and arguments evaluated
// beside each row.
type windowEval struct {
	w      *windowOp
	schema *arrow.Schema
}

func (e *windowEval) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := e.w.input.Next(ctx)
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	cols := append([]arrow.Array{}, b.Columns()...)
	for _, c := range cols {
		c.Retain()
	}
	defer func() { releaseAll(cols) }()
	evs := append(append([]evaluator{}, e.w.parts...), e.w.orders...)
	for _, args := range e.w.args {
		evs = append(evs, args...)
	}
	for _, ev := range evs {
		a, err := ev.eval(ctx, b)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(e.schema, cols, b.NumRows()), nil
}

// Close closes nothing: the window closes its input.
func (e *windowEval) Close() {}

// nextSpilled returns the next batch of a window that sorts through a
// spilling sort.
func (w *windowOp) nextSpilled(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if w.out != nil {
			if w.pos < w.out.NumRows() {
				end := min(w.pos+outputBatchRows, w.out.NumRows())
				b := w.out.NewSlice(w.pos, end)
				w.pos = end
				return b, nil
			}
			w.out.Release()
			w.out, w.pos = nil, 0
			// Only the rows not computed yet stay charged.
			w.mem.shrink(w.mem.held - w.spill.pendingMem)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk, err := w.spill.nextChunk(ctx, w)
		if err != nil || chunk == nil {
			return nil, err
		}
		out, err := w.computeChunk(ctx, chunk)
		releaseBatches(chunk)
		if err != nil {
			return nil, err
		}
		w.out = out
	}
}

// nextChunk reads sorted rows until it holds at least windowChunkRows
// rows of whole partitions, or the input ends, and returns those
// partitions' rows; nil when nothing is left. The rows of a partition
// that goes on stay pending.
func (sp *windowSpill) nextChunk(ctx context.Context, w *windowOp) ([]arrow.RecordBatch, error) {
	for !sp.eof {
		b, err := sp.sorted.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			sp.eof = true
			break
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		size := batchBytes(b)
		if err := w.mem.grow(size); err != nil {
			b.Release()
			return nil, err
		}
		sp.pendingMem += size
		if sp.pendingRows+int(b.NumRows()) < windowChunkRows && sp.pendingMem < sp.chunkBytes {
			sp.add(b)
			continue
		}
		cut, err := sp.lastPartitionStart(b)
		if err != nil {
			b.Release()
			return nil, err
		}
		if cut < 0 {
			sp.add(b)
			continue
		}
		// The rows before cut end the partitions pending; the rest
		// start the next run.
		head, tail := b.NewSlice(0, int64(cut)), b.NewSlice(int64(cut), b.NumRows())
		b.Release()
		chunk := append(sp.pending, head)
		sp.pending, sp.pendingRows = []arrow.RecordBatch{tail}, int(tail.NumRows())
		sp.pendingMem = batchBytes(tail)
		return chunk, nil
	}
	if sp.pendingRows == 0 {
		return nil, nil
	}
	chunk := sp.pending
	sp.pending, sp.pendingRows, sp.pendingMem = nil, 0, 0
	return chunk, nil
}

func (sp *windowSpill) add(b arrow.RecordBatch) {
	sp.pending = append(sp.pending, b)
	sp.pendingRows += int(b.NumRows())
}

// lastPartitionStart is the row of b that starts the last partition
// beginning in b (the first row when it starts a partition after the
// pending rows), -1 when every row of b goes on the pending rows'
// partition. Partitions are told apart as windowRows tells them.
func (sp *windowSpill) lastPartitionStart(b arrow.RecordBatch) (int, error) {
	if sp.nparts == 0 {
		return -1, nil
	}
	keys := b.Columns()[sp.ncols : sp.ncols+sp.nparts]
	same, err := equalRows(keys, keys)
	if err != nil {
		return -1, err
	}
	for r := int(b.NumRows()) - 1; r > 0; r-- {
		if !same(r-1, r) {
			return r, nil
		}
	}
	if len(sp.pending) == 0 {
		return -1, nil
	}
	last := sp.pending[len(sp.pending)-1]
	same, err = equalRows(last.Columns()[sp.ncols:sp.ncols+sp.nparts], keys)
	if err != nil {
		return -1, err
	}
	if !same(int(last.NumRows())-1, 0) {
		return 0, nil
	}
	return -1, nil
}

// equalRows tells whether row i of the arrays a and row j of b (of the
// same types) are equal on every array, NULLs equal.
func equalRows(a, b []arrow.Array) (func(i, j int) bool, error) {
	cmps := make([]func(i, j int) int, len(a))
	for k := range a {
		c, err := pairComparator(a[k], b[k], false, false)
		if err != nil {
			return nil, err
		}
		cmps[k] = c
	}
	return func(i, j int) bool {
		for _, c := range cmps {
			if c(i, j) != 0 {
				return false
			}
		}
		return true
	}, nil
}

// computeChunk computes the window over sorted batches of whole
// partitions.
func (w *windowOp) computeChunk(ctx context.Context, chunk []arrow.RecordBatch) (arrow.RecordBatch, error) {
	sp := w.spill
	in := &windowInput{}
	defer in.release()
	schema := sp.sorted.schema
	cols := make([]arrow.Array, len(schema.Fields()))
	var concatenated int64
	defer func() { w.mem.shrink(concatenated) }()
	for c := range cols {
		parts := make([]arrow.Array, len(chunk))
		for i, b := range chunk {
			parts[i] = b.Column(c)
		}
		if len(parts) == 1 {
			parts[0].Retain()
			cols[c] = parts[0]
			continue
		}
		size := arraysBytes(parts)
		if err := w.mem.grow(size); err != nil {
			releaseAll(cols)
			return nil, err
		}
		concatenated += size
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			releaseAll(cols)
			return nil, fmt.Errorf("window: %w", err)
		}
		cols[c] = a
	}
	for _, b := range chunk {
		in.rows += int(b.NumRows())
	}
	next := 0
	take := func(n int) []arrow.Array {
		s := cols[next : next+n]
		next += n
		return s
	}
	in.cols = take(sp.ncols)
	in.parts = take(sp.nparts)
	in.orders = take(sp.norders)
	for _, n := range sp.nargs {
		in.args = append(in.args, take(n))
	}
	return w.computeSorted(ctx, in)
}

func releaseBatches(bs []arrow.RecordBatch) {
	for _, b := range bs {
		b.Release()
	}
}

// close releases what the spilling window holds and closes its sort.
func (sp *windowSpill) close() {
	releaseBatches(sp.pending)
	sp.pending = nil
	sp.sorted.Close()
}
