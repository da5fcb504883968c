package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// gather runs a pipeline (filters and projections over a scan) in several
// workers, each reading whole morsels of the scan, and returns the
// pipeline's batches in morsel order: the rows, and their order, of the
// serial plan. A worker may run ahead of the morsel being returned by at
// most window morsels, which bounds what waits in the gather (charged to
// the query's memory budget while it waits).
type gather struct {
	node    *planner.Gather
	workers []gatherWorker
	window  int
	mem     reservation
	// builds are the join build sides the workers share.
	builds *sharedBuilds

	grp     *workerGroup
	results chan morselBatch
	// slots holds a token per morsel claimed and not yet returned.
	slots   chan struct{}
	next    int // the morsel being returned
	pending map[int]*morselOutput
	err     error
}

type gatherWorker struct {
	op   Operator
	feed *morselFeed
}

// morselBatch is a worker's batch of morsel i; a nil batch says the
// morsel is finished.
type morselBatch struct {
	morsel int
	batch  arrow.RecordBatch
}

type morselOutput struct {
	batches []arrow.RecordBatch
	done    bool
}

func newGather(ctx context.Context, n *planner.Gather) (Operator, error) {
	if agg, ok := n.Input.(*planner.Aggregate); ok {
		return newGatherAggregate(ctx, n, agg)
	}
	g := &gather{node: n, window: 2 * n.Workers, mem: newReservation(ctx, "Gather"), pending: map[int]*morselOutput{}}
	ctx, g.builds = newSharedBuilds(ctx, n.Input)
	for range n.Workers {
		feed := &morselFeed{scan: n.Scan}
		op, err := Build(withMorselFeed(ctx, feed), n.Input)
		if err != nil {
			g.Close()
			return nil, err
		}
		g.workers = append(g.workers, gatherWorker{op: op, feed: feed})
	}
	return g, nil
}

func (g *gather) start(ctx context.Context) error {
	g.results = make(chan morselBatch, 2*len(g.workers))
	g.slots = make(chan struct{}, g.window)
	grp, err := startWorkers(ctx, g.node, len(g.workers), g.run)
	if err != nil {
		return err
	}
	g.grp = grp
	return nil
}

// run is worker w: it claims morsels while the window allows and sends
// their batches.
func (g *gather) run(grp *workerGroup, w int) {
	wk := g.workers[w]
	defer wk.op.Close()
	ctx := grp.ctx
	for {
		select {
		case g.slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		i, ok := grp.claim()
		if !ok {
			<-g.slots
			return
		}
		wk.feed.start(grp.morsels, i)
		for {
			b, err := wk.op.Next(ctx)
			if err != nil {
				grp.fail(err)
				return
			}
			if !g.send(ctx, morselBatch{morsel: i, batch: b}) {
				return
			}
			if b == nil {
				break
			}
		}
	}
}

// send passes r to the gather, or releases it when the workers are
// stopping.
func (g *gather) send(ctx context.Context, r morselBatch) bool {
	select {
	case g.results <- r:
		return true
	case <-ctx.Done():
		if r.batch != nil {
			r.batch.Release()
		}
		return false
	}
}

func (g *gather) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if g.err != nil {
		return nil, g.err
	}
	// A cancelled query ends here even when batches are waiting: the
	// select below picks at random among ready cases.
	if err := ctx.Err(); err != nil {
		g.err = err
		if g.grp != nil {
			g.grp.cancel()
		}
		return nil, err
	}
	if g.grp == nil {
		if err := g.start(ctx); err != nil {
			g.err = err
			return nil, err
		}
	}
	for {
		if out := g.pending[g.next]; out != nil {
			if len(out.batches) > 0 {
				b := out.batches[0]
				out.batches = out.batches[1:]
				g.mem.shrink(batchBytes(b))
				return b, nil
			}
			if out.done {
				delete(g.pending, g.next)
				g.next++
				<-g.slots
				continue
			}
		}
		if g.next >= g.grp.morsels.Len() {
			return nil, nil
		}
		select {
		case r := <-g.results:
			if err := g.file(r); err != nil {
				g.err = err
				g.grp.cancel()
				return nil, err
			}
		case <-g.grp.failed:
			g.err = g.grp.err
			return nil, g.err
		case <-ctx.Done():
			g.err = ctx.Err()
			g.grp.cancel()
			return nil, g.err
		}
	}
}

// file keeps a worker's batch until its morsel's turn.
func (g *gather) file(r morselBatch) error {
	out := g.pending[r.morsel]
	if out == nil {
		out = &morselOutput{}
		g.pending[r.morsel] = out
	}
	if r.batch == nil {
		out.done = true
		return nil
	}
	out.batches = append(out.batches, r.batch)
	return g.mem.grow(batchBytes(r.batch))
}

func (g *gather) Close() {
	if g.grp != nil {
		g.grp.stop()
		// No worker sends any more: drop what they left.
		for len(g.results) > 0 {
			if r := <-g.results; r.batch != nil {
				r.batch.Release()
			}
		}
		g.grp = nil
	} else {
		for _, w := range g.workers {
			w.op.Close()
		}
	}
	g.workers = nil
	for _, out := range g.pending {
		for _, b := range out.batches {
			b.Release()
		}
	}
	g.pending = nil
	g.builds.close()
	g.mem.close()
}

func errNotMorselTable(s *planner.Scan) error {
	return fmt.Errorf("parallel scan of %s: the table cannot be split", s.Table.QualifiedName().Name)
}

func wrapScanErr(s *planner.Scan, err error) error {
	return fmt.Errorf("scan %s: %w", s.Table.QualifiedName().Name, err)
}
