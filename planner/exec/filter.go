package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// filter keeps the rows for which the predicate is true (not false, not
// NULL).
type filter struct {
	input Operator
	pred  evaluator
}

func (f *filter) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		b, err := f.input.Next(ctx)
		if b == nil || err != nil {
			return nil, err
		}
		mask, err := f.pred.eval(ctx, b)
		if err != nil {
			b.Release()
			return nil, err
		}
		m := mask.(*array.Boolean)
		trues := 0
		for i := 0; i < m.Len(); i++ {
			if m.IsValid(i) && m.Value(i) {
				trues++
			}
		}
		switch {
		case trues == 0:
			mask.Release()
			b.Release()
			continue
		case trues == int(b.NumRows()):
			mask.Release()
			return b, nil
		}
		out, err := filterBatch(ctx, b, mask)
		mask.Release()
		b.Release()
		return out, err
	}
}

func filterBatch(ctx context.Context, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	if b.NumCols() == 0 {
		trues := 0
		m := mask.(*array.Boolean)
		for i := 0; i < m.Len(); i++ {
			if m.IsValid(i) && m.Value(i) {
				trues++
			}
		}
		return array.NewRecordBatch(b.Schema(), nil, int64(trues)), nil
	}
	for _, c := range b.Columns() {
		if c.DataType().ID() == arrow.INTERVAL_MONTH_DAY_NANO {
			// Arrow's filter kernel has no 16-byte values: gather the
			// selected rows instead.
			m := mask.(*array.Boolean)
			idx := make([]int32, 0, m.Len())
			for i := 0; i < m.Len(); i++ {
				if m.IsValid(i) && m.Value(i) {
					idx = append(idx, int32(i))
				}
			}
			return takeBatch(ctx, b, idx)
		}
	}
	return compute.FilterRecordBatch(ctx, b, mask, compute.DefaultFilterOptions())
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
