package exec

import (
	"context"
	"fmt"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// A hash aggregate past its memory budget spills as PostgreSQL 13's does.
// Once its groups no longer fit it admits no new group: rows of groups it
// holds go on accumulating in memory, rows of any other group are written,
// evaluated (keys, arguments, delimiters), to one of aggSpillPartitions
// files chosen by a hash of their key. At the end it returns the groups in
// memory, then aggregates each partition in turn the same way, with a
// fresh hash seed, so a partition that still does not fit spills again.
// Every row of a group is thus either in memory or in one partition, and
// each aggregate (DISTINCT, ordered-set, string_agg, array_agg...) sees
// all of its group's rows in input order.
//
// Groups come out in memory order then partition by partition, not in the
// order of their first rows as without spilling: a GROUP BY without ORDER
// BY has no order.
//
// The check is made after every fitCheckRows rows; the state may then be
// past the budget by those rows' new groups. Groups already in
// memory may grow after spilling starts (a string_agg's strings): up to a
// quarter more than the state held then, past the budget if need be;
// beyond that the query fails with 53200.

const (
	// aggSpillPartitions is how many partitions spilled rows go to.
	aggSpillPartitions = 16
	// aggPartitionBufBytes is a partition file's write buffer.
	aggPartitionBufBytes = 4 << 10
	// maxAggSpillDepth bounds how often a partition spills again.
	maxAggSpillDepth = 8
)

// aggSpill is a spilling aggregate's state.
type aggSpill struct {
	area  *SpillArea
	ins   *Instrumentation
	depth int
	// active: the aggregate admits no new group; allowed is what its
	// state may grow to from then on.
	active  bool
	allowed int64
	seed    maphash.Seed
	layout  *spillLayout
	// bufBytes is a partition file's write buffer; capBytes, when not 0,
	// is the most state a parallel aggregate's part holds before it
	// spills (asPart).
	bufBytes, capBytes int64
	parts              [aggSpillPartitions]*spillWriter
	files              []*spillFile

	// Per-batch scratch.
	ids    []int32
	memIdx []int32
	idx    [aggSpillPartitions][]int32
	enc    keyEncoder
}

func newAggSpill(area *SpillArea, ins *Instrumentation, depth int, h *hashAggregate) *aggSpill {
	l := &spillLayout{nkeys: len(h.keys)}
	for i := range h.accs {
		l.hasArg = append(l.hasArg, h.args[i] != nil)
		l.hasDelim = append(l.hasDelim, h.delims[i] != nil)
	}
	return &aggSpill{area: area, ins: ins, depth: depth, seed: maphash.MakeSeed(), layout: l, bufBytes: aggPartitionBufBytes}
}

// asPart makes sp the spill of one of a parallel aggregate's workers
// parts. The parts' groups are merged into one table at the end, which
// must fit with the rows they spilled: so together they spill once they
// hold half of what spilling operators may (their groups merged may take
// up to twice as much, the hash table growing), and their partition
// buffers together take what one aggregate's take.
func (sp *aggSpill) asPart(budget *MemoryBudget, workers int) {
	if budget.Limit() == 0 || workers < 1 {
		return
	}
	sp.capBytes = max(budget.spillLimit()/2/int64(workers), 1)
	sp.bufBytes = max(aggPartitionBufBytes/int64(workers), 1<<10)
}

// spillingRoom is what a state of size bytes may grow by once the
// aggregate spills: a quarter for the groups it holds, the partition
// files' buffers, and the scratch of routing rows at a time (routeRows).
func (sp *aggSpill) spillingRoom(size, rows int64) int64 {
	return size/4 + aggSpillPartitions*sp.bufBytes + 8*rows
}

// routeSliceRows is how many rows a spilling aggregate routes at a time: more
// than it checks its state after (their partitions' writes would be
// slivers), few enough that their scratch fits beside the state, within
// a batch.
func (h *hashAggregate) routeSliceRows() int64 {
	return max(h.fitCheckRows(), min(2048, outputBatchRows))
}

// probeRoom is what the hash table's scratch grows by when routeSliceRows rows
// are routed at a time rather than fitCheckRows.
func (h *hashAggregate) probeRoom() int64 {
	per, route := h.fitCheckRows(), h.routeSliceRows()
	if h.groups == nil || per >= route {
		return 0
	}
	return h.groups.own.memBytes() / per * (route - per)
}

// memBytes is what the open partition files' buffers and the scratch
// hold.
func (sp *aggSpill) memBytes() int64 {
	n := int64(4*cap(sp.ids) + 4*cap(sp.memIdx))
	for _, w := range sp.parts {
		if w != nil {
			n += sp.bufBytes
		}
	}
	return n
}

// consumeSpilling reads the input as consumeGrouped does, and starts
// spilling when the state passes the budget.
func (h *hashAggregate) consumeSpilling(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, sel, err := h.next(ctx)
		if err != nil || b == nil {
			return err
		}
		// Until it spills, the state is checked every fitCheckRows rows,
		// so a large batch's new groups do not take it far past the
		// budget; once it spills it takes no new group, and routes
		// routeSliceRows rows at a time.
		n, per := b.NumRows(), h.fitCheckRows()
		if h.spill.active {
			per = h.routeSliceRows()
		}
		if sel != nil && (n > per || h.spill.active) {
			// Rows are sliced and routed as a batch of their own.
			kept, err := takeBatch(ctx, b, sel)
			b.Release()
			if err != nil {
				return err
			}
			b, sel, n = kept, nil, kept.NumRows()
		}
		for off := int64(0); off < n && err == nil; off += per {
			part := b
			if n > per {
				part = b.NewSlice(off, min(off+per, n))
			} else {
				part.Retain()
			}
			err = h.consumeSelected(ctx, part, sel)
			part.Release()
			if err == nil {
				err = h.fitState()
			}
		}
		b.Release()
		if err != nil {
			return err
		}
	}
}

// fitCheckRows is how many input rows an aggregate that may spill
// consumes between two checks of its state until it spills: rows of new
// groups of up to 256 bytes each fill at most an eighth of the budget, at
// least 256 rows at a time.
func (h *hashAggregate) fitCheckRows() int64 {
	return max(h.mem.budget.Limit()/8/256, 256)
}

// fitState charges the state to the budget. The first time it does not
// fit, the aggregate starts spilling.
func (h *hashAggregate) fitState() error {
	size := h.stateBytes()
	sp := h.spill
	if (sp.capBytes == 0 || size <= sp.capBytes) && h.mem.tryResize(size) {
		return nil
	}
	switch {
	case !sp.active && sp.depth < maxAggSpillDepth:
		sp.active = true
		sp.allowed = size + sp.spillingRoom(size, h.routeSliceRows()) + h.probeRoom()
		h.mem.forceResize(size)
		return nil
	case sp.active && size <= sp.allowed:
		h.mem.forceResize(size)
		return nil
	}
	return h.mem.resize(size)
}

// routeRows accumulates the rows of groups in memory and writes the
// others to their partitions.
func (h *hashAggregate) routeRows(ctx context.Context, in aggRows) error {
	sp := h.spill
	n := in.n
	sp.ids = grow(sp.ids, n)[:n]
	h.groups.probe(in.keys, n, sp.ids)
	sp.memIdx = sp.memIdx[:0]
	for r, id := range sp.ids {
		if id >= 0 {
			sp.memIdx = append(sp.memIdx, int32(r))
		}
	}
	if len(sp.memIdx) == n {
		return h.accumulate(in)
	}
	if len(sp.memIdx) > 0 {
		held, err := in.take(sp.memIdx)
		if err != nil {
			return err
		}
		err = h.accumulate(held)
		held.release()
		if err != nil {
			return err
		}
	}
	sp.enc.encode(in.keys, n)
	for p := range sp.idx {
		sp.idx[p] = sp.idx[p][:0]
	}
	for r, id := range sp.ids {
		if id < 0 {
			key := sp.enc.buf[sp.enc.offs[r]:sp.enc.offs[r+1]]
			p := maphash.Bytes(sp.seed, key) % aggSpillPartitions
			sp.idx[p] = append(sp.idx[p], int32(r))
		}
	}
	for p, rows := range sp.idx {
		if len(rows) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := sp.write(p, in, rows); err != nil {
			return err
		}
	}
	return nil
}

// write appends rows of in to partition p.
func (sp *aggSpill) write(p int, in aggRows, rows []int32) error {
	part, err := in.take(rows)
	if err != nil {
		return err
	}
	defer part.release()
	b := sp.layout.batch(part)
	defer b.Release()
	if sp.parts[p] == nil {
		w, err := newSpillWriter(sp.area, "agg", b.Schema(), int(sp.bufBytes))
		if err != nil {
			return err
		}
		sp.parts[p] = w
	}
	return sp.parts[p].write(b)
}

// finish closes the partition files once the input is consumed.
func (sp *aggSpill) finish(node planner.Node) error {
	for p, w := range sp.parts {
		if w == nil {
			continue
		}
		sp.parts[p] = nil
		f, err := w.finish()
		if err != nil {
			return err
		}
		sp.files = append(sp.files, f)
		sp.ins.addSpill(node, f.bytes)
	}
	return nil
}

// close drops the partitions, written or not.
func (sp *aggSpill) close() {
	for p, w := range sp.parts {
		if w != nil {
			w.abort()
			sp.parts[p] = nil
		}
	}
	for _, f := range sp.files {
		f.remove()
	}
	sp.files = nil
}

// nextPartition returns the next batch of the partitions' groups, once
// the groups held in memory are all returned.
func (h *hashAggregate) nextPartition(ctx context.Context) (arrow.RecordBatch, error) {
	if h.out != nil {
		h.releaseOutput()
		h.mem.shrink(h.mem.held)
	}
	for {
		if h.child != nil {
			b, err := h.child.Next(ctx)
			if err != nil || b != nil {
				return b, err
			}
			h.child.Close()
			h.child = nil
		}
		if len(h.spill.files) == 0 {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f := h.spill.files[0]
		h.spill.files = h.spill.files[1:]
		c, err := h.partitionAggregate(f)
		if err != nil {
			return nil, err
		}
		h.child = c
	}
}

// partitionAggregate is an aggregate of the same node over a partition's
// rows.
func (h *hashAggregate) partitionAggregate(f *spillFile) (*hashAggregate, error) {
	r, err := f.open()
	if err != nil {
		f.remove()
		return nil, err
	}
	c := &hashAggregate{input: &spillInput{f: f, r: r}, node: h.node, keys: h.keys, args: h.args, delims: h.delims,
		schema: h.schema, groups: newGroupingTable(), mem: reservation{budget: h.mem.budget, what: h.mem.what}, fromSpill: true}
	for _, a := range h.node.Aggs {
		_, _, acc, err := compileAggCall(a, h.node.Input.Columns())
		if err != nil {
			c.Close()
			return nil, err
		}
		c.accs = append(c.accs, acc)
	}
	for _, g := range h.node.GroupCols {
		c.keyBld = append(c.keyBld, array.NewBuilder(memory.DefaultAllocator, g.Type.Arrow()))
	}
	c.spill = &aggSpill{area: h.spill.area, ins: h.spill.ins, depth: h.spill.depth + 1, seed: maphash.MakeSeed(), layout: h.spill.layout,
		bufBytes: aggPartitionBufBytes}
	return c, nil
}

// take gathers rows idx of every input.
func (r aggRows) take(idx []int32) (aggRows, error) {
	out := aggRows{n: len(idx), keys: make([]arrow.Array, len(r.keys)),
		args: make([]arrow.Array, len(r.args)), delims: make([]arrow.Array, len(r.delims))}
	for _, set := range [][2][]arrow.Array{{r.keys, out.keys}, {r.args, out.args}, {r.delims, out.delims}} {
		for i, a := range set[0] {
			if a == nil {
				continue
			}
			t, err := takeIndices(a, idx)
			if err != nil {
				out.release()
				return aggRows{}, fmt.Errorf("aggregate spill: %w", err)
			}
			set[1][i] = t
		}
	}
	return out, nil
}

// spillLayout is the columns of a spilled partition: the keys, then each
// aggregate's argument and delimiter where it has one.
type spillLayout struct {
	nkeys            int
	hasArg, hasDelim []bool
	schema           *arrow.Schema // of the first batch written
}

// batch makes the spilled batch of in.
func (l *spillLayout) batch(in aggRows) arrow.RecordBatch {
	cols := append([]arrow.Array{}, in.keys...)
	for i := range l.hasArg {
		if l.hasArg[i] {
			cols = append(cols, in.args[i])
		}
		if l.hasDelim[i] {
			cols = append(cols, in.delims[i])
		}
	}
	if l.schema == nil {
		fields := make([]arrow.Field, len(cols))
		for i, c := range cols {
			fields[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: c.DataType(), Nullable: true}
		}
		l.schema = arrow.NewSchema(fields, nil)
	}
	return array.NewRecordBatch(l.schema, cols, int64(in.n))
}

// split sets in's inputs to the columns of a spilled batch.
func (l *spillLayout) split(b arrow.RecordBatch, in *aggRows) {
	c := 0
	next := func() arrow.Array {
		a := b.Column(c)
		a.Retain()
		c++
		return a
	}
	for i := 0; i < l.nkeys; i++ {
		in.keys[i] = next()
	}
	for i := range l.hasArg {
		if l.hasArg[i] {
			in.args[i] = next()
		}
		if l.hasDelim[i] {
			in.delims[i] = next()
		}
	}
}

// spillInput reads a partition's batches back; Close removes its file.
type spillInput struct {
	f *spillFile
	r *spillReader
}

func (s *spillInput) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.r.next()
}

func (s *spillInput) Close() {
	s.r.close()
	s.f.remove()
}

// routeSpilled folds the rows the parts of a parallel aggregate spilled
// into the merged groups: as a serial aggregate that spills does, the
// merged aggregate admits no new group, rows of its groups accumulate and
// the others go to its own partitions, which it aggregates once its
// groups are returned. A part spills the rows of groups it has no room
// for, which another part may hold: they meet here.
func (m *mergedAggregate) routeSpilled(ctx context.Context, final *hashAggregate) error {
	layout := final.spill.layout
	sp := &aggSpill{area: final.spill.area, ins: final.spill.ins, depth: 1, seed: maphash.MakeSeed(), layout: layout,
		active: true, bufBytes: aggPartitionBufBytes}
	final.spill.close()
	final.spill = sp
	size := final.stateBytes()
	sp.allowed = size + sp.spillingRoom(size, outputBatchRows)
	final.mem.forceResize(size)
	for len(m.spilled) > 0 {
		f := m.spilled[0]
		m.spilled = m.spilled[1:]
		r, err := f.open()
		if err != nil {
			f.remove()
			return err
		}
		err = final.routeFile(ctx, r)
		r.close()
		f.remove()
		if err != nil {
			return err
		}
	}
	return nil
}

// routeFile routes the rows of a spilled partition (routeRows).
func (h *hashAggregate) routeFile(ctx context.Context, r *spillReader) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := r.next()
		if err != nil || b == nil {
			return err
		}
		in := aggRows{n: int(b.NumRows()), keys: make([]arrow.Array, len(h.keys)),
			args: make([]arrow.Array, len(h.accs)), delims: make([]arrow.Array, len(h.accs))}
		h.spill.layout.split(b, &in)
		b.Release()
		err = h.routeRows(ctx, in)
		in.release()
		if err == nil {
			err = h.fitState()
		}
		if err != nil {
			return err
		}
	}
}
