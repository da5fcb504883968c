package exec

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"

	"github.com/sqe-db/sqe/sql/types"
)

// hashAggregate groups its input by key and folds each aggregate per
// group. Its state is one entry per group: the hash table, the keys (in
// builders), and each accumulator's per-group slots.
type hashAggregate struct {
	input Operator
	node  *planner.Aggregate
	keys  []evaluator
	args  []evaluator // nil for count(*)
	// shared are the subexpressions args repeat, computed once a batch.
	shared *sharedExprs
	delims []evaluator // string_agg's delimiter; nil for other aggregates
	accs   []accumulator
	schema *arrow.Schema

	groups   *keyTable
	keyBld   []array.Builder
	ngroups  int
	groupIDs []int32
	// keyMem estimates the key builders' memory; mem is what the operator
	// holds of the query's budget.
	keyMem int64
	mem    reservation

	// par is the state of a parallel aggregate's worker part or of the
	// merged result; nil for a serial aggregate.
	par *parallelAggState

	// spill is the state of an aggregate that may spill past its
	// budget (nil: it cannot); fromSpill: its input is a spilled
	// partition's rows, already evaluated; child aggregates the
	// partition being read.
	spill     *aggSpill
	fromSpill bool
	child     *hashAggregate

	// selecting is the input when it is a filter whose selection the
	// aggregate reads in place (consumeSelected); nil otherwise.
	selecting *filter

	groupedOutput
	done bool
}

func newHashAggregate(ctx context.Context, in Operator, n *planner.Aggregate) (Operator, error) {
	if n.Sets != nil {
		return newGroupingSetsAggregate(ctx, in, n)
	}
	h := &hashAggregate{input: in, node: n, schema: schemaOf(n.Columns()), groups: newGroupingTable(),
		mem: newReservation(ctx, "HashAggregate")}
	fail := func(err error) (Operator, error) {
		in.Close()
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
	var plainArgs []planner.Expr
	for _, a := range n.Aggs {
		if !needsCallInputs(a) {
			plainArgs = append(plainArgs, a.Arg)
		}
	}
	h.shared = newSharedExprs(plainArgs)
	for _, a := range n.Aggs {
		if needsCallInputs(a) {
			ev, _, acc, err := compileAggCall(a, n.Input.Columns())
			if err != nil {
				return fail(err)
			}
			h.args, h.delims, h.accs = append(h.args, ev), append(h.delims, nil), append(h.accs, acc)
			continue
		}
		var ev evaluator
		if a.Arg != nil {
			var err error
			if ev, err = compileSharing(a.Arg, n.Input.Columns(), h.shared); err != nil {
				return fail(err)
			}
		}
		var delim evaluator
		if a.Delim != nil {
			var err error
			if delim, err = compile(a.Delim, n.Input.Columns()); err != nil {
				return fail(err)
			}
		}
		acc, err := newAccumulator(a)
		if err != nil {
			return fail(err)
		}
		h.args = append(h.args, ev)
		h.delims = append(h.delims, delim)
		h.accs = append(h.accs, acc)
	}
	narrowSumArguments(n.Aggs, h.args, h.accs)
	shareSums(n.Aggs, h.accs)
	if f, ok := in.(*filter); ok && evaluatesAside(n) {
		h.selecting = f
	}
	if len(n.Groups) == 0 {
		// Without GROUP BY there is exactly one group, even over no rows.
		h.ngroups = 1
	} else if area := spillAreaFor(ctx); area != nil {
		h.spill = newAggSpill(area, instrumentationFrom(ctx), 0, h)
	}
	return h, nil
}

func (h *hashAggregate) consume(ctx context.Context) error {
	if h.spill != nil {
		return h.consumeSpilling(ctx)
	}
	return consumeGrouped(ctx, h.next, &h.mem, h.consumeSelected, h.stateBytes)
}

// next is the input's next batch, and the rows of it the aggregate
// folds: nil for all of them.
func (h *hashAggregate) next(ctx context.Context) (arrow.RecordBatch, []int32, error) {
	if h.selecting != nil {
		return h.selecting.nextSelected(ctx)
	}
	b, err := h.input.Next(ctx)
	return b, nil, err
}

// evaluatesAside reports whether aggregate n may evaluate its keys and
// arguments on every row of a filter's batch, those the filter rejected
// too: each is a plain expression that EvaluatesAside, and no aggregate
// takes inputs beyond its argument (ORDER BY, FILTER, a delimiter).
func evaluatesAside(n *planner.Aggregate) bool {
	if !allEvaluateAside(n.Groups) {
		return false
	}
	for _, a := range n.Aggs {
		if needsCallInputs(a) || a.Delim != nil || (a.Arg != nil && !planner.EvaluatesAside(a.Arg)) {
			return false
		}
	}
	return true
}

// stateBytes estimates the memory of the groups and their accumulators.
func (h *hashAggregate) stateBytes() int64 {
	n := h.keyMem + 4*int64(cap(h.groupIDs))
	if h.groups != nil {
		n += h.groups.memBytes()
	}
	for _, acc := range h.accs {
		n += acc.memBytes()
	}
	if h.spill != nil {
		n += h.spill.memBytes()
	}
	return n
}

// aggRows are a batch's evaluated inputs: the group keys, and per
// aggregate its argument (nil for count(*)) and delimiter (nil for all
// but string_agg and the like). What a spilling aggregate writes to its
// partitions, and reads back, is these.
type aggRows struct {
	n      int
	keys   []arrow.Array
	args   []arrow.Array
	delims []arrow.Array
}

func (r *aggRows) release() {
	releaseAll(r.keys)
	releaseAll(r.args)
	releaseAll(r.delims)
}

// evalRows evaluates b's keys and aggregate inputs (or, for the input of
// a spilled partition, takes them from its columns).
func (h *hashAggregate) evalRows(ctx context.Context, b arrow.RecordBatch) (aggRows, error) {
	in := aggRows{n: int(b.NumRows()), keys: make([]arrow.Array, len(h.keys)),
		args: make([]arrow.Array, len(h.accs)), delims: make([]arrow.Array, len(h.accs))}
	if h.fromSpill {
		h.spill.layout.split(b, &in)
		return in, nil
	}
	defer h.shared.forget()
	for i, k := range h.keys {
		a, err := k.eval(ctx, b)
		if err != nil {
			in.release()
			return aggRows{}, err
		}
		in.keys[i] = a
	}
	for i := range h.accs {
		if h.args[i] != nil {
			a, err := h.args[i].eval(ctx, b)
			if err != nil {
				in.release()
				return aggRows{}, err
			}
			in.args[i] = a
		}
		if h.delims[i] != nil {
			d, err := h.delims[i].eval(ctx, b)
			if err != nil {
				in.release()
				return aggRows{}, err
			}
			in.delims[i] = d
		}
	}
	return in, nil
}

func (h *hashAggregate) consumeBatch(ctx context.Context, b arrow.RecordBatch) error {
	in, err := h.evalRows(ctx, b)
	if err != nil {
		return err
	}
	defer in.release()
	if h.spill != nil && h.spill.active {
		return h.routeRows(ctx, in)
	}
	return h.accumulate(in)
}

// consumeSelected folds the rows sel of b (nil: all of them). When a
// filter keeps most of a batch, the keys and arguments are evaluated on
// the whole batch and only the kept rows folded, which saves copying
// every input column's kept rows. An error there may come from a row the
// filter rejected (1/x where the filter said x <> 0), so the batch is
// then evaluated again on the kept rows alone, which report only their
// own errors.
func (h *hashAggregate) consumeSelected(ctx context.Context, b arrow.RecordBatch, sel []int32) error {
	if sel != nil && 2*len(sel) >= int(b.NumRows()) && !(h.spill != nil && h.spill.active) {
		in, err := h.evalRows(ctx, b)
		if err == nil {
			defer in.release()
			return h.accumulateSelected(ctx, in, sel)
		}
	}
	if sel != nil {
		kept, err := takeBatch(ctx, b, sel)
		if err != nil {
			return err
		}
		defer kept.Release()
		b = kept
	}
	return h.consumeBatch(ctx, b)
}

// accumulateSelected is accumulate for the rows sel of in.
func (h *hashAggregate) accumulateSelected(ctx context.Context, in aggRows, sel []int32) error {
	m := len(sel)
	if cap(h.groupIDs) < m {
		h.groupIDs = make([]int32, m)
	}
	ids := h.groupIDs[:m]
	if len(h.keys) == 0 {
		clear(ids)
	} else {
		if err := h.groups.insertSelected(ctx, in.keys, sel, ids, h.addGroup(in.keys)); err != nil {
			return err
		}
		h.ngroups = h.groups.len()
	}
	if h.par != nil {
		h.par.pos += int64(in.n)
	}
	for i, acc := range h.accs {
		if err := updateSelected(ctx, acc, ids, sel, h.ngroups, in.args[i]); err != nil {
			return err
		}
	}
	return nil
}

// addGroup is the keyTable's isNew for a batch's keys: a new group's key
// values go to the key builders and, in a parallel part, the position of
// its first row is kept.
func (h *hashAggregate) addGroup(keys []arrow.Array) func(id int32, row int) {
	return func(_ int32, r int) {
		for i, a := range keys {
			appendValue(h.keyBld[i], a, r)
			h.keyMem += keyValueBytes(a, r)
		}
		if h.par != nil && !h.par.anyOrder {
			h.par.firstSeen = append(h.par.firstSeen, h.par.pos+int64(r))
		}
	}
}

// accumulate folds rows into their groups, adding the groups not seen
// before.
func (h *hashAggregate) accumulate(in aggRows) error {
	n := in.n
	if cap(h.groupIDs) < n {
		h.groupIDs = make([]int32, n)
	}
	ids := h.groupIDs[:n]
	if len(h.keys) == 0 {
		clear(ids)
	} else {
		h.groups.insert(in.keys, n, ids, false, h.addGroup(in.keys))
		h.ngroups = h.groups.len()
	}
	if h.par != nil {
		h.par.pos += int64(n)
	}
	for i, acc := range h.accs {
		var err error
		if in.delims[i] != nil {
			da, ok := acc.(delimitedAccumulator)
			if !ok {
				return fmt.Errorf("aggregate takes no delimiter")
			}
			err = da.updateDelimited(ids, h.ngroups, in.args[i], in.delims[i])
		} else {
			err = acc.update(ids, h.ngroups, in.args[i])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (h *hashAggregate) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !h.done {
		if h.par == nil || !h.par.merged {
			if err := h.consume(ctx); err != nil {
				return nil, err
			}
		}
		h.done = true
		if h.spill != nil {
			if err := h.spill.finish(h.node); err != nil {
				return nil, err
			}
		}
		cols := make([]arrow.Array, 0, len(h.keyBld)+len(h.accs))
		for _, kb := range h.keyBld {
			cols = append(cols, kb.NewArray())
		}
		for _, acc := range h.accs {
			a, err := acc.result(h.ngroups)
			if err != nil {
				for _, c := range cols {
					c.Release()
				}
				return nil, err
			}
			cols = append(cols, a)
		}
		if h.par != nil && h.par.merged && !h.par.anyOrder {
			var err error
			if cols, err = h.par.inSerialOrder(ctx, cols); err != nil {
				return nil, err
			}
		}
		h.out = array.NewRecordBatch(h.schema, cols, int64(h.ngroups))
		for _, c := range cols {
			c.Release()
		}
		// From here on only the result is held.
		h.groups, h.accs, h.groupIDs = nil, nil, nil
		if err := h.mem.resize(batchBytes(h.out)); err != nil {
			return nil, err
		}
	}
	if b := h.nextSlice(); b != nil {
		return b, nil
	}
	if h.spill != nil {
		return h.nextPartition(ctx)
	}
	return nil, nil
}

func (h *hashAggregate) Close() {
	h.shared.forget()
	for _, kb := range h.keyBld {
		kb.Release()
	}
	h.keyBld = nil
	h.releaseOutput()
	h.groups, h.accs = nil, nil
	if h.child != nil {
		h.child.Close()
		h.child = nil
	}
	if h.spill != nil {
		h.spill.close()
	}
	h.mem.close()
	h.input.Close()
}

// keyValueBytes estimates what row r of a costs in a key builder.
func keyValueBytes(a arrow.Array, r int) int64 {
	switch x := a.(type) {
	case *array.String:
		return 8 + int64(x.ValueLen(r))
	case bytesValues:
		return 8 + int64(len(x.Value(r)))
	}
	return 16
}

// appendKey encodes row r of a into a group key: a NULL marker, then the
// value's bytes (strings length-prefixed, so keys are unambiguous).
func appendKey(dst []byte, a arrow.Array, r int) []byte {
	if a.IsNull(r) {
		return append(dst, 0)
	}
	dst = append(dst, 1)
	switch x := a.(type) {
	case *array.String:
		s := x.Value(r)
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		return append(dst, s...)
	case bytesValues:
		v := x.Value(r)
		dst = binary.AppendUvarint(dst, uint64(len(v)))
		return append(dst, v...)
	case *array.Boolean:
		if x.Value(r) {
			return append(dst, 1)
		}
		return append(dst, 0)
	case *array.Int16:
		return binary.LittleEndian.AppendUint16(dst, uint16(x.Value(r)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(dst, uint32(x.Value(r)))
	case *array.Date32:
		return binary.LittleEndian.AppendUint32(dst, uint32(x.Value(r)))
	case *array.Uint32:
		return binary.LittleEndian.AppendUint32(dst, x.Value(r))
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(dst, uint64(x.Value(r)))
	case *array.Timestamp:
		return binary.LittleEndian.AppendUint64(dst, uint64(x.Value(r)))
	case *array.Time64:
		return binary.LittleEndian.AppendUint64(dst, uint64(x.Value(r)))
	case *array.MonthDayNanoInterval:
		// Equal spans group together ('1 mon' = '30 days'), as
		// PostgreSQL's interval equality says.
		days, micros := types.IntervalFromArrow(x.Value(r)).SpanKey()
		dst = binary.LittleEndian.AppendUint64(dst, uint64(days))
		return binary.LittleEndian.AppendUint64(dst, uint64(micros))
	case *array.Float32:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(canonicalFloat(float64(x.Value(r)))))
	case *array.Float64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(canonicalFloat(x.Value(r))))
	case *array.Decimal128:
		v := x.Value(r)
		dst = binary.LittleEndian.AppendUint64(dst, v.LowBits())
		return binary.LittleEndian.AppendUint64(dst, uint64(v.HighBits()))
	case *array.Decimal64:
		// As the decimal128 of the same value: keys of one scale compare
		// equal whatever the precision.
		v := int64(x.Value(r))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
		return binary.LittleEndian.AppendUint64(dst, uint64(v>>63))
	case *types.NumericArray:
		// Without trailing zeros, so 1.0 and 1.00 group together; the
		// first byte (the form) and the scale make the key unambiguous.
		key := types.AppendNumericKey(dst[len(dst):], x.Bytes(r))
		dst = binary.AppendUvarint(dst, uint64(len(key)))
		return types.AppendNumericKey(dst, x.Bytes(r))
	}
	panic(fmt.Sprintf("group key of type %s", a.DataType()))
}

// canonicalFloat makes -0 and 0 (and all NaNs) group together, as
// PostgreSQL's float equality does.
func canonicalFloat(f float64) float64 {
	if f == 0 {
		return 0
	}
	if math.IsNaN(f) {
		return math.NaN()
	}
	return f
}

// appendValue copies row r of a into b.
func appendValue(b array.Builder, a arrow.Array, r int) {
	if a.IsNull(r) {
		b.AppendNull()
		return
	}
	switch x := a.(type) {
	case *array.String:
		b.(*array.StringBuilder).Append(x.Value(r))
	case *array.Boolean:
		b.(*array.BooleanBuilder).Append(x.Value(r))
	case *array.Int16:
		b.(*array.Int16Builder).Append(x.Value(r))
	case *array.Int32:
		b.(*array.Int32Builder).Append(x.Value(r))
	case *array.Int64:
		b.(*array.Int64Builder).Append(x.Value(r))
	case *array.Float32:
		b.(*array.Float32Builder).Append(x.Value(r))
	case *array.Float64:
		b.(*array.Float64Builder).Append(x.Value(r))
	case *array.Decimal128:
		b.(*array.Decimal128Builder).Append(x.Value(r))
	case *array.Decimal64:
		b.(*array.Decimal64Builder).Append(x.Value(r))
	case *types.NumericArray:
		types.NumericBuilder(b).Append(x.Bytes(r))
	case *array.Date32:
		b.(*array.Date32Builder).Append(x.Value(r))
	case *array.Uint32:
		b.(*array.Uint32Builder).Append(x.Value(r))
	case *array.Timestamp:
		b.(*array.TimestampBuilder).Append(x.Value(r))
	case *array.Time64:
		b.(*array.Time64Builder).Append(x.Value(r))
	case *array.MonthDayNanoInterval:
		b.(*array.MonthDayNanoIntervalBuilder).Append(x.Value(r))
	case *array.Binary:
		b.(*array.BinaryBuilder).Append(x.Value(r))
	case *array.FixedSizeBinary:
		b.(*array.FixedSizeBinaryBuilder).Append(x.Value(r))
	default:
		panic(fmt.Sprintf("group value of type %s", a.DataType()))
	}
}
