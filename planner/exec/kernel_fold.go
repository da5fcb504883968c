package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// foldConstant turns an operator over constants (date '1994-01-01' +
// interval '1' year, 0.06 - 0.01) into a constant, evaluated once here
// instead of once per row of every batch. An operator that fails (1/0)
// is left as it is, so that the error is raised only when a row needs
// it, as before.
func foldConstant(ev evaluator, typ types.T) evaluator {
	if !foldable(typ) {
		return ev
	}
	one := array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 1)
	defer one.Release()
	a, err := ev.eval(context.Background(), one)
	if err != nil {
		return ev
	}
	defer a.Release()
	if a.Len() != 1 {
		return ev
	}
	return &constEval{typ: typ, value: valueAt(a, 0)}
}

// foldable reports whether a value of type t round-trips through the
// constant representation (valueAt, then appendConst).
func foldable(t types.T) bool {
	switch t.Arrow().ID() {
	case arrow.BOOL, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
		arrow.DECIMAL128, arrow.DECIMAL64, arrow.STRING, arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64,
		arrow.INTERVAL_MONTH_DAY_NANO:
		return true
	}
	return false
}

// allConst reports whether every evaluator is a constant.
func allConst(evs ...evaluator) bool {
	for _, ev := range evs {
		if _, ok := ev.(*constEval); !ok {
			return false
		}
	}
	return true
}

// cheapEval reports whether ev is a plain computation over the batch's
// columns: no subquery, no per-row function, no CASE. Evaluating one on
// rows whose result is not needed costs a loop, and changes nothing.
func cheapEval(ev evaluator) bool {
	switch x := ev.(type) {
	case columnEval, *constEval:
		return true
	case unaryEval:
		return cheapEval(x.arg)
	case *binaryEval:
		return cheapEval(x.l) && cheapEval(x.r)
	case *funcEval:
		if x.row != nil || len(x.args) == 0 {
			return false
		}
		for _, a := range x.args {
			if !cheapEval(a) {
				return false
			}
		}
		return true
	}
	return false
}

// constSlice returns c's value repeated n times: the cached array when
// it has n rows, a zero-copy slice of it when it has more. Filters and
// short-circuits make batch lengths vary, so rebuilding on every change
// of length would rebuild on nearly every batch.
func (c *constEval) constSlice(n int) (arrow.Array, error) {
	if c.cache == nil || c.cache.Len() < n {
		if c.cache != nil {
			c.cache.Release()
			c.cache = nil
		}
		arr, err := constArray(c.typ, c.value, n)
		if err != nil {
			return nil, err
		}
		c.cache = arr
	}
	if c.cache.Len() == n {
		c.cache.Retain()
		return c.cache, nil
	}
	return array.NewSlice(c.cache, 0, int64(n)), nil
}
