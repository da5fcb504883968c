package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// windowOp computes the window functions of one window definition. It
// holds its whole input (the state a window needs: a frame may reach any
// row of a partition), evaluates the keys and arguments per batch, sorts
// the rows by partition and ORDER BY, computes every function over the
// sorted rows, and emits the sorted input with the results appended.
type windowOp struct {
	input  Operator
	node   *planner.Window
	schema *arrow.Schema

	parts  []evaluator // PARTITION BY keys
	orders []evaluator // ORDER BY keys
	args   [][]evaluator

	out  arrow.RecordBatch
	pos  int64
	done bool
	mem  reservation
	// spill is the state of a window that sorts its input through a
	// spilling sort and computes a run of partitions at a time (nil: it
	// holds its whole input).
	spill *windowSpill
}

func newWindow(ctx context.Context, in Operator, n *planner.Window) (Operator, error) {
	w := &windowOp{input: in, node: n, schema: schemaOf(n.Columns()), mem: newReservation(ctx, "WindowAgg")}
	cols := n.Input.Columns()
	fail := func(err error) (Operator, error) {
		in.Close()
		return nil, err
	}
	for _, e := range n.PartitionBy {
		ev, err := compile(e, cols)
		if err != nil {
			return fail(err)
		}
		w.parts = append(w.parts, ev)
	}
	for _, k := range n.OrderBy {
		ev, err := compile(k.Expr, cols)
		if err != nil {
			return fail(err)
		}
		w.orders = append(w.orders, ev)
	}
	for _, f := range n.Funcs {
		var evs []evaluator
		for _, a := range callArgs(f) {
			ev, err := compile(a, cols)
			if err != nil {
				return fail(err)
			}
			evs = append(evs, ev)
		}
		w.args = append(w.args, evs)
	}
	if area := spillAreaFor(ctx); area != nil {
		w.newWindowSpill(ctx, area)
	}
	return w, nil
}

// callArgs are the expressions a window call reads per row: an
// aggregate's argument, delimiter and filter, those it has, in that order.
func callArgs(f *planner.WindowCall) []planner.Expr {
	if f.Agg != nil {
		return f.Agg.Exprs()
	}
	return f.Args
}

// windowInput is the whole input of a window with its evaluated keys and
// arguments, each as one array, in sorted order once sorted.
type windowInput struct {
	rows   int
	cols   []arrow.Array
	parts  []arrow.Array
	orders []arrow.Array
	args   [][]arrow.Array
}

func (in *windowInput) release() {
	all := append(append(append([]arrow.Array(nil), in.cols...), in.parts...), in.orders...)
	for _, a := range in.args {
		all = append(all, a...)
	}
	for _, a := range all {
		if a != nil {
			a.Release()
		}
	}
}

// load reads the input, evaluating keys and arguments batch by batch.
func (w *windowOp) load(ctx context.Context) (*windowInput, error) {
	inCols := w.node.Input.Columns()
	var colParts, partParts, orderParts [][]arrow.Array
	argParts := make([][][]arrow.Array, len(w.args))
	colParts = make([][]arrow.Array, len(inCols))
	partParts = make([][]arrow.Array, len(w.parts))
	orderParts = make([][]arrow.Array, len(w.orders))
	for i := range w.args {
		argParts[i] = make([][]arrow.Array, len(w.args[i]))
	}
	var held []arrow.Array
	var heldMem int64
	defer func() {
		for _, a := range held {
			a.Release()
		}
		// The parts are now copied into one array each, charged below.
		w.mem.shrink(heldMem)
	}()
	hold := func(a arrow.Array) error {
		held = append(held, a)
		size := arrayBytes(a)
		if err := w.mem.grow(size); err != nil {
			return err
		}
		heldMem += size
		return nil
	}
	evalInto := func(dst [][]arrow.Array, evs []evaluator, b arrow.RecordBatch) error {
		for i, ev := range evs {
			a, err := ev.eval(ctx, b)
			if err != nil {
				return err
			}
			if err := hold(a); err != nil {
				return err
			}
			dst[i] = append(dst[i], a)
		}
		return nil
	}
	rows := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := w.input.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			break
		}
		rows += int(b.NumRows())
		for i := range inCols {
			a := b.Column(i)
			a.Retain()
			if err := hold(a); err != nil {
				b.Release()
				return nil, err
			}
			colParts[i] = append(colParts[i], a)
		}
		err = evalInto(partParts, w.parts, b)
		if err == nil {
			err = evalInto(orderParts, w.orders, b)
		}
		for i := range w.args {
			if err == nil {
				err = evalInto(argParts[i], w.args[i], b)
			}
		}
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	in := &windowInput{rows: rows}
	concat := func(parts []arrow.Array, dt arrow.DataType) (arrow.Array, error) {
		if len(parts) == 0 {
			return array.MakeArrayOfNull(memory.DefaultAllocator, dt, 0), nil
		}
		if err := w.mem.grow(arraysBytes(parts)); err != nil {
			return nil, err
		}
		a, err := array.Concatenate(parts, memory.DefaultAllocator)
		if err != nil {
			return nil, fmt.Errorf("window: %w", err)
		}
		return a, nil
	}
	var err error
	fill := func(parts [][]arrow.Array, exprs []planner.Expr) []arrow.Array {
		out := make([]arrow.Array, len(parts))
		for i := range parts {
			if err == nil {
				out[i], err = concat(parts[i], exprs[i].Type().Arrow())
			}
		}
		return out
	}
	colTypes := make([]planner.Expr, len(inCols))
	for i, c := range inCols {
		colTypes[i] = &planner.ColRef{ID: c.ID, Typ: c.Type}
	}
	orderExprs := make([]planner.Expr, len(w.node.OrderBy))
	for i, k := range w.node.OrderBy {
		orderExprs[i] = k.Expr
	}
	in.cols = fill(colParts, colTypes)
	in.parts = fill(partParts, w.node.PartitionBy)
	in.orders = fill(orderParts, orderExprs)
	for i, f := range w.node.Funcs {
		in.args = append(in.args, fill(argParts[i], callArgs(f)))
	}
	if err != nil {
		in.release()
		return nil, err
	}
	return in, nil
}

// sort reorders every array of in by partition keys, then ORDER BY keys,
// as a sort does (typedComparator), so a window that sorts its input
// through a spilling sort (window_spill.go) sees the same order.
func (w *windowOp) sort(ctx context.Context, in *windowInput) error {
	var cmps []func(i, j int) int
	for i, a := range in.parts {
		c, err := typedComparator(a, w.node.PartitionBy[i].Type(), false, false)
		if err != nil {
			return err
		}
		cmps = append(cmps, c)
	}
	for k, a := range in.orders {
		c, err := typedComparator(a, w.node.OrderBy[k].Expr.Type(), w.node.OrderBy[k].Desc, w.node.OrderBy[k].NullsFirst)
		if err != nil {
			return err
		}
		cmps = append(cmps, c)
	}
	if len(cmps) == 0 {
		return nil
	}
	order := make([]int32, in.rows)
	for i := range order {
		order[i] = int32(i)
	}
	if err := sortIndices(ctx, order, cmps); err != nil {
		return err
	}
	idx := newFixed(arrow.PrimitiveTypes.Int32, order, nil, 0)
	defer idx.Release()
	take := func(arrs []arrow.Array) error {
		for i, a := range arrs {
			t, err := takeArray(ctx, a, idx)
			if err != nil {
				return fmt.Errorf("window: %w", err)
			}
			a.Release()
			arrs[i] = t
		}
		return nil
	}
	groups := append([][]arrow.Array{in.cols, in.parts, in.orders}, in.args...)
	for _, g := range groups {
		if err := take(g); err != nil {
			return err
		}
	}
	return nil
}

func (w *windowOp) compute(ctx context.Context) error {
	in, err := w.load(ctx)
	if err != nil {
		return err
	}
	defer in.release()
	if err := w.sort(ctx, in); err != nil {
		return err
	}
	out, err := w.computeSorted(ctx, in)
	if err != nil {
		return err
	}
	w.out = out
	return w.mem.resize(batchBytes(w.out))
}

// computeSorted computes every function over in, whose rows are sorted
// by partition and ORDER BY keys, and returns the input columns with the
// results appended. What it holds beside in (the frame bounds, the
// results) is charged to w.mem, which the caller resizes.
func (w *windowOp) computeSorted(ctx context.Context, in *windowInput) (arrow.RecordBatch, error) {
	rows, err := newWindowRows(in)
	if err != nil {
		return nil, err
	}
	var key arrow.Array
	var sk planner.SortKey
	if len(in.orders) > 0 {
		key, sk = in.orders[0], w.node.OrderBy[0]
	}
	// The frame bounds: two ints a row, two more for GROUPS' peer
	// group numbers.
	boundBytes := int64(16)
	if w.node.Frame.Mode == planner.GroupsFrame {
		boundBytes = 32
	}
	if err := w.mem.grow(boundBytes * int64(in.rows)); err != nil {
		return nil, err
	}
	start, end, err := frameBounds(ctx, rows, w.node.Frame, key, sk)
	if err != nil {
		return nil, err
	}
	frames := &windowFrames{r: rows, start: start, end: end, exclude: w.node.Frame.Exclude}
	out := make([]arrow.Array, 0, len(in.cols)+len(w.node.Funcs))
	for _, c := range in.cols {
		c.Retain()
		out = append(out, c)
	}
	defer releaseAll(out)
	for i, f := range w.node.Funcs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var res arrow.Array
		if f.Agg != nil {
			res, err = windowAggregate(ctx, f, in.args[i], frames)
		} else {
			res, err = windowFunction(ctx, f.Name, in.args[i], frames)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	// The function results are held with the input columns until the
	// output is read; the keys and arguments go when the caller drops in.
	if err := w.mem.grow(arraysBytes(out[len(in.cols):])); err != nil {
		return nil, err
	}
	return array.NewRecordBatch(w.schema, out, int64(in.rows)), nil
}

func (w *windowOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if w.spill != nil {
		return w.nextSpilled(ctx)
	}
	if !w.done {
		if err := w.compute(ctx); err != nil {
			return nil, err
		}
		w.done = true
	}
	if w.pos >= w.out.NumRows() {
		return nil, nil
	}
	end := min(w.pos+outputBatchRows, w.out.NumRows())
	b := w.out.NewSlice(w.pos, end)
	w.pos = end
	return b, nil
}

func (w *windowOp) Close() {
	if w.out != nil {
		w.out.Release()
		w.out = nil
	}
	if w.spill != nil {
		w.spill.close()
	}
	w.mem.close()
	w.input.Close()
}
