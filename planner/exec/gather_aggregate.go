package exec

import (
	"context"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
)

// gatherAggregate runs a hash aggregate in parallel: each worker feeds the
// morsels it claims to its own part (its own groups and accumulators, its
// own reservation of the query's budget), and once every worker is done
// the parts are merged into the first, which returns the result. Past the
// budget the parts spill, and the merged aggregate takes in what they
// spilled (routeSpilled).
type gatherAggregate struct {
	node *planner.Gather
	// out is the merged result as the Aggregate node's operator (so
	// EXPLAIN ANALYZE counts its rows); it reads merged.
	out    Operator
	merged *mergedAggregate
}

// mergedAggregate waits for the workers, merges their parts and returns
// the result.
type mergedAggregate struct {
	g     *gatherAggregate
	parts []*hashAggregate
	feeds []*morselFeed
	grp   *workerGroup
	done  chan struct{} // a token per worker that finished its morsels
	final *hashAggregate
	err   error
	// builds are the join build sides the workers share.
	builds *sharedBuilds
	// spilled are the rows the parts wrote to disk, not read back yet.
	spilled []*spillFile
}

func newGatherAggregate(ctx context.Context, n *planner.Gather, agg *planner.Aggregate) (Operator, error) {
	g := &gatherAggregate{node: n}
	m := &mergedAggregate{g: g}
	g.merged = m
	bctx, builds := newSharedBuilds(ctx, agg.Input)
	m.builds = builds
	for range n.Workers {
		feed := &morselFeed{scan: n.Scan}
		wctx := withMorselFeed(bctx, feed)
		in, err := Build(wctx, agg.Input)
		if err != nil {
			m.closeParts()
			return nil, err
		}
		op, err := newHashAggregate(wctx, in, agg)
		if err != nil {
			m.closeParts()
			return nil, err
		}
		h, ok := op.(*hashAggregate)
		if !ok {
			op.Close()
			m.closeParts()
			return nil, fmt.Errorf("parallel aggregate: %T is not a hash aggregate", op)
		}
		h.par = &parallelAggState{anyOrder: n.AnyOrder}
		if h.spill != nil {
			h.spill.asPart(MemoryBudgetFrom(ctx), n.Workers)
		}
		m.parts, m.feeds = append(m.parts, h), append(m.feeds, feed)
	}
	g.out = instrument(ctx, agg, m)
	return g, nil
}

func (g *gatherAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return g.out.Next(ctx)
}

func (g *gatherAggregate) Close() { g.out.Close() }

// run is worker w: it feeds its part every morsel it claims.
func (m *mergedAggregate) run(grp *workerGroup, w int) {
	part, feed := m.parts[w], m.feeds[w]
	for {
		i, ok := grp.claim()
		if !ok {
			break
		}
		feed.start(grp.morsels, i)
		if err := part.consumeMorsel(grp.ctx, i); err != nil {
			grp.fail(err)
			return
		}
	}
	m.done <- struct{}{}
}

func (m *mergedAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if m.err != nil {
		return nil, m.err
	}
	if err := ctx.Err(); err != nil {
		m.err = err
		return nil, err
	}
	if m.final == nil {
		if err := m.finish(ctx); err != nil {
			m.err = err
			return nil, err
		}
	}
	return m.final.Next(ctx)
}

// finish runs the workers to the end and merges their parts.
func (m *mergedAggregate) finish(ctx context.Context) error {
	m.done = make(chan struct{}, len(m.parts))
	grp, err := startWorkers(ctx, m.g.node, len(m.parts), m.run)
	if err != nil {
		return err
	}
	m.grp = grp
	for range m.parts {
		select {
		case <-m.done:
		case <-grp.failed:
			return grp.err
		case <-ctx.Done():
			grp.cancel()
			return ctx.Err()
		}
	}
	// Every worker has returned: the parts are the gather's now.
	for _, p := range m.parts {
		if p.spill == nil {
			continue
		}
		if err := p.spill.finish(p.node); err != nil {
			return err
		}
		m.spilled = append(m.spilled, p.spill.files...)
		p.spill.files = nil
	}
	final := m.parts[0]
	for len(m.parts) > 1 {
		p := m.parts[1]
		if err := final.mergeFrom(ctx, p); err != nil {
			return err
		}
		p.Close()
		m.parts = slices.Delete(m.parts, 1, 2)
	}
	if len(m.spilled) > 0 {
		if err := m.routeSpilled(ctx, final); err != nil {
			return err
		}
	}
	final.par.merged = true
	m.final = final
	return nil
}

func (m *mergedAggregate) Close() {
	if m.grp != nil {
		m.grp.stop()
		m.grp = nil
	}
	m.closeParts()
}

func (m *mergedAggregate) closeParts() {
	for _, f := range m.spilled {
		f.remove()
	}
	m.spilled = nil
	for _, p := range m.parts {
		p.Close()
	}
	m.parts = nil
	m.builds.close()
}
