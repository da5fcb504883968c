package exec

import (
	"context"
	"errors"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A hash join whose build side passes the query's memory budget becomes a
// grace hash join. The build writes the rows it holds, and the rest of
// its input, to joinSpillPartitions files chosen by a hash of their join
// key, and lets go of its table; the probe side is then written to
// partitions by the same hash. Rows with equal keys land in partitions of
// the same number, so partition p of the left side only ever matches
// partition p of the right: each pair is joined in turn by a join of its
// own, which may partition again (with a fresh seed) when its build still
// does not fit, up to maxJoinSpillDepth times; past that the query fails
// with 53200, as does a join without equality keys, which cannot be
// partitioned. Rows with a NULL key match nothing; they go to a partition
// like any other, where the partition's join passes them on as unmatched
// (LEFT, FULL, anti) or drops them, as the join in memory would.
//
// Every right row is in exactly one partition, so a RIGHT or FULL join's
// unmatched right rows come out of the partition that holds them. The
// output is grouped by partition rather than in probe order: a join's
// output has no order. A build shared by parallel workers (join_shared.go)
// never partitions.

const (
	// joinSpillPartitions is how many partitions each side is split into.
	joinSpillPartitions = 16
	// joinPartitionBufBytes is a partition file's write buffer.
	joinPartitionBufBytes = 16 << 10
	// maxJoinSpillDepth bounds how often a partition's join partitions
	// again.
	maxJoinSpillDepth = 4
)

// partitionOrFail answers a reservation that failed with err while the
// build held batches: a build that may spill writes them and the rest of
// its input (none when inputRead) to partitions and succeeds; any other
// keeps the error.
func (b *joinBuild) partitionOrFail(ctx context.Context, err error, batches []arrow.RecordBatch, inputRead bool) error {
	var pe *pgerror.Error
	if b.spill == nil || !errors.As(err, &pe) || pe.Code != pgerror.OutOfMemory || len(batches) == 0 {
		return err
	}
	// The rows go to disk: drop the table and whatever was gathered.
	releaseAll(b.rcols)
	b.rcols, b.table, b.offs, b.rows, b.rrows, b.unique = nil, nil, nil, nil, 0, false
	b.mem.close()
	b.seed = maphash.MakeSeed()
	p := newRowPartitioner(b.spill, "hashjoin-build", b.seed, b.rightKeys, batches[0].Schema())
	for _, rb := range batches {
		if err := p.add(ctx, rb); err != nil {
			p.abort()
			return err
		}
	}
	for !inputRead {
		if err := ctx.Err(); err != nil {
			p.abort()
			return err
		}
		rb, err := b.right.Next(ctx)
		if err != nil {
			p.abort()
			return err
		}
		if rb == nil {
			break
		}
		err = p.add(ctx, rb)
		rb.Release()
		if err != nil {
			p.abort()
			return err
		}
	}
	parts, err := p.finish(b.ins, b.node)
	if err != nil {
		return err
	}
	b.parts = parts
	return nil
}

// partitionedJoin is a grace hash join's progress: the probe side's
// partitions, and the join of the partition pair being read.
type partitionedJoin struct {
	left []*spillFile
	next int       // the next partition to join
	cur  *hashJoin // the join of partition next-1, nil between two
}

// nextPartitioned returns the next batch of a join whose build side went
// to partitions: it partitions the probe side first, then reads the join
// of each pair of partitions in turn.
func (j *hashJoin) nextPartitioned(ctx context.Context) (arrow.RecordBatch, error) {
	b := j.build
	if j.grace == nil {
		left, err := j.partitionLeft(ctx)
		if err != nil {
			return nil, err
		}
		j.grace = &partitionedJoin{left: left}
	}
	g := j.grace
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if g.cur != nil {
			out, err := g.cur.Next(ctx)
			if err != nil || out != nil {
				return out, err
			}
			g.cur.Close()
			g.cur = nil
		}
		if g.next >= len(b.parts) {
			return nil, nil
		}
		p := g.next
		g.next++
		lf, rf := g.left[p], b.parts[p]
		g.left[p], b.parts[p] = nil, nil
		if lf == nil && rf == nil {
			continue
		}
		cur, err := j.joinPartition(ctx, lf, rf)
		if err != nil {
			return nil, err
		}
		g.cur = cur
	}
}

// partitionLeft writes the probe side to partitions by the build's hash.
func (j *hashJoin) partitionLeft(ctx context.Context) ([]*spillFile, error) {
	b := j.build
	probeSide, _ := joinSides(j.node)
	p := newRowPartitioner(b.spill, "hashjoin-probe", b.seed, j.leftKeys, schemaOf(probeSide.Columns()))
	for {
		if err := ctx.Err(); err != nil {
			p.abort()
			return nil, err
		}
		lb, err := j.left.Next(ctx)
		if err != nil {
			p.abort()
			return nil, err
		}
		if lb == nil {
			break
		}
		err = p.add(ctx, lb)
		lb.Release()
		if err != nil {
			p.abort()
			return nil, err
		}
	}
	return p.finish(b.ins, j.node)
}

// joinPartition starts the join of one pair of partitions (either may be
// nil: no rows), which may partition again.
func (j *hashJoin) joinPartition(ctx context.Context, lf, rf *spillFile) (*hashJoin, error) {
	left, err := openPartition(lf)
	if err != nil {
		rf.removeIfAny()
		return nil, err
	}
	right, err := openPartition(rf)
	if err != nil {
		left.Close()
		return nil, err
	}
	_, rk, _ := splitJoinKeys(j.node)
	build, err := newJoinBuild(ctx, j.node, right, rk, true, j.build.depth+1)
	if err != nil {
		left.Close()
		return nil, err
	}
	return newHashJoinOver(ctx, j.node, left, build, false)
}

// openPartition reads a partition file back as an operator that removes
// the file when closed; a nil file reads as no rows.
func openPartition(f *spillFile) (Operator, error) {
	if f == nil {
		return noRows{}, nil
	}
	r, err := f.open()
	if err != nil {
		f.remove()
		return nil, err
	}
	return &spillInput{f: f, r: r}, nil
}

// removeIfAny removes f when there is one.
func (f *spillFile) removeIfAny() {
	if f != nil {
		f.remove()
	}
}

// noRows is an input without rows.
type noRows struct{}

func (noRows) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (noRows) Close()                                          {}

// close ends the partition pair being joined and removes the partition
// files not joined yet.
func (g *partitionedJoin) close(b *joinBuild) {
	if g != nil {
		if g.cur != nil {
			g.cur.Close()
			g.cur = nil
		}
		for i, f := range g.left {
			f.removeIfAny()
			g.left[i] = nil
		}
	}
	if b != nil {
		for i, f := range b.parts {
			f.removeIfAny()
			b.parts[i] = nil
		}
	}
}

// rowPartitioner writes rows to partition files: one side of a join by a
// hash of its keys (add: as keyEncoder encodes them, so both sides hash
// equal keys alike, splitJoinKeys only pairs keys of the same Arrow type),
// or rows a caller assigns (writeRows), as a set operation does.
type rowPartitioner struct {
	area   *SpillArea
	kind   string
	seed   maphash.Seed
	keys   []evaluator
	schema *arrow.Schema
	parts  [joinSpillPartitions]*spillWriter

	// Per-batch scratch.
	enc keyEncoder
	idx [joinSpillPartitions][]int32
}

func newRowPartitioner(area *SpillArea, kind string, seed maphash.Seed, keys []evaluator, schema *arrow.Schema) *rowPartitioner {
	return &rowPartitioner{area: area, kind: kind, seed: seed, keys: keys, schema: schema}
}

// add writes the rows of b to their partitions.
func (p *rowPartitioner) add(ctx context.Context, b arrow.RecordBatch) error {
	keys, err := evalAll(ctx, p.keys, b)
	if err != nil {
		return err
	}
	n := int(b.NumRows())
	p.enc.encode(keys, n)
	releaseAll(keys)
	for i := range p.idx {
		p.idx[i] = p.idx[i][:0]
	}
	for r := 0; r < n; r++ {
		h := maphash.Bytes(p.seed, p.enc.buf[p.enc.offs[r]:p.enc.offs[r+1]])
		i := h % joinSpillPartitions
		p.idx[i] = append(p.idx[i], int32(r))
	}
	for i, rows := range p.idx {
		if err := p.writeRows(ctx, i, b, rows); err != nil {
			return err
		}
	}
	return nil
}

// writeRows writes rows of b to partition i.
func (p *rowPartitioner) writeRows(ctx context.Context, i int, b arrow.RecordBatch, rows []int32) error {
	if len(rows) == 0 {
		return nil
	}
	cols, err := gatherColumns(ctx, b.Columns(), rows)
	if err != nil {
		return err
	}
	part := array.NewRecordBatch(p.schema, cols, int64(len(rows)))
	releaseAll(cols)
	defer part.Release()
	if p.parts[i] == nil {
		w, err := newSpillWriter(p.area, p.kind, p.schema, joinPartitionBufBytes)
		if err != nil {
			return err
		}
		p.parts[i] = w
	}
	return p.parts[i].write(part)
}

// finish ends every partition file; a partition without rows is nil. The
// files are counted as node's spill.
func (p *rowPartitioner) finish(ins *Instrumentation, node planner.Node) ([]*spillFile, error) {
	out := make([]*spillFile, joinSpillPartitions)
	for i, w := range p.parts {
		if w == nil {
			continue
		}
		f, err := w.finish()
		p.parts[i] = nil
		if err != nil {
			for _, done := range out {
				done.removeIfAny()
			}
			p.abort()
			return nil, err
		}
		ins.addSpill(node, f.bytes)
		out[i] = f
	}
	return out, nil
}

// abort drops the files not finished.
func (p *rowPartitioner) abort() {
	for i, w := range p.parts {
		if w != nil {
			w.abort()
			p.parts[i] = nil
		}
	}
}
