package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// lateralJoin runs its right plan once per left row, with the row's
// values bound for the plan's outer references, and joins the rows it
// returns to that row (planner.Lateral). It is a nested loop by nature:
// the right side depends on the row.
type lateralJoin struct {
	node     *planner.Lateral
	left     Operator
	outerIdx []int // position in the left batch of each outer column
	schema   *arrow.Schema
	cols     []planner.Column
	nLeft    int
}

func newLateralJoin(ctx context.Context, n *planner.Lateral) (Operator, error) {
	left, err := Build(ctx, n.Left)
	if err != nil {
		return nil, err
	}
	lj := &lateralJoin{node: n, left: left, schema: schemaOf(n.Columns()), cols: n.Columns(), nLeft: len(n.Left.Columns())}
	leftCols := n.Left.Columns()
	for _, o := range n.Outer {
		idx := -1
		for i, c := range leftCols {
			if c.ID == o.ID {
				idx = i
			}
		}
		lj.outerIdx = append(lj.outerIdx, idx)
	}
	return lj, nil
}

func (l *lateralJoin) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		lb, err := l.left.Next(ctx)
		if err != nil || lb == nil {
			return nil, err
		}
		out, err := l.joinBatch(ctx, lb)
		lb.Release()
		if err != nil {
			return nil, err
		}
		if out.NumRows() > 0 {
			return out, nil
		}
		out.Release()
	}
}

// joinBatch joins each row of one left batch to its right rows.
func (l *lateralJoin) joinBatch(ctx context.Context, lb arrow.RecordBatch) (arrow.RecordBatch, error) {
	bld := array.NewRecordBuilder(memory.DefaultAllocator, l.schema)
	defer bld.Release()
	for r := 0; r < int(lb.NumRows()); r++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vals := outerValues{}
		for i, o := range l.node.Outer {
			if idx := l.outerIdx[i]; idx >= 0 {
				vals[o.ID] = valueAt(lb.Column(idx), r)
			}
		}
		matched, err := l.appendRight(withOuter(ctx, vals), bld, lb, r)
		if err != nil {
			return nil, err
		}
		if !matched && l.node.Kind == planner.LeftJoin {
			for c := 0; c < l.nLeft; c++ {
				if err := l.appendCell(bld, c, lb.Column(c), r); err != nil {
					return nil, err
				}
			}
			for c := l.nLeft; c < len(l.schema.Fields()); c++ {
				bld.Field(c).AppendNull()
			}
		}
	}
	return bld.NewRecordBatch(), nil
}

// appendRight runs the right plan for left row r and appends the joined
// rows; it reports whether there was any.
func (l *lateralJoin) appendRight(ctx context.Context, bld *array.RecordBuilder, lb arrow.RecordBatch, r int) (bool, error) {
	right, err := Build(ctx, l.node.Right)
	if err != nil {
		return false, err
	}
	defer right.Close()
	matched := false
	for {
		rb, err := right.Next(ctx)
		if err != nil {
			return false, err
		}
		if rb == nil {
			return matched, nil
		}
		if int(rb.NumCols()) != len(l.schema.Fields())-l.nLeft {
			rb.Release()
			return false, fmt.Errorf("lateral: right side has %d columns, want %d", rb.NumCols(), len(l.schema.Fields())-l.nLeft)
		}
		for k := 0; k < int(rb.NumRows()); k++ {
			matched = true
			for c := 0; c < l.nLeft; c++ {
				if err := l.appendCell(bld, c, lb.Column(c), r); err != nil {
					rb.Release()
					return false, err
				}
			}
			for c := 0; c < int(rb.NumCols()); c++ {
				if err := l.appendCell(bld, l.nLeft+c, rb.Column(c), k); err != nil {
					rb.Release()
					return false, err
				}
			}
		}
		rb.Release()
	}
}

// appendCell copies row r of a into output column c, through the
// constant representation, which every type SQE has supports.
func (l *lateralJoin) appendCell(bld *array.RecordBuilder, c int, a arrow.Array, r int) error {
	v := valueAt(a, r)
	if v == nil {
		bld.Field(c).AppendNull()
		return nil
	}
	return appendConst(bld.Field(c), l.cols[c].Type, v)
}

func (l *lateralJoin) Close() { l.left.Close() }
