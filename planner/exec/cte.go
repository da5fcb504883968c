package exec

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// A materialized WITH query (planner.CTE) runs once, however many CTE
// Scans read it and wherever they run: in the operators under the CTE
// node, in the plans of subqueries built as they are evaluated, in a
// Gather's workers or a shared join build. The CTE operator puts its
// result (cteResult) in the context it builds and runs its input with;
// the first CTE Scan to need the rows runs the query to its end, with the
// scan's context, keeping its batches under the query's memory budget and
// writing them all to one spill file when they pass it (where the query
// may spill); scans that need them meanwhile wait. Each scan then reads
// the kept batches, or its own reader of the file, from the start. The
// rows are let go, and the file removed, when the CTE operator closes;
// the query's spill area, which holds the file, is removed when the
// query ends however it ends.

// cteKey is the context key of the result of the CTE node with this id.
type cteKey struct{ id planner.ColumnID }

// cteResult is a materialized WITH query's rows, computed at most once.
type cteResult struct {
	node   *planner.CTE
	schema *arrow.Schema

	mu sync.Mutex
	// running is closed when the run under way ends; nil when none is.
	running chan struct{}
	done    bool
	err     error
	// batches are the rows kept in memory, or file holds them all.
	batches []arrow.RecordBatch
	file    *spillFile
	mem     reservation
}

// ready makes sure the rows are computed, computing them with ctx if no
// other scan has started to; it returns the run's error. A run stopped
// because its context was cancelled (a worker told to stop) leaves
// nothing behind, and the next scan to need the rows starts again.
func (r *cteResult) ready(ctx context.Context) error {
	for {
		r.mu.Lock()
		if r.done {
			r.mu.Unlock()
			return r.err
		}
		if ch := r.running; ch != nil {
			r.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		ch := make(chan struct{})
		r.running = ch
		r.mu.Unlock()

		err := r.run(ctx)
		r.mu.Lock()
		r.running = nil
		if err == nil || ctx.Err() == nil {
			r.done, r.err = true, err
		}
		r.mu.Unlock()
		close(ch)
		return err
	}
}

// run computes the rows; on error it keeps none.
func (r *cteResult) run(ctx context.Context) (err error) {
	r.mem = newReservation(ctx, "CTE")
	area := spillAreaFor(ctx)
	var w *spillWriter
	defer func() {
		if err != nil {
			if w != nil {
				w.abort()
			}
			r.release()
		}
	}()
	// The query is a plan of its own, even when a worker runs it: it
	// reads no worker's morsels and shares no worker's join builds.
	ctx = context.WithValue(ctx, sharedBuildsKey{}, (*sharedBuilds)(nil))
	ctx = withMorselFeed(ctx, nil)
	def, err := Build(ctx, r.node.Def)
	if err != nil {
		return err
	}
	defer def.Close()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := def.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		// Batches carry Def's columns; the kept ones carry its schema.
		kept := array.NewRecordBatch(r.schema, b.Columns(), b.NumRows())
		b.Release()
		if w != nil {
			err := w.write(kept)
			kept.Release()
			if err != nil {
				return err
			}
			continue
		}
		size := batchBytes(kept)
		if area == nil {
			if err := r.mem.grow(size); err != nil {
				kept.Release()
				return err
			}
			r.batches = append(r.batches, kept)
			continue
		}
		if r.mem.tryGrow(size) {
			r.batches = append(r.batches, kept)
			continue
		}
		// Past the budget: every row goes to the file, in order, and
		// the memory is given back to the operators reading them.
		if w, err = newSpillWriter(area, "cte", r.schema, 64<<10); err != nil {
			kept.Release()
			return err
		}
		r.batches = append(r.batches, kept)
		for _, k := range r.batches {
			if err := w.write(k); err != nil {
				return err
			}
		}
		r.releaseBatches()
	}
	if w != nil {
		f, err := w.finish()
		w = nil
		if err != nil {
			return err
		}
		r.file = f
		instrumentationFrom(ctx).addSpill(r.node, f.bytes)
	}
	return nil
}

func (r *cteResult) releaseBatches() {
	for _, b := range r.batches {
		b.Release()
	}
	r.batches = nil
	r.mem.close()
}

// release lets the rows go and removes their file.
func (r *cteResult) release() {
	r.releaseBatches()
	if r.file != nil {
		r.file.remove()
		r.file = nil
	}
}

// cteOp runs the plan that reads a materialized WITH query.
type cteOp struct {
	res   *cteResult
	input Operator
	// last and lastWith are the latest context Next was given and that
	// context carrying res, made once per context.
	last, lastWith context.Context
}

func newCTE(ctx context.Context, n *planner.CTE) (Operator, error) {
	res := &cteResult{node: n, schema: schemaOf(n.Def.Columns())}
	// What runs while the plan is built (a LIMIT's subquery) may read it.
	in, err := Build(context.WithValue(ctx, cteKey{n.ID}, res), n.Input)
	if err != nil {
		res.release()
		return nil, err
	}
	return &cteOp{res: res, input: in}, nil
}

func (c *cteOp) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if ctx != c.last {
		c.last, c.lastWith = ctx, context.WithValue(ctx, cteKey{c.res.node.ID}, c.res)
	}
	return c.input.Next(c.lastWith)
}

func (c *cteOp) Close() {
	c.input.Close()
	c.res.mu.Lock()
	defer c.res.mu.Unlock()
	c.res.release()
	c.res.done, c.res.err = true, fmt.Errorf("WITH query %s read after its query ended", c.res.node.Name)
	c.last, c.lastWith = nil, nil
}

// cteScan reads a materialized WITH query's rows: the columns of its
// Def that the reference reads (Source), under the reference's names.
type cteScan struct {
	node   *planner.CTEScan
	schema *arrow.Schema
	res    *cteResult
	pos    []int
	next   int // the next kept batch
	file   *spillReader
	ended  bool
}

func newCTEScan(n *planner.CTEScan) *cteScan {
	return &cteScan{node: n, schema: schemaOf(n.Cols)}
}

func (s *cteScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.ended {
		return nil, nil
	}
	if s.res == nil {
		res, _ := ctx.Value(cteKey{s.node.CTE}).(*cteResult)
		if res == nil {
			return nil, fmt.Errorf("WITH query %s read outside its query", s.node.Name)
		}
		if err := res.ready(ctx); err != nil {
			return nil, err
		}
		pos, err := sourcePositions(s.node, res.node.Def.Columns())
		if err != nil {
			return nil, err
		}
		s.res, s.pos = res, pos
	}
	if s.next < len(s.res.batches) {
		b := s.res.batches[s.next]
		s.next++
		return s.project(b), nil
	}
	if s.res.file == nil {
		s.ended = true
		return nil, nil
	}
	if s.file == nil {
		r, err := s.res.file.open()
		if err != nil {
			return nil, err
		}
		s.file = r
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := s.file.next()
	if err != nil || b == nil {
		s.closeFile()
		s.ended = b == nil && err == nil
		return nil, err
	}
	out := s.project(b)
	b.Release()
	return out, nil
}

// project is b's columns this scan reads, under its schema.
func (s *cteScan) project(b arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, len(s.pos))
	for i, p := range s.pos {
		cols[i] = b.Column(p)
	}
	return array.NewRecordBatch(s.schema, cols, b.NumRows())
}

func (s *cteScan) closeFile() {
	if s.file != nil {
		s.file.close()
		s.file = nil
	}
}

func (s *cteScan) Close() { s.closeFile() }

// sourcePositions maps each column a CTE Scan reads to its position in
// the WITH query's output.
func sourcePositions(n *planner.CTEScan, def []planner.Column) ([]int, error) {
	pos := make([]int, len(n.Source))
	for i, id := range n.Source {
		pos[i] = -1
		for j, c := range def {
			if c.ID == id {
				pos[i] = j
				break
			}
		}
		if pos[i] < 0 {
			return nil, fmt.Errorf("WITH query %s has no column #%d", n.Name, id)
		}
	}
	return pos, nil
}
