package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// filter keeps the rows for which the predicate is true (not false, not
// NULL). The predicate's conjuncts narrow a selection of rows one after
// the other (conjunctSelect); the kept rows are then gathered column by
// column over the typed buffers, or the batch passes whole when every
// row is kept.
type filter struct {
	input Operator
	pred  *conjunctSelect
	// keep, when set, are the input columns the filter outputs, in
	// schema: a projection of columns over the filter, run by it so that
	// the columns only the predicate reads are never copied.
	keep   []int
	schema *arrow.Schema
}

// filterKeeping reports whether p only picks columns of a filter (as
// planner.narrowFilteredScans writes it), and which of the filter's
// input columns.
func filterKeeping(p *planner.Project) (*planner.Filter, []int) {
	f, ok := p.Input.(*planner.Filter)
	if !ok || f.Proven {
		return nil, nil
	}
	pos := map[planner.ColumnID]int{}
	for i, c := range f.Input.Columns() {
		pos[c.ID] = i
	}
	keep := make([]int, len(p.Exprs))
	for i, e := range p.Exprs {
		ref, ok := e.(*planner.ColRef)
		if !ok {
			return nil, nil
		}
		at, found := pos[ref.ID]
		if !found {
			return nil, nil
		}
		keep[i] = at
	}
	return f, keep
}

// buildFilterKeeping runs the projection p of filter f's columns keep
// as one operator, instrumented as both nodes.
func buildFilterKeeping(ctx context.Context, p *planner.Project, f *planner.Filter, keep []int) (Operator, error) {
	in, err := Build(ctx, f.Input)
	if err != nil {
		return nil, err
	}
	flt, err := newFilter(in, f.Pred, f.Input.Columns())
	if err != nil {
		in.Close()
		return nil, err
	}
	flt.keep, flt.schema = keep, schemaOf(p.Cols)
	return instrument(ctx, f, flt), nil
}

func newFilter(in Operator, pred planner.Expr, input []planner.Column) (*filter, error) {
	cs, err := compileConjuncts(pred, input)
	if err != nil {
		return nil, err
	}
	return &filter{input: in, pred: cs}, nil
}

func (f *filter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, sel, err := f.nextSelected(ctx)
	if b == nil || err != nil || sel == nil {
		return b, err
	}
	out, err := takeBatch(ctx, b, sel)
	b.Release()
	return out, err
}

// nextSelected returns the next batch with a row the predicate keeps,
// its columns as the filter outputs them, and the rows it keeps: nil when
// it keeps them all, else a selection valid until the next call. A
// consumer that reads the kept rows where they are (a hash aggregate)
// takes it in place of Next, which copies them.
func (f *filter) nextSelected(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	for {
		b, err := f.input.Next(ctx)
		if b == nil || err != nil {
			return nil, nil, err
		}
		sel, err := f.pred.selectRows(ctx, b)
		if err != nil {
			b.Release()
			return nil, nil, err
		}
		if f.keep != nil {
			cols := make([]arrow.Array, len(f.keep))
			for i, c := range f.keep {
				cols[i] = b.Column(c)
			}
			kept := array.NewRecordBatch(f.schema, cols, b.NumRows())
			b.Release()
			b = kept
		}
		switch len(sel) {
		case 0:
			b.Release()
			continue
		case int(b.NumRows()):
			return b, nil, nil
		}
		return b, sel, nil
	}
}

// filterBatch keeps the rows of b where mask is true.
func filterBatch(ctx context.Context, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	return takeBatch(ctx, b, selection(nil, mask.(*array.Boolean)))
}

func (f *filter) Close() { f.input.Close() }

// project computes one array per output column.
type project struct {
	input  Operator
	exprs  []evaluator
	schema *arrow.Schema
}

func (p *project) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := p.input.Next(ctx)
	if b == nil || err != nil {
		return nil, err
	}
	defer b.Release()
	cols := make([]arrow.Array, len(p.exprs))
	for i, e := range p.exprs {
		a, err := e.eval(ctx, b)
		if err != nil {
			for _, c := range cols[:i] {
				c.Release()
			}
			return nil, err
		}
		cols[i] = a
	}
	out := array.NewRecordBatch(p.schema, cols, b.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

func (p *project) Close() { p.input.Close() }

// limit skips then passes rows, and stops pulling once it has enough.
type limit struct {
	input     Operator
	remaining int64 // < 0: no limit
	skip      int64
}

func (l *limit) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for l.remaining != 0 {
		b, err := l.input.Next(ctx)
		if b == nil || err != nil {
			return nil, err
		}
		n := b.NumRows()
		if l.skip >= n {
			l.skip -= n
			b.Release()
			continue
		}
		start, end := l.skip, n
		l.skip = 0
		if l.remaining >= 0 && end-start > l.remaining {
			end = start + l.remaining
		}
		if l.remaining >= 0 {
			l.remaining -= end - start
		}
		if start == 0 && end == n {
			return b, nil
		}
		out := b.NewSlice(start, end)
		b.Release()
		return out, nil
	}
	return nil, nil
}

func (l *limit) Close() { l.input.Close() }
