package sql

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// rowsResult streams a query's batches from its exec operator tree.
type rowsResult struct {
	cols  []Column
	op    exec.Operator
	ctx   context.Context // carries the caller to storage
	rows  int64
	verb  string
	close bool

	// budget is the query's memory account, which its operators charge.
	budget *exec.MemoryBudget
	// spill is the query's spill area, removed with its files on Close.
	spill *exec.SpillArea
	// deadline ends the query (statement_timeout); zero for none.
	deadline time.Time
	timed    timedContext
}

// queryLimits bound one query: memory in bytes (0: none) and an end
// (zero: none); spill is where its operators past the memory limit spill
// (nil: nowhere).
type queryLimits struct {
	memory   int64
	deadline time.Time
	spill    *exec.SpillDir
}

// newRowsResult starts running the plan under root. Every plan a session
// runs starts here, so here it is checked (planner.CheckPlan): a plan in
// which gate two is not where the binder put it fails with an internal
// error rather than run.
func newRowsResult(ctx, callerCtx context.Context, root planner.Node, limits queryLimits) (*rowsResult, error) {
	if err := planner.CheckPlan(root); err != nil {
		return nil, err
	}
	budget := exec.NewMemoryBudget(limits.memory)
	callerCtx = exec.WithMemoryBudget(callerCtx, budget)
	var spill *exec.SpillArea
	if limits.spill != nil {
		spill = limits.spill.NewArea()
		callerCtx = exec.WithSpillArea(callerCtx, spill)
	}
	op, err := exec.Build(callerCtx, root)
	if err != nil {
		_ = spill.Close()
		return nil, err
	}
	r := &rowsResult{op: op, ctx: callerCtx, verb: "SELECT", budget: budget, spill: spill, deadline: limits.deadline}
	for _, c := range root.Columns() {
		r.cols = append(r.cols, Column{Name: c.Name, Type: c.Type, TableOID: c.TableOID, AttNum: c.AttNum})
	}
	return r, nil
}

func (r *rowsResult) Columns() []Column { return r.cols }

func (r *rowsResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if !r.deadline.IsZero() {
		ctx = r.timed.with(ctx, r.deadline)
	}
	// The caller's identity rides on r.ctx; cancellation on ctx.
	b, err := r.op.Next(mergeCancel(ctx, r.ctx))
	if b != nil {
		r.rows += b.NumRows()
	}
	if err != nil && ctx.Err() != nil {
		// Whatever layer noticed the cancellation, the client hears why:
		// its cancel request (57014, user request) or the timeout.
		var pe *pgerror.Error
		if !errors.As(err, &pe) {
			err = pgerror.From(ctx.Err())
		}
	}
	return b, err
}

func (r *rowsResult) CommandTag() string { return r.verb + " " + strconv.FormatInt(r.rows, 10) }

func (r *rowsResult) Close() {
	if !r.close {
		r.close = true
		r.op.Close()
		// Spill files never outlive the query; a failed removal leaves
		// them to the next server start (SpillDir.RemoveStale).
		_ = r.spill.Close()
		r.timed.stop()
	}
}

// timedContext derives the contexts a timed query's batches are read
// under: the caller's context with the statement's deadline. One derived
// context is kept per caller context, because storage streams keep the
// context they were opened with; all are cancelled when the query closes.
type timedContext struct {
	parent  context.Context
	derived context.Context
	cancels []context.CancelFunc
}

func (t *timedContext) with(parent context.Context, deadline time.Time) context.Context {
	if t.derived == nil || t.parent != parent {
		ctx, cancel := context.WithDeadline(parent, deadline)
		t.parent, t.derived = parent, ctx
		t.cancels = append(t.cancels, cancel)
	}
	return t.derived
}

func (t *timedContext) stop() {
	for _, c := range t.cancels {
		c()
	}
	t.cancels = nil
}

// mergeCancel returns a context with the values of withValues and the
// cancellation and deadline of ctx.
func mergeCancel(ctx, withValues context.Context) context.Context {
	return valuesFrom{Context: ctx, values: withValues}
}

type valuesFrom struct {
	context.Context
	values context.Context
}

func (v valuesFrom) Value(key any) any {
	if x := v.Context.Value(key); x != nil {
		return x
	}
	return v.values.Value(key)
}

// commandResult is a statement that returns no rows.
type commandResult string

func (c commandResult) Columns() []Column                               { return nil }
func (c commandResult) Next(context.Context) (arrow.RecordBatch, error) { return nil, nil }
func (c commandResult) CommandTag() string                              { return string(c) }
func (c commandResult) Close()                                          {}

// textResult is a small result of text columns built in memory (SHOW,
// EXPLAIN).
type textResult struct {
	cols  []Column
	batch arrow.RecordBatch
	tag   string
	sent  bool
}

func newTextResult(names []string, rows [][]string, tag string) (*textResult, error) {
	fields := make([]arrow.Field, len(names))
	cols := make([]Column, len(names))
	for i, n := range names {
		fields[i] = arrow.Field{Name: n, Type: arrow.BinaryTypes.String, Nullable: true}
		cols[i] = Column{Name: n, Type: types.Text}
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, arrow.NewSchema(fields, nil))
	defer b.Release()
	for _, row := range rows {
		for i, v := range row {
			b.Field(i).(*array.StringBuilder).Append(v)
		}
	}
	return &textResult{cols: cols, batch: b.NewRecordBatch(), tag: tag}, nil
}

func (t *textResult) Columns() []Column { return t.cols }

func (t *textResult) Next(context.Context) (arrow.RecordBatch, error) {
	if t.sent {
		return nil, nil
	}
	t.sent = true
	t.batch.Retain()
	return t.batch, nil
}

func (t *textResult) CommandTag() string {
	if t.tag == "SHOW" || t.tag == "EXPLAIN" {
		return t.tag
	}
	return t.tag + " " + strconv.FormatInt(t.batch.NumRows(), 10)
}

func (t *textResult) Close() {
	if t.batch != nil {
		t.batch.Release()
		t.batch = nil
	}
}
