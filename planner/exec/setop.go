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
// compare equal here, as in PostgreSQL's set operations.
type setOp struct {
	left, right Operator
	node        *planner.SetOp
	schema      *arrow.Schema
	counts      map[string]int
	emitted     map[string]bool
	built       bool
	keyBuf      []byte
	emittedMem  int64 // charged to mem at the end of each batch
	mem         reservation
}

func (s *setOp) build(ctx context.Context) error {
	s.counts = map[string]int{}
	s.emitted = map[string]bool{}
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
		var grown int64
		for r := 0; r < int(b.NumRows()); r++ {
			key := s.rowKey(b, r)
			n, seen := s.counts[key]
			if !seen {
				grown += hashEntryBytes + int64(len(key))
			}
			s.counts[key] = n + 1
		}
		b.Release()
		if err := s.mem.grow(grown); err != nil {
			return err
		}
	}
	s.built = true
	return nil
}

func (s *setOp) rowKey(b arrow.RecordBatch, r int) string {
	s.keyBuf = s.keyBuf[:0]
	for _, c := range b.Columns() {
		s.keyBuf = appendKey(s.keyBuf, c, r)
	}
	return string(s.keyBuf)
}

func (s *setOp) keep(key string) bool {
	n := s.counts[key]
	switch {
	case s.node.Kind == planner.Intersect && s.node.All:
		if n > 0 {
			s.counts[key] = n - 1
			return true
		}
		return false
	case s.node.Kind == planner.Intersect:
		if n > 0 && !s.emitted[key] {
			s.markEmitted(key)
			return true
		}
		return false
	case s.node.All: // EXCEPT ALL
		if n > 0 {
			s.counts[key] = n - 1
			return false
		}
		return true
	}
	// EXCEPT
	if n == 0 && !s.emitted[key] {
		s.markEmitted(key)
		return true
	}
	return false
}

// markEmitted remembers a distinct row already sent; its memory is
// charged when the batch is done (keep cannot fail).
func (s *setOp) markEmitted(key string) {
	s.emitted[key] = true
	s.emittedMem += hashEntryBytes + int64(len(key))
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
		if err := s.mem.grow(s.emittedMem); err != nil {
			b.Release()
			return nil, err
		}
		s.emittedMem = 0
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
	s.counts, s.emitted = nil, nil
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
