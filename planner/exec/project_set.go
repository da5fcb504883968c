package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// projectSet expands each input row by its set-returning functions'
// results (see planner.ProjectSet).
type projectSet struct {
	input  Operator
	funcs  []*planner.SRFCall
	args   [][]evaluator
	schema *arrow.Schema
	out    []arrow.RecordBatch
	// mem holds the queued output, and while a batch expands, the values
	// being generated.
	mem reservation
}

func newProjectSet(ctx context.Context, n *planner.ProjectSet) (Operator, error) {
	in, err := Build(ctx, n.Input)
	if err != nil {
		return nil, err
	}
	p := &projectSet{input: in, funcs: n.Funcs, schema: schemaOf(n.Columns()), mem: newReservation(ctx, "ProjectSet")}
	for _, f := range n.Funcs {
		var evs []evaluator
		for _, a := range f.Args {
			ev, err := compile(a, n.Input.Columns())
			if err != nil {
				in.Close()
				return nil, err
			}
			evs = append(evs, ev)
		}
		p.args = append(p.args, evs)
	}
	return p, nil
}

// srfValues lists the values function f returns for row r of its args,
// charging a long series to mem and stopping when ctx is cancelled.
func srfValues(ctx context.Context, mem *reservation, f *planner.SRFCall, args []arrow.Array, r int) ([]any, error) {
	for _, a := range args {
		if a.IsNull(r) {
			return nil, nil
		}
	}
	if vals, ok, err := jsonSRFValues(f.Name, args, r); ok {
		return vals, err
	}
	switch f.Name {
	case "unnest":
		list := args[0].(*array.List)
		start, end := list.ValueOffsets(r)
		elems := list.ListValues()
		out := make([]any, 0, end-start)
		for k := start; k < end; k++ {
			out = append(out, valueAt(elems, int(k)))
		}
		return out, nil
	case "generate_subscripts":
		list := args[0].(*array.List)
		start, end := list.ValueOffsets(r)
		if valueAt(args[1], r).(int64) != 1 {
			return nil, nil
		}
		out := make([]any, 0, end-start)
		for k := int64(1); k <= end-start; k++ {
			out = append(out, k)
		}
		return out, nil
	case "generate_series":
		if _, ok := args[0].(*array.Timestamp); ok {
			return timestampSeries(ctx, mem, args, r)
		}
		from, to := valueAt(args[0], r).(int64), valueAt(args[1], r).(int64)
		step := int64(1)
		if len(args) == 3 {
			step = valueAt(args[2], r).(int64)
		}
		if step == 0 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
		}
		var out []any
		for v := from; (step > 0 && v <= to) || (step < 0 && v >= to); v += step {
			out = append(out, v)
			if len(out)%cancelCheckRows == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				// Each value is boxed in out, then in the row's results.
				if err := mem.grow(2 * cancelCheckRows * (anyValueBytes + 8)); err != nil {
					return nil, err
				}
			}
			if len(out) > 100_000_000 {
				return nil, pgerror.New(pgerror.ProgramLimitExceeded, "generate_series: more than 100000000 rows from one call are not supported")
			}
			if (step > 0 && v > to-step) || (step < 0 && v < to-step) {
				break // the next step would overflow past the end
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("set-returning function %s cannot be executed", f.Name)
}

func (p *projectSet) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for len(p.out) == 0 {
		b, err := p.input.Next(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		err = p.expand(ctx, b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	out := p.out[0]
	p.out = p.out[1:]
	p.mem.shrink(batchBytes(out))
	return out, nil
}

func (p *projectSet) expand(ctx context.Context, b arrow.RecordBatch) error {
	args := make([][]arrow.Array, len(p.funcs))
	defer func() {
		for _, a := range args {
			releaseAll(a)
		}
	}()
	for i, evs := range p.args {
		a, err := evalAll(ctx, evs, b)
		if err != nil {
			return err
		}
		args[i] = a
	}
	var idx []int32
	results := make([][]any, len(p.funcs))
	for r := 0; r < int(b.NumRows()); r++ {
		vals := make([][]any, len(p.funcs))
		n := 0
		for i, f := range p.funcs {
			v, err := srfValues(ctx, &p.mem, f, args[i], r)
			if err != nil {
				return err
			}
			vals[i] = v
			n = max(n, len(v))
		}
		for k := 0; k < n; k++ {
			idx = append(idx, int32(r))
			for i := range p.funcs {
				var v any
				if k < len(vals[i]) {
					v = vals[i][k]
				}
				results[i] = append(results[i], v)
			}
		}
	}
	if len(idx) == 0 {
		return nil
	}
	cols, err := takeColumns(ctx, b.Columns(), idx)
	if err != nil {
		return err
	}
	for i, f := range p.funcs {
		a, err := valuesArray(f.Out.Type, results[i])
		if err != nil {
			releaseAll(cols)
			return err
		}
		cols = append(cols, a)
	}
	out := array.NewRecordBatch(p.schema, cols, int64(len(idx)))
	releaseAll(cols)
	p.out = append(p.out, out)
	// The generated values are now in out: hold exactly the queue.
	var queued int64
	for _, b := range p.out {
		queued += batchBytes(b)
	}
	return p.mem.resize(queued)
}

func (p *projectSet) Close() {
	for _, b := range p.out {
		b.Release()
	}
	p.out = nil
	p.mem.close()
	p.input.Close()
}
