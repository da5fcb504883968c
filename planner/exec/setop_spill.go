package exec

import (
	"context"
	"hash/maphash"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// An INTERSECT or EXCEPT whose state (a count per distinct right value,
// and whether the value was returned) passes the query's memory budget
// partitions it, as a grace hash join does (join_spill.go). The state is
// written to joinSpillPartitions files chosen by a hash of each value's
// key (appendKey's encoding of the whole row), as (key, count, returned)
// rows, and let go; the right rows still to come are written as such rows
// of count 1, and the left rows still to come, whole, to partition files
// by the same hash. Equal rows land in partitions of the same number, so
// each pair of partitions is computed in turn by a set operation of its
// own, which reads its state back and may partition again (with a fresh
// seed), up to maxSetOpSpillDepth times; past that the query fails with
// 53200.
//
// The state is partitioned whenever it stops fitting, while the right
// input is counted or while the left input is read: the state then holds
// what the rows read so far left (an ALL operation's matched rows taken
// off, the values already returned marked), and the left rows of each
// partition keep their order. So every left row is kept or dropped as in
// memory, and the output holds the same rows, grouped by partition rather
// than in left order: a set operation's output has no order.

// maxSetOpSpillDepth bounds how often a partition's set operation
// partitions again.
const maxSetOpSpillDepth = 4

// setOpStateSchema is the schema of a spilled state.
var setOpStateSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: arrow.BinaryTypes.Binary},
	{Name: "count", Type: arrow.PrimitiveTypes.Int64},
	{Name: "emitted", Type: arrow.FixedWidthTypes.Boolean},
}, nil)

// stateColumns are the columns of a spilled state's batch.
func stateColumns(b arrow.RecordBatch) (*array.Binary, *array.Int64, *array.Boolean) {
	return b.Column(0).(*array.Binary), b.Column(1).(*array.Int64), b.Column(2).(*array.Boolean)
}

// setOpSpill is the state of a set operation that may partition.
type setOpSpill struct {
	area  *SpillArea
	ins   *Instrumentation
	depth int
	seed  maphash.Seed
	// active: the state went to partitions; state writes them, left
	// partitions the left rows once the right ones are all written.
	active bool
	state  [joinSpillPartitions]*spillWriter
	left   *rowPartitioner

	stateFiles, leftFiles []*spillFile
	nextPair              int    // the next pair of partitions
	cur                   *setOp // the set operation of pair nextPair-1
}

func newSetOpSpill(area *SpillArea, ins *Instrumentation, depth int) *setOpSpill {
	return &setOpSpill{area: area, ins: ins, depth: depth, seed: maphash.MakeSeed()}
}

// partition is the partition of a value's key.
func (sp *setOpSpill) partition(key string) int {
	return int(maphash.String(sp.seed, key) % joinSpillPartitions)
}

// partitionState writes s's state to partitions, one partition at a time
// in batches of spill size, and lets it go.
func (sp *setOpSpill) partitionState(ctx context.Context, s *setOp) error {
	sp.active = true
	per := spillBatchRows(s.mem.budget, 32)
	var keys [][]byte
	var counts []setCount
	for p := range sp.state {
		for key, c := range s.state {
			if sp.partition(key) != p {
				continue
			}
			keys, counts = append(keys, []byte(key)), append(counts, c)
			if len(keys) == per {
				if err := sp.writeState(p, keys, counts); err != nil {
					return err
				}
				keys, counts = keys[:0], counts[:0]
			}
		}
		if err := sp.writeState(p, keys, counts); err != nil {
			return err
		}
		keys, counts = keys[:0], counts[:0]
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.state = map[string]setCount{}
	s.grown = 0
	s.mem.close()
	return nil
}

// addState writes a batch of right rows (or of spilled state) to the
// state partitions.
func (sp *setOpSpill) addState(ctx context.Context, s *setOp, b arrow.RecordBatch) error {
	var keys [joinSpillPartitions][][]byte
	var counts [joinSpillPartitions][]setCount
	for r := 0; r < int(b.NumRows()); r++ {
		var key string
		c := setCount{n: 1}
		if s.fromState {
			ks, ns, es := stateColumns(b)
			key, c = ks.ValueString(r), setCount{n: ns.Value(r), emitted: es.Value(r)}
		} else {
			key = s.rowKey(b, r)
		}
		p := sp.partition(key)
		keys[p], counts[p] = append(keys[p], []byte(key)), append(counts[p], c)
	}
	for p := range keys {
		if err := sp.writeState(p, keys[p], counts[p]); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// writeState appends state rows to partition p.
func (sp *setOpSpill) writeState(p int, keys [][]byte, counts []setCount) error {
	if len(keys) == 0 {
		return nil
	}
	kb := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	nb := array.NewInt64Builder(memory.DefaultAllocator)
	eb := array.NewBooleanBuilder(memory.DefaultAllocator)
	defer func() {
		kb.Release()
		nb.Release()
		eb.Release()
	}()
	for i, k := range keys {
		kb.Append(k)
		nb.Append(counts[i].n)
		eb.Append(counts[i].emitted)
	}
	cols := []arrow.Array{kb.NewArray(), nb.NewArray(), eb.NewArray()}
	defer releaseAll(cols)
	b := array.NewRecordBatch(setOpStateSchema, cols, int64(len(keys)))
	defer b.Release()
	if sp.state[p] == nil {
		w, err := newSpillWriter(sp.area, "setop-state", setOpStateSchema, joinPartitionBufBytes)
		if err != nil {
			return err
		}
		sp.state[p] = w
	}
	return sp.state[p].write(b)
}

// next returns the next batch of a set operation whose state went to
// partitions: it ends the state partitions, partitions the rest of the
// left input, then reads the set operation of each pair in turn.
func (sp *setOpSpill) next(ctx context.Context, s *setOp) (arrow.RecordBatch, error) {
	if sp.leftFiles == nil {
		if err := sp.partitionLeft(ctx, s); err != nil {
			return nil, err
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if sp.cur != nil {
			out, err := sp.cur.Next(ctx)
			if err != nil || out != nil {
				return out, err
			}
			sp.cur.Close()
			sp.cur = nil
		}
		if sp.nextPair >= len(sp.leftFiles) {
			return nil, nil
		}
		p := sp.nextPair
		sp.nextPair++
		lf, sf := sp.leftFiles[p], sp.stateFiles[p]
		sp.leftFiles[p], sp.stateFiles[p] = nil, nil
		if lf == nil {
			// No left row: nothing to return.
			sf.removeIfAny()
			continue
		}
		left, err := openPartition(lf)
		if err != nil {
			sf.removeIfAny()
			return nil, err
		}
		right, err := openPartition(sf)
		if err != nil {
			left.Close()
			return nil, err
		}
		sp.cur = &setOp{left: left, right: right, node: s.node, schema: s.schema,
			mem: reservation{budget: s.mem.budget, what: s.mem.what}, fromState: true,
			spill: newSetOpSpill(sp.area, sp.ins, sp.depth+1)}
	}
}

// partitionLeft ends the state partitions and writes the rest of the left
// input to partitions by the same hash.
func (sp *setOpSpill) partitionLeft(ctx context.Context, s *setOp) error {
	sp.stateFiles = make([]*spillFile, joinSpillPartitions)
	for p, w := range sp.state {
		if w == nil {
			continue
		}
		sp.state[p] = nil
		f, err := w.finish()
		if err != nil {
			return err
		}
		sp.ins.addSpill(s.node, f.bytes)
		sp.stateFiles[p] = f
	}
	sp.left = newRowPartitioner(sp.area, "setop-left", sp.seed, nil, s.schema)
	var idx [joinSpillPartitions][]int32
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := s.left.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		for p := range idx {
			idx[p] = idx[p][:0]
		}
		for r := 0; r < int(b.NumRows()); r++ {
			p := sp.partition(s.rowKey(b, r))
			idx[p] = append(idx[p], int32(r))
		}
		for p, rows := range idx {
			if err == nil {
				err = sp.left.writeRows(ctx, p, b, rows)
			}
		}
		b.Release()
		if err != nil {
			return err
		}
	}
	files, err := sp.left.finish(sp.ins, s.node)
	sp.left = nil
	if err != nil {
		return err
	}
	sp.leftFiles = files
	return nil
}

// close drops the partitions, written or not, and the pair being read.
func (sp *setOpSpill) close() {
	if sp.cur != nil {
		sp.cur.Close()
		sp.cur = nil
	}
	for p, w := range sp.state {
		if w != nil {
			w.abort()
			sp.state[p] = nil
		}
	}
	if sp.left != nil {
		sp.left.abort()
		sp.left = nil
	}
	for _, fs := range [][]*spillFile{sp.stateFiles, sp.leftFiles} {
		for i, f := range fs {
			f.removeIfAny()
			fs[i] = nil
		}
	}
}
