package sql

import (
	"context"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
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
}

func newRowsResult(ctx, callerCtx context.Context, root planner.Node) (*rowsResult, error) {
	op, err := exec.Build(callerCtx, root)
	if err != nil {
		return nil, err
	}
	r := &rowsResult{op: op, ctx: callerCtx, verb: "SELECT"}
	for _, c := range root.Columns() {
		r.cols = append(r.cols, Column{Name: c.Name, Type: c.Type, TableOID: c.TableOID, AttNum: c.AttNum})
	}
	return r, nil
}

func (r *rowsResult) Columns() []Column { return r.cols }

func (r *rowsResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	// The caller's identity rides on r.ctx; cancellation on ctx.
	b, err := r.op.Next(mergeCancel(ctx, r.ctx))
	if b != nil {
		r.rows += b.NumRows()
	}
	return b, err
}

func (r *rowsResult) CommandTag() string { return r.verb + " " + strconv.FormatInt(r.rows, 10) }

func (r *rowsResult) Close() {
	if !r.close {
		r.close = true
		r.op.Close()
	}
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
