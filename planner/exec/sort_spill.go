package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// A sort past its memory budget (spill.go) sorts what it has buffered,
// writes it as a sorted run and goes on with an empty buffer; at the end
// what is left becomes the last run, and the runs are merged, streaming,
// with the comparison of the in-memory sort (pairComparator). Runs are
// consecutive stretches of the input, so on equal keys the earlier run's
// row comes first, and the merged order is the stable order the
// in-memory sort gives. When there are more runs than the budget can
// hold a batch of at once, consecutive runs are merged into longer ones
// first.

const (
	// maxMergeFanIn bounds how many runs one merge reads at once.
	maxMergeFanIn = 64
	// sortRunBufBytes is the write buffer of a run.
	sortRunBufBytes = 64 << 10
)

// spillRun sorts the buffered batches and writes them as a run.
func (s *sortOp) spillRun(ctx context.Context, batches []arrow.RecordBatch) error {
	cols, order, charged, err := s.sortBuffered(ctx, batches)
	if err != nil {
		return err
	}
	defer func() {
		releaseAll(cols)
		s.mem.shrink(charged)
	}()
	w, err := newSpillWriter(s.spill, "sort", s.schema, sortRunBufBytes)
	if err != nil {
		return err
	}
	per := outputBatchRows
	if len(order) > 0 {
		per = spillBatchRows(s.mem.budget, arraysBytes(cols)/int64(len(order)))
	}
	for start := 0; start < len(order); start += per {
		if err := ctx.Err(); err != nil {
			w.abort()
			return err
		}
		idx := order[start:min(start+per, len(order))]
		out, err := gatherColumns(ctx, cols, idx)
		if err != nil {
			w.abort()
			return fmt.Errorf("sort: %w", err)
		}
		b := array.NewRecordBatch(s.schema, out, int64(len(idx)))
		releaseAll(out)
		err = w.write(b)
		b.Release()
		if err != nil {
			w.abort()
			return err
		}
	}
	f, err := w.finish()
	if err != nil {
		return err
	}
	s.runs = append(s.runs, f)
	s.ins.addSpill(s.owner, f.bytes)
	return nil
}

// startMerge merges the runs down to as many as one merge can read, and
// starts the merge Next reads.
func (s *sortOp) startMerge(ctx context.Context) error {
	for {
		fanIn := s.mergeFanIn()
		if len(s.runs) <= fanIn {
			break
		}
		var merged []*spillFile
		for i := 0; i < len(s.runs); i += fanIn {
			group := s.runs[i:min(i+fanIn, len(s.runs))]
			if len(group) == 1 {
				merged = append(merged, group[0])
				continue
			}
			f, err := s.mergeToRun(ctx, group)
			if err != nil {
				return err
			}
			merged = append(merged, f)
		}
		s.runs = merged
	}
	rows := outputBatchRows
	if s.smallMerge {
		rows = s.spillBatchRows()
	}
	m, err := newSortMerge(ctx, s, s.runs, rows)
	if err != nil {
		return err
	}
	s.merge = m
	return nil
}

// mergeFanIn is how many runs a merge may read at once: as many as the
// budget left holds three batches of (the run's, and the output's gather
// and concatenation), within 2 and maxMergeFanIn.
func (s *sortOp) mergeFanIn() int {
	var batch int64 = 1
	for _, f := range s.runs {
		batch = max(batch, f.batchMax)
	}
	n := s.mem.budget.available() / (3 * batch)
	return int(min(max(n, 2), maxMergeFanIn))
}

// spillBatchRows is how many rows of the runs' size a spill batch holds.
func (s *sortOp) spillBatchRows() int {
	var rows, bytes int64
	for _, f := range s.runs {
		rows += f.rows
		bytes += f.memBytes
	}
	return spillBatchRows(s.mem.budget, bytes/max(rows, 1))
}

// mergeToRun merges consecutive runs into one.
func (s *sortOp) mergeToRun(ctx context.Context, runs []*spillFile) (*spillFile, error) {
	m, err := newSortMerge(ctx, s, runs, s.spillBatchRows())
	if err != nil {
		return nil, err
	}
	defer m.close()
	w, err := newSpillWriter(s.spill, "sort", s.schema, sortRunBufBytes)
	if err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			w.abort()
			return nil, err
		}
		b, err := m.next(ctx)
		if err != nil {
			w.abort()
			return nil, err
		}
		if b == nil {
			break
		}
		err = w.write(b)
		b.Release()
		if err != nil {
			w.abort()
			return nil, err
		}
	}
	f, err := w.finish()
	if err != nil {
		return nil, err
	}
	s.ins.addSpill(s.owner, f.bytes)
	return f, nil
}

// closeSpill drops the merge and the runs' files.
func (s *sortOp) closeSpill() {
	if s.merge != nil {
		s.merge.close()
		s.merge = nil
	}
	for _, f := range s.runs {
		f.remove()
	}
	s.runs = nil
}

// sortMerge merges sorted runs: a heap of the runs by their next row,
// each run holding one batch in memory.
type sortMerge struct {
	s       *sortOp
	srcs    []*mergeSource
	heap    []int // source indices, the least row first
	maxRows int
	// pairs holds the key comparators between two sources' batches
	// (pairs[x*len(srcs)+y], nil until needed and after either source
	// moves to its next batch).
	pairs [][]func(i, j int) int
	err   error
	picks []mergePick
	// pending is the source whose batch the last output used up; it
	// moves on at the next call, once its rows are gathered.
	pending int
}

type mergeSource struct {
	f   *spillFile
	r   *spillReader
	b   arrow.RecordBatch
	pos int
	mem int64
}

type mergePick struct {
	src int
	row int32
}

func newSortMerge(ctx context.Context, s *sortOp, runs []*spillFile, maxRows int) (*sortMerge, error) {
	m := &sortMerge{s: s, maxRows: maxRows, pending: -1}
	m.pairs = make([][]func(i, j int) int, len(runs)*len(runs))
	for _, f := range runs {
		r, err := f.open()
		if err != nil {
			m.close()
			return nil, err
		}
		m.srcs = append(m.srcs, &mergeSource{f: f, r: r})
	}
	for x := range m.srcs {
		if err := ctx.Err(); err != nil {
			m.close()
			return nil, err
		}
		ok, err := m.load(x)
		if err != nil {
			m.close()
			return nil, err
		}
		if ok {
			m.heap = append(m.heap, x)
		}
	}
	for i := len(m.heap)/2 - 1; i >= 0; i-- {
		m.down(i)
	}
	if m.err != nil {
		m.close()
		return nil, m.err
	}
	return m, nil
}

// load reads source x's next non-empty batch; false when the run is
// done (its file is then removed).
func (m *sortMerge) load(x int) (bool, error) {
	src := m.srcs[x]
	if src.b != nil {
		src.b.Release()
		src.b = nil
		m.s.mem.shrink(src.mem)
		src.mem = 0
	}
	for i := range m.srcs {
		m.pairs[x*len(m.srcs)+i] = nil
		m.pairs[i*len(m.srcs)+x] = nil
	}
	for {
		b, err := src.r.next()
		if err != nil {
			return false, err
		}
		if b == nil {
			src.r.close()
			src.r = nil
			src.f.remove()
			return false, nil
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		size := batchBytes(b)
		if err := m.s.mem.grow(size); err != nil {
			b.Release()
			return false, err
		}
		src.b, src.pos, src.mem = b, 0, size
		return true, nil
	}
}

// pair returns the key comparators between sources x and y.
func (m *sortMerge) pair(x, y int) []func(i, j int) int {
	p := &m.pairs[x*len(m.srcs)+y]
	if *p != nil {
		return *p
	}
	s := m.s
	bx, by := m.srcs[x].b, m.srcs[y].b
	fns := make([]func(i, j int) int, len(s.keyPos))
	for k, pos := range s.keyPos {
		key := s.node.Keys[k]
		c, err := typedPairComparator(bx.Column(pos), by.Column(pos), key.Expr.Type(), key.Desc, key.NullsFirst)
		if err != nil {
			if m.err == nil {
				m.err = err
			}
			c = func(int, int) int { return 0 }
		}
		fns[k] = c
	}
	*p = fns
	return fns
}

// less orders sources x and y by their next rows; on equal keys the
// earlier run first.
func (m *sortMerge) less(x, y int) bool {
	sx, sy := m.srcs[x], m.srcs[y]
	for _, c := range m.pair(x, y) {
		if r := c(sx.pos, sy.pos); r != 0 {
			return r < 0
		}
	}
	return x < y
}

func (m *sortMerge) down(i int) {
	h := m.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		least := l
		if r := l + 1; r < len(h) && m.less(h[r], h[l]) {
			least = r
		}
		if !m.less(h[least], h[i]) {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// next returns the next batch of merged rows, or nil at the end. A batch
// ends when maxRows rows are picked or a run's batch is used up.
func (m *sortMerge) next(ctx context.Context) (arrow.RecordBatch, error) {
	if m.pending >= 0 {
		x := m.pending
		m.pending = -1
		ok, err := m.load(x)
		if err != nil {
			return nil, err
		}
		// x is at the top of the heap.
		if !ok {
			last := len(m.heap) - 1
			m.heap[0] = m.heap[last]
			m.heap = m.heap[:last]
		}
		if len(m.heap) > 0 {
			m.down(0)
		}
	}
	m.picks = m.picks[:0]
	for n := 0; len(m.heap) > 0 && len(m.picks) < m.maxRows; n++ {
		if n == cancelCheckRows {
			n = 0
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		x := m.heap[0]
		src := m.srcs[x]
		m.picks = append(m.picks, mergePick{src: x, row: int32(src.pos)})
		src.pos++
		if src.pos == int(src.b.NumRows()) {
			m.pending = x
			break
		}
		m.down(0)
	}
	if m.err != nil {
		return nil, m.err
	}
	if len(m.picks) == 0 {
		return nil, nil
	}
	return m.gather(ctx)
}

// gather builds the batch of the picked rows: each source's rows taken
// at once, then put in picked order.
func (m *sortMerge) gather(ctx context.Context) (arrow.RecordBatch, error) {
	schema := m.s.schema
	counts := make([]int32, len(m.srcs))
	single := true
	for _, p := range m.picks {
		counts[p.src]++
		single = single && p.src == m.picks[0].src
	}
	if single {
		idx := make([]int32, len(m.picks))
		for i, p := range m.picks {
			idx[i] = p.row
		}
		cols, err := gatherColumns(ctx, m.srcs[m.picks[0].src].b.Columns(), idx)
		if err != nil {
			return nil, fmt.Errorf("sort merge: %w", err)
		}
		defer releaseAll(cols)
		return array.NewRecordBatch(schema, cols, int64(len(idx))), nil
	}
	// Source x's rows sit at offs[x] onward in the concatenation of
	// each source's taken rows; perm puts them in picked order.
	offs := make([]int32, len(m.srcs))
	var total int32
	for x, c := range counts {
		offs[x] = total
		total += c
	}
	idx := make([][]int32, len(m.srcs))
	perm := make([]int32, len(m.picks))
	identity := true
	for i, p := range m.picks {
		perm[i] = offs[p.src] + int32(len(idx[p.src]))
		idx[p.src] = append(idx[p.src], p.row)
		identity = identity && perm[i] == int32(i)
	}
	taken := make([][]arrow.Array, 0, len(m.srcs))
	defer func() {
		for _, t := range taken {
			releaseAll(t)
		}
	}()
	for x, rows := range idx {
		if len(rows) == 0 {
			continue
		}
		t, err := gatherColumns(ctx, m.srcs[x].b.Columns(), rows)
		if err != nil {
			return nil, fmt.Errorf("sort merge: %w", err)
		}
		taken = append(taken, t)
	}
	out := make([]arrow.Array, len(schema.Fields()))
	defer releaseAll(out)
	parts := make([]arrow.Array, len(taken))
	for c := range out {
		for i, t := range taken {
			parts[i] = t[c]
		}
		cat, err := concatArrays(parts)
		if err != nil {
			return nil, fmt.Errorf("sort merge: %w", err)
		}
		if identity {
			out[c] = cat
			continue
		}
		col, err := takeIndices(cat, perm)
		cat.Release()
		if err != nil {
			return nil, fmt.Errorf("sort merge: %w", err)
		}
		out[c] = col
	}
	return array.NewRecordBatch(schema, out, int64(len(perm))), nil
}

// close releases the sources' batches and readers.
func (m *sortMerge) close() {
	for _, src := range m.srcs {
		if src.b != nil {
			src.b.Release()
			src.b = nil
			m.s.mem.shrink(src.mem)
		}
		if src.r != nil {
			src.r.close()
			src.r = nil
		}
		src.f.remove()
	}
	m.srcs = nil
}
