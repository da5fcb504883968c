package exec

import (
	"bytes"
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// limitValues is a Limit's row count (-1: no limit) and offset, computing
// the expressions the binder left for execution, with PostgreSQL's
// checks: NULL is no limit (no offset), a negative value an error.
func limitValues(ctx context.Context, x *planner.Limit) (count, offset int64, err error) {
	count, offset = x.Count, x.Offset
	if x.CountExpr != nil {
		v, null, err := constantInt(ctx, x.CountExpr)
		switch {
		case err != nil:
			return 0, 0, err
		case null && x.WithTies:
			return 0, 0, pgerror.New(pgerror.InvalidRowCountInLimitClause, "row count cannot be null in FETCH FIRST ... WITH TIES clause")
		case null:
			count = -1
		case v < 0:
			return 0, 0, pgerror.New(pgerror.InvalidRowCountInLimitClause, "LIMIT must not be negative")
		default:
			count = v
		}
	}
	if x.OffsetExpr != nil {
		v, null, err := constantInt(ctx, x.OffsetExpr)
		switch {
		case err != nil:
			return 0, 0, err
		case null:
			offset = 0
		case v < 0:
			return 0, 0, pgerror.New(pgerror.InvalidRowCountInResultOffsetClause, "OFFSET must not be negative")
		default:
			offset = v
		}
	}
	return count, offset, nil
}

// constantInt computes a bigint expression that reads no input column.
func constantInt(ctx context.Context, e planner.Expr) (int64, bool, error) {
	return constantOf[int64](ctx, e, "row count")
}

// constantOf computes an expression that reads no input column, of the
// Go type T its kernel answers (int64 for bigint, float64 for double
// precision); null reports NULL. what names the value in errors.
func constantOf[T any](ctx context.Context, e planner.Expr, what string) (T, bool, error) {
	var zero T
	ev, err := compile(e, nil)
	if err != nil {
		return zero, false, err
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	a, err := ev.eval(ctx, one)
	if err != nil {
		return zero, false, err
	}
	defer a.Release()
	if a.IsNull(0) {
		return zero, true, nil
	}
	v, ok := valueAt(a, 0).(T)
	if !ok {
		return zero, false, fmt.Errorf("%s of type %s", what, a.DataType())
	}
	return v, false, nil
}

// tieLimit is FETCH FIRST n ROWS WITH TIES over sorted input: after
// skipping the offset it passes n rows, then every following row whose
// sort keys equal the n-th row's, and stops at the first that differs.
type tieLimit struct {
	input     Operator
	keys      []evaluator
	skip      int64
	remaining int64
	// last is the sort key of the n-th row, once it has passed.
	last   []byte
	keyBuf []byte
	done   bool
}

func newTieLimit(ctx context.Context, x *planner.Limit, count, offset int64) (Operator, error) {
	cols := x.Input.Columns()
	keys := make([]evaluator, len(x.TieKeys))
	for i, k := range x.TieKeys {
		ev, err := compile(k.Expr, cols)
		if err != nil {
			return nil, err
		}
		keys[i] = ev
	}
	in, err := Build(ctx, x.Input)
	if err != nil {
		return nil, err
	}
	return &tieLimit{input: in, keys: keys, skip: offset, remaining: count, done: count == 0}, nil
}

func (l *tieLimit) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for !l.done {
		b, err := l.input.Next(ctx)
		if b == nil || err != nil {
			return nil, err
		}
		n := b.NumRows()
		if l.skip >= n {
			l.skip -= n
			b.Release()
			continue
		}
		start, end := l.skip, n
		l.skip = 0
		var keys []arrow.Array
		if l.remaining > 0 && end-start >= l.remaining {
			// The n-th row is in this batch: remember its keys, then
			// take the ties after it.
			end = start + l.remaining
			l.remaining = 0
			if keys, err = evalAll(ctx, l.keys, b); err != nil {
				b.Release()
				return nil, err
			}
			l.last = l.rowKey(l.last[:0], keys, int(end-1))
		} else if l.remaining > 0 {
			l.remaining -= end - start
		} else if keys, err = evalAll(ctx, l.keys, b); err != nil {
			b.Release()
			return nil, err
		}
		if keys != nil {
			for end < n {
				l.keyBuf = l.rowKey(l.keyBuf[:0], keys, int(end))
				if !bytes.Equal(l.keyBuf, l.last) {
					l.done = true
					break
				}
				end++
			}
			releaseAll(keys)
		}
		if start == end {
			b.Release()
			continue
		}
		if start == 0 && end == n {
			return b, nil
		}
		out := b.NewSlice(start, end)
		b.Release()
		return out, nil
	}
	return nil, nil
}

// rowKey encodes row r's sort keys; equal keys are ties (NULLs equal each
// other, as they sort together).
func (l *tieLimit) rowKey(dst []byte, keys []arrow.Array, r int) []byte {
	for _, k := range keys {
		dst = appendKey(dst, k, r)
	}
	return dst
}

func (l *tieLimit) Close() { l.input.Close() }
