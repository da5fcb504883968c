package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/storage/bufferpool"
)

// Operator is a running plan node. Next returns the next batch, or
// (nil, nil) when the operator is exhausted; the caller releases each
// batch. Close releases the operator and its inputs.
type Operator interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close()
}

// Build turns a logical plan into a tree of operators. Nothing is read
// until the root's Next is called. A plan built outside another's run
// gathers its rows into buffers of a pool of its own (batch_buffers.go).
func Build(ctx context.Context, n planner.Node) (Operator, error) {
	if batchBuffersFrom(ctx) == nil {
		pool := bufferpool.New()
		op, err := Build(withBatchBuffers(ctx, pool), n)
		if err != nil {
			return nil, err
		}
		return &pooledRoot{Operator: op, pool: pool}, nil
	}
	op, err := build(ctx, n)
	if err != nil {
		return nil, err
	}
	return instrument(ctx, n, op), nil
}

func build(ctx context.Context, n planner.Node) (Operator, error) {
	switch x := n.(type) {
	case *planner.Scan:
		if f := morselFeedFor(ctx, x); f != nil {
			return newMorselScan(x, f), nil
		}
		return newScan(x), nil
	case *planner.Gather:
		return newGather(ctx, x)
	case *planner.Remote:
		// Its input is run by the other engine, never here.
		return newRemoteOp(x), nil
	case planner.OneRow:
		return &oneRow{}, nil
	case *planner.Filter:
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		if x.Proven {
			// Its table proved it admits every row; the columns it
			// names may not even be read.
			return in, nil
		}
		f, err := newFilter(in, x.Pred, x.Input.Columns())
		if err != nil {
			in.Close()
			return nil, err
		}
		return f, nil
	case *planner.Project:
		if f, keep := filterKeeping(x); f != nil {
			return buildFilterKeeping(ctx, x, f, keep)
		}
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		p := &project{input: in, schema: schemaOf(x.Cols)}
		for _, e := range x.Exprs {
			ev, err := compile(e, x.Input.Columns())
			if err != nil {
				in.Close()
				return nil, err
			}
			p.exprs = append(p.exprs, ev)
		}
		return p, nil
	case *planner.Limit:
		count, offset, err := limitValues(ctx, x)
		if err != nil {
			return nil, err
		}
		if x.WithTies {
			return newTieLimit(ctx, x, count, offset)
		}
		if srt, ok := x.Input.(*planner.Sort); ok && count >= 0 {
			// ORDER BY ... LIMIT: a top-N sort keeps only what the limit
			// can return.
			sortIn, err := Build(ctx, srt.Input)
			if err != nil {
				return nil, err
			}
			top, err := newTopNSort(ctx, sortIn, srt, count+offset)
			if err != nil {
				return nil, err
			}
			return &limit{input: instrument(ctx, srt, top), remaining: count, skip: offset}, nil
		}
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return &limit{input: in, remaining: count, skip: offset}, nil
	case *planner.Sample:
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return newSample(in, x), nil
	case *planner.Sort:
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return newSort(ctx, in, x)
	case *planner.Join:
		return newHashJoin(ctx, x)
	case *planner.Lateral:
		return newLateralJoin(ctx, x)
	case *planner.ProjectSet:
		return newProjectSet(ctx, x)
	case *planner.RecursiveUnion:
		return newRecursiveUnion(ctx, x)
	case *planner.WorkTable:
		return &workTableScan{node: x, schema: schemaOf(x.Cols)}, nil
	case *planner.CTE:
		return newCTE(ctx, x)
	case *planner.CTEScan:
		return newCTEScan(x), nil
	case *planner.Append:
		a := &appendOp{schema: schemaOf(x.Cols)}
		for _, in := range x.Ins {
			op, err := Build(ctx, in)
			if err != nil {
				a.Close()
				return nil, err
			}
			a.ins = append(a.ins, op)
		}
		return a, nil
	case *planner.SetOp:
		left, err := Build(ctx, x.Left)
		if err != nil {
			return nil, err
		}
		right, err := Build(ctx, x.Right)
		if err != nil {
			left.Close()
			return nil, err
		}
		return newSetOp(ctx, left, right, x), nil
	case *planner.Values:
		v := &valuesOp{schema: schemaOf(x.Cols)}
		for _, row := range x.Rows {
			var evs []evaluator
			for _, e := range row {
				ev, err := compile(e, nil)
				if err != nil {
					return nil, err
				}
				evs = append(evs, ev)
			}
			v.rows = append(v.rows, evs)
		}
		return v, nil
	case *planner.Window:
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return newWindow(ctx, in, x)
	case *planner.Aggregate:
		in, err := Build(ctx, x.Input)
		if err != nil {
			return nil, err
		}
		return newHashAggregate(ctx, in, x)
	case *planner.RowCount:
		if instrumentationFrom(ctx) != nil && x.RowFiltered() {
			// EXPLAIN ANALYZE shows a row-filtered count as the plan it
			// stands for; whether that ran would tell whether the filter
			// was proven.
			return Build(ctx, x.Input)
		}
		return &rowCount{node: x}, nil
	}
	return nil, fmt.Errorf("plan node %T cannot be executed", n)
}

// schemaOf is the Arrow schema of batches carrying cols.
func schemaOf(cols []planner.Column) *arrow.Schema {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}
