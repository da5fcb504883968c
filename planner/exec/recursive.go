package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
)

// workTables carries each running recursive query's previous round to
// its WorkTable scans, through the context the recursive term runs with.
type workTables map[*planner.WorkTable][]arrow.RecordBatch

type workTablesKey struct{}

// workTableScan reads the previous round's rows.
type workTableScan struct {
	node   *planner.WorkTable
	rows   []arrow.RecordBatch
	loaded bool
	schema *arrow.Schema
}

func (w *workTableScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !w.loaded {
		tables, _ := ctx.Value(workTablesKey{}).(workTables)
		rows, ok := tables[w.node]
		if !ok {
			return nil, fmt.Errorf("work table %s read outside its recursive query", w.node.Name)
		}
		w.rows, w.loaded = rows, true
	}
	if len(w.rows) == 0 {
		return nil, nil
	}
	b := w.rows[0]
	w.rows = w.rows[1:]
	// The batches belong to the recursive query; hand out a reference.
	return array.NewRecordBatch(w.schema, b.Columns(), b.NumRows()), nil
}

func (w *workTableScan) Close() {}

// recursiveUnion runs WITH RECURSIVE: the anchor, then the recursive term
// over each round's new rows until a round adds none. Rows stream out as
// they are produced; without ALL, the rows seen so far (the operator's
// state) filter duplicates out, as UNION does.
type recursiveUnion struct {
	node   *planner.RecursiveUnion
	schema *arrow.Schema

	anchor  Operator
	current Operator // the running round of the recursive term
	round   []arrow.RecordBatch
	next    []arrow.RecordBatch
	seen    map[string]bool
	keyBuf  []byte
	rounds  int
	done    bool
	// mem holds the two rounds' rows and the seen keys; roundMem and
	// nextMem are the rounds' shares of it.
	mem               reservation
	roundMem, nextMem int64
	seenMem           int64 // seen keys not yet charged
}

// maxRecursionRounds bounds a recursion that never ends; PostgreSQL loops
// until cancelled, SQE stops with an error.
const maxRecursionRounds = 100_000

func newRecursiveUnion(ctx context.Context, n *planner.RecursiveUnion) (Operator, error) {
	anchor, err := Build(ctx, n.Anchor)
	if err != nil {
		return nil, err
	}
	r := &recursiveUnion{node: n, schema: schemaOf(n.Cols), anchor: anchor, mem: newReservation(ctx, "RecursiveUnion")}
	if !n.All {
		r.seen = map[string]bool{}
	}
	return r, nil
}

// keep reports whether a row is new (always, with ALL).
func (r *recursiveUnion) keep(b arrow.RecordBatch, row int) bool {
	if r.seen == nil {
		return true
	}
	r.keyBuf = r.keyBuf[:0]
	for _, c := range b.Columns() {
		r.keyBuf = appendKey(r.keyBuf, c, row)
	}
	if r.seen[string(r.keyBuf)] {
		return false
	}
	r.seen[string(r.keyBuf)] = true
	r.seenMem += hashEntryBytes + int64(len(r.keyBuf))
	return true
}

// admit filters a batch to its new rows, relabels it to the output
// schema, and records it for the next round.
func (r *recursiveUnion) admit(ctx context.Context, b arrow.RecordBatch) (arrow.RecordBatch, error) {
	defer b.Release()
	var idx []int32
	for row := 0; row < int(b.NumRows()); row++ {
		if r.keep(b, row) {
			idx = append(idx, int32(row))
		}
	}
	err := r.mem.grow(r.seenMem)
	r.seenMem = 0
	if err != nil {
		return nil, err
	}
	if len(idx) == 0 {
		return nil, nil
	}
	var cols []arrow.Array
	if len(idx) == int(b.NumRows()) {
		cols = b.Columns()
		for _, c := range cols {
			c.Retain()
		}
	} else {
		if cols, err = takeColumns(ctx, b.Columns(), idx); err != nil {
			return nil, err
		}
	}
	out := array.NewRecordBatch(r.schema, cols, int64(len(idx)))
	releaseAll(cols)
	size := batchBytes(out)
	if err := r.mem.grow(size); err != nil {
		out.Release()
		return nil, err
	}
	r.nextMem += size
	out.Retain()
	r.next = append(r.next, out)
	return out, nil
}

func (r *recursiveUnion) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for !r.done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		src := r.anchor
		if src == nil {
			src = r.current
		}
		if src == nil {
			// Start a round over the rows the last one produced.
			r.releaseRound()
			r.round, r.next = r.next, nil
			r.roundMem, r.nextMem = r.nextMem, 0
			if len(r.round) == 0 {
				r.done = true
				break
			}
			if r.rounds++; r.rounds > maxRecursionRounds {
				return nil, fmt.Errorf("recursive query %s did not end after %d rounds", r.node.Work.Name, maxRecursionRounds)
			}
			rctx := context.WithValue(ctx, workTablesKey{}, r.withRound(ctx))
			op, err := Build(rctx, r.node.Recursive)
			if err != nil {
				return nil, err
			}
			r.current = op
			continue
		}
		b, err := src.Next(r.roundContext(ctx))
		if err != nil {
			return nil, err
		}
		if b == nil {
			src.Close()
			if r.anchor != nil {
				r.anchor = nil
			} else {
				r.current = nil
			}
			continue
		}
		out, err := r.admit(ctx, b)
		if err != nil {
			return nil, err
		}
		if out != nil {
			return out, nil
		}
	}
	return nil, nil
}

// withRound is the work tables the recursive term sees: enclosing ones
// plus this query's previous round.
func (r *recursiveUnion) withRound(ctx context.Context) workTables {
	tables := workTables{}
	if prev, ok := ctx.Value(workTablesKey{}).(workTables); ok {
		for k, v := range prev {
			tables[k] = v
		}
	}
	tables[r.node.Work] = r.round
	return tables
}

func (r *recursiveUnion) roundContext(ctx context.Context) context.Context {
	if r.anchor != nil {
		return ctx
	}
	return context.WithValue(ctx, workTablesKey{}, r.withRound(ctx))
}

func (r *recursiveUnion) releaseRound() {
	for _, b := range r.round {
		b.Release()
	}
	r.round = nil
	r.mem.shrink(r.roundMem)
	r.roundMem = 0
}

func (r *recursiveUnion) Close() {
	if r.anchor != nil {
		r.anchor.Close()
	}
	if r.current != nil {
		r.current.Close()
	}
	r.releaseRound()
	for _, b := range r.next {
		b.Release()
	}
	r.next = nil
	r.seen = nil
	r.mem.close()
}
