package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// appendOp streams each input in turn (UNION ALL).
type appendOp struct {
	ins    []Operator
	cur    int
	schema *arrow.Schema
}

func (a *appendOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for a.cur < len(a.ins) {
		b, err := a.ins[a.cur].Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			a.cur++
			continue
		}
		out := array.NewRecordBatch(a.schema, b.Columns(), b.NumRows())
		b.Release()
		return out, nil
	}
	return nil, nil
}

func (a *appendOp) Close() {
	for _, in := range a.ins {
		in.Close()
	}
}

// setOp computes INTERSECT / EXCEPT: it counts the right input's rows by
// value (its state), then streams the left input, keeping each row as
// the operation and its multiset (ALL) or set semantics say. NULLs
// compare equal here, as in PostgreSQL's set operations. Past the budget
// a set operation that may spill partitions its state and both inputs to
// disk by value (setop_spill.go).
type setOp struct {
	left, right Operator
	node        *planner.SetOp
	schema      *arrow.Schema
	state       map[string]setCount
	built       bool
	keyBuf      []byte
	// grown is what the state grew by since it was last charged to mem,
	// at the end of each batch (keep cannot fail).
	grown int64
	mem   reservation
	// spill is where a set operation past its budget partitions (nil: it
	// cannot); fromState: right reads a partition's spilled state rather
	// than rows.
	spill     *setOpSpill
	fromState bool
}

// setCount is the state of one value: how many right rows have it (less
// those an ALL operation has matched), and whether a set operation has
// returned it.
type setCount struct {
	n       int64
	emitted bool
}

func newSetOp(ctx context.Context, left, right Operator, n *planner.SetOp) *setOp {
	s := &setOp{left: left, right: right, node: n, schema: schemaOf(n.Cols), mem: newReservation(ctx, "SetOp")}
	if area := spillAreaFor(ctx); area != nil {
		s.spill = newSetOpSpill(area, instrumentationFrom(ctx), 0)
	}
	return s
}

func (s *setOp) build(ctx context.Context) error {
	s.state = map[string]setCount{}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := s.right.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		if s.spill != nil && s.spill.active {
			err = s.spill.addState(ctx, s, b)
		} else {
			s.count(b)
			err = s.charge(ctx)
		}
		b.Release()
		if err != nil {
			return err
		}
	}
	s.built = true
	return nil
}

// count adds a batch of the right input to the state.
func (s *setOp) count(b arrow.RecordBatch) {
	if s.fromState {
		keys, counts, emitted := stateColumns(b)
		for r := 0; r < int(b.NumRows()); r++ {
			key := string(keys.Value(r))
			s.add(key, counts.Value(r), emitted.Value(r))
		}
		return
	}
	for r := 0; r < int(b.NumRows()); r++ {
		s.add(s.rowKey(b, r), 1, false)
	}
}

func (s *setOp) add(key string, n int64, emitted bool) {
	c, seen := s.state[key]
	if !seen {
		s.grown += hashEntryBytes + int64(len(key))
	}
	c.n += n
	c.emitted = c.emitted || emitted
	s.state[key] = c
}

// charge charges what the state grew by. A set operation that may spill
// partitions its state when it does not fit, rather than fail.
func (s *setOp) charge(ctx context.Context) error {
	grown := s.grown
	s.grown = 0
	if s.spill == nil {
		return s.mem.grow(grown)
	}
	if s.mem.tryGrow(grown) {
		return nil
	}
	if s.spill.depth >= maxSetOpSpillDepth {
		return s.mem.grow(grown)
	}
	return s.spill.partitionState(ctx, s)
}

func (s *setOp) rowKey(b arrow.RecordBatch, r int) string {
	s.keyBuf = s.keyBuf[:0]
	for _, c := range b.Columns() {
		s.keyBuf = appendKey(s.keyBuf, c, r)
	}
	return string(s.keyBuf)
}

func (s *setOp) keep(key string) bool {
	c, seen := s.state[key]
	switch {
	case s.node.Kind == planner.Intersect && s.node.All:
		if c.n > 0 {
			c.n--
			s.state[key] = c
			return true
		}
		return false
	case s.node.Kind == planner.Intersect:
		if c.n > 0 && !c.emitted {
			c.emitted = true
			s.state[key] = c
			return true
		}
		return false
	case s.node.All: // EXCEPT ALL
		if c.n > 0 {
			c.n--
			s.state[key] = c
			return false
		}
		return true
	}
	// EXCEPT
	if c.n == 0 && !c.emitted {
		if !seen {
			s.grown += hashEntryBytes + int64(len(key))
		}
		c.emitted = true
		s.state[key] = c
		return true
	}
	return false
}

func (s *setOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !s.built {
		if err := s.build(ctx); err != nil {
			return nil, err
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if s.spill != nil && s.spill.active {
			return s.spill.next(ctx, s)
		}
		b, err := s.left.Next(ctx)
		if err != nil || b == nil {
			return nil, err
		}
		var idx []int32
		for r := 0; r < int(b.NumRows()); r++ {
			if s.keep(s.rowKey(b, r)) {
				idx = append(idx, int32(r))
			}
		}
		if err := s.charge(ctx); err != nil {
			b.Release()
			return nil, err
		}
		if len(idx) == 0 {
			b.Release()
			continue
		}
		cols, err := takeColumns(ctx, b.Columns(), idx)
		b.Release()
		if err != nil {
			return nil, err
		}
		out := array.NewRecordBatch(s.schema, cols, int64(len(idx)))
		releaseAll(cols)
		return out, nil
	}
}

func (s *setOp) Close() {
	s.state = nil
	if s.spill != nil {
		s.spill.close()
	}
	s.mem.close()
	s.left.Close()
	s.right.Close()
}

// valuesOp evaluates VALUES rows over a one-row batch.
type valuesOp struct {
	rows   [][]evaluator
	schema *arrow.Schema
	done   bool
}

func (v *valuesOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if v.done {
		return nil, nil
	}
	v.done = true
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	ncols := len(v.schema.Fields())
	parts := make([][]arrow.Array, ncols)
	defer func() {
		for _, p := range parts {
			releaseAll(p)
		}
	}()
	for _, row := range v.rows {
		for c, ev := range row {
			a, err := ev.eval(ctx, one)
			if err != nil {
				return nil, err
			}
			parts[c] = append(parts[c], a)
		}
	}
	cols := make([]arrow.Array, ncols)
	for c := range cols {
		col, err := concatArrays(parts[c])
		if err != nil {
			releaseAll(cols[:c])
			return nil, err
		}
		cols[c] = col
	}
	out := array.NewRecordBatch(v.schema, cols, int64(len(v.rows)))
	releaseAll(cols)
	return out, nil
}

func (v *valuesOp) Close() {}
