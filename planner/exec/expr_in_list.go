package exec

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/planner"
)

// inListEval is x = c1 OR x = c2 OR ... (planner.InList) over a text or
// integer x: x is evaluated once per batch, not once per constant, and
// each row's value is looked up among the constants. TPC-H Q22 tests
// substring(c_phone from 1 for 2) against seven country codes, which as
// ORs computed the substring of every phone seven times.
type inListEval struct {
	arg  evaluator
	strs map[string]struct{}
	ints map[int64]struct{}
}

// compileInList is e's list evaluator, or nil when e is no list of a
// type it handles.
func compileInList(e planner.Expr, input []planner.Column) (evaluator, error) {
	x, consts, ok := planner.InList(e)
	if !ok {
		return nil, nil
	}
	in := &inListEval{}
	switch x.Type().Arrow().ID() {
	case arrow.STRING:
		in.strs = make(map[string]struct{}, len(consts))
		for _, c := range consts {
			s, ok := c.Value.(string)
			if !ok {
				return nil, nil
			}
			in.strs[s] = struct{}{}
		}
	case arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32:
		in.ints = make(map[int64]struct{}, len(consts))
		for _, c := range consts {
			switch v := c.Value.(type) {
			case int64:
				in.ints[v] = struct{}{}
			case int32:
				in.ints[int64(v)] = struct{}{}
			default:
				return nil, nil
			}
		}
	default:
		return nil, nil
	}
	arg, err := compile(x, input)
	if err != nil {
		return nil, err
	}
	in.arg = arg
	return in, nil
}

func (in *inListEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := in.arg.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	n := a.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	if s, ok := a.(*array.String); ok {
		for r := 0; r < n; r++ {
			if _, hit := in.strs[s.Value(r)]; hit && s.IsValid(r) {
				bitutil.SetBit(bits, r)
			}
		}
	} else {
		var vals []int64
		vals = intKeyValues(a, vals)
		for r, v := range vals {
			if _, hit := in.ints[v]; hit && a.IsValid(r) {
				bitutil.SetBit(bits, r)
			}
		}
	}
	var validity []byte
	if nulls := a.NullN(); nulls > 0 {
		validity = make([]byte, bitutil.BytesForBits(int64(n)))
		for r := 0; r < n; r++ {
			if a.IsValid(r) {
				bitutil.SetBit(validity, r)
			}
		}
		return newBool(n, bits, validity, nulls), nil
	}
	return newBool(n, bits, validity, 0), nil
}
