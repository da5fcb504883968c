package exec

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
)

// groupingSetsAggregate is GROUP BY GROUPING SETS / ROLLUP / CUBE in one
// pass over its input: each row is grouped once per set, under a key that
// starts with the set's index and holds only the set's keys, so all sets
// share one hash table and one accumulator per aggregate. A result row has
// NULL for the keys its set leaves out, and its set's index in the last
// column. A set without keys has its one group from the start, so it
// yields a row even over no input, as in PostgreSQL.
type groupingSetsAggregate struct {
	input  Operator
	node   *planner.Aggregate
	keys   []evaluator
	args   []evaluator
	delims []evaluator
	accs   []accumulator
	schema *arrow.Schema

	groups  map[string]int32
	keyBld  []array.Builder
	setOf   []int32 // each group's set
	ngroups int
	ids     []int32
	keyBuf  []byte
	// groupMem estimates the hash table's and the keys' memory.
	groupMem int64
	mem      reservation

	groupedOutput
	done bool
}

func newGroupingSetsAggregate(ctx context.Context, in Operator, n *planner.Aggregate) (Operator, error) {
	h := &groupingSetsAggregate{input: in, node: n, schema: schemaOf(n.Columns()), groups: map[string]int32{},
		mem: newReservation(ctx, "HashAggregate")}
	fail := func(err error) (Operator, error) {
		h.Close()
		return nil, err
	}
	for i, g := range n.Groups {
		ev, err := compile(g, n.Input.Columns())
		if err != nil {
			return fail(err)
		}
		h.keys = append(h.keys, ev)
		h.keyBld = append(h.keyBld, array.NewBuilder(memory.DefaultAllocator, n.GroupCols[i].Type.Arrow()))
	}
	for _, a := range n.Aggs {
		arg, delim, acc, err := compileAggCall(a, n.Input.Columns())
		if err != nil {
			return fail(err)
		}
		h.args, h.delims, h.accs = append(h.args, arg), append(h.delims, delim), append(h.accs, acc)
	}
	for s, set := range n.Sets {
		if len(set) == 0 {
			h.group(s, nil, 0)
		}
	}
	return h, nil
}

// group returns the group of row r of keys in set s, adding it when new.
// h.keyBuf must hold the row's key.
func (h *groupingSetsAggregate) group(s int, keys []arrow.Array, r int) int32 {
	h.keyBuf = binary.AppendUvarint(h.keyBuf[:0], uint64(s))
	for _, k := range h.node.Sets[s] {
		h.keyBuf = appendKey(h.keyBuf, keys[k], r)
	}
	id, ok := h.groups[string(h.keyBuf)]
	if ok {
		return id
	}
	id = int32(h.ngroups)
	h.groups[string(h.keyBuf)] = id
	h.ngroups++
	h.setOf = append(h.setOf, int32(s))
	h.groupMem += hashEntryBytes + 2*int64(len(h.keyBuf)) + 4
	in := h.node.Sets[s]
	for k, b := range h.keyBld {
		if contains(in, k) {
			appendValue(b, keys[k], r)
		} else {
			b.AppendNull()
		}
	}
	return id
}

func contains(set []int, k int) bool {
	for _, x := range set {
		if x == k {
			return true
		}
	}
	return false
}

func (h *groupingSetsAggregate) consume(ctx context.Context) error {
	next := func(ctx context.Context) (arrow.RecordBatch, []int32, error) {
		b, err := h.input.Next(ctx)
		return b, nil, err
	}
	return consumeGrouped(ctx, next, &h.mem, func(ctx context.Context, b arrow.RecordBatch, _ []int32) error {
		return h.consumeBatch(ctx, b)
	}, h.stateBytes)
}

func (h *groupingSetsAggregate) stateBytes() int64 {
	n := h.groupMem + 4*int64(cap(h.ids))
	for _, acc := range h.accs {
		n += acc.memBytes()
	}
	return n
}

// evalSome evaluates evs over b; a nil evaluator gives a nil array.
func evalSome(ctx context.Context, evs []evaluator, b arrow.RecordBatch) ([]arrow.Array, error) {
	out := make([]arrow.Array, len(evs))
	for i, ev := range evs {
		if ev == nil {
			continue
		}
		a, err := ev.eval(ctx, b)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

func (h *groupingSetsAggregate) consumeBatch(ctx context.Context, b arrow.RecordBatch) error {
	n := int(b.NumRows())
	keys, err := evalSome(ctx, h.keys, b)
	if err != nil {
		return err
	}
	defer releaseAll(keys)
	args, err := evalSome(ctx, h.args, b)
	if err != nil {
		return err
	}
	defer releaseAll(args)
	delims, err := evalSome(ctx, h.delims, b)
	if err != nil {
		return err
	}
	defer releaseAll(delims)
	if cap(h.ids) < n {
		h.ids = make([]int32, n)
	}
	ids := h.ids[:n]
	for s := range h.node.Sets {
		for r := 0; r < n; r++ {
			ids[r] = h.group(s, keys, r)
		}
		for i, acc := range h.accs {
			if delims[i] != nil {
				da, ok := acc.(delimitedAccumulator)
				if !ok {
					return fmt.Errorf("aggregate takes no delimiter")
				}
				err = da.updateDelimited(ids, h.ngroups, args[i], delims[i])
			} else {
				err = acc.update(ids, h.ngroups, args[i])
			}
			if err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (h *groupingSetsAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !h.done {
		if err := h.consume(ctx); err != nil {
			return nil, err
		}
		h.done = true
		cols := make([]arrow.Array, 0, len(h.keyBld)+len(h.accs)+1)
		for _, kb := range h.keyBld {
			cols = append(cols, kb.NewArray())
		}
		for _, acc := range h.accs {
			a, err := acc.result(h.ngroups)
			if err != nil {
				releaseAll(cols)
				return nil, err
			}
			cols = append(cols, a)
		}
		cols = append(cols, newFixed(arrow.PrimitiveTypes.Int32, h.setOf[:h.ngroups:h.ngroups], nil, 0))
		h.out = array.NewRecordBatch(h.schema, cols, int64(h.ngroups))
		releaseAll(cols)
		h.groups, h.accs, h.ids = nil, nil, nil
		if err := h.mem.resize(batchBytes(h.out)); err != nil {
			return nil, err
		}
	}
	if b := h.nextSlice(); b != nil {
		return b, nil
	}
	return nil, nil
}

func (h *groupingSetsAggregate) Close() {
	for _, kb := range h.keyBld {
		kb.Release()
	}
	h.keyBld = nil
	h.releaseOutput()
	h.groups, h.accs = nil, nil
	h.mem.close()
	h.input.Close()
}
