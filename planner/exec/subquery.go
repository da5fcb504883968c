package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// subqueryEval runs an uncorrelated subquery once, at its first use, and
// answers every later batch from what it kept: the value (scalar), whether
// a row exists (EXISTS), or the set of values (IN).
type subqueryEval struct {
	node *planner.Subquery
	arg  evaluator // IN's tested value

	done    bool
	value   any // scalar: the one value, nil for NULL or no row
	exists  bool
	set     map[string]bool
	hasNull bool
}

func (s *subqueryEval) run(ctx context.Context) error {
	op, err := Build(ctx, s.node.Plan)
	if err != nil {
		return err
	}
	defer op.Close()
	rows := 0
	var keyBuf []byte
	if s.node.Kind == planner.InSubquery {
		s.set = map[string]bool{}
	}
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		n := int(b.NumRows())
		switch s.node.Kind {
		case planner.ExistsSubquery:
			s.exists = s.exists || n > 0
		case planner.ScalarSubquery:
			if rows+n > 1 {
				b.Release()
				return pgerror.New(pgerror.CardinalityViolation, "more than one row returned by a subquery used as an expression")
			}
			if n == 1 {
				s.value = valueAt(b.Column(0), 0)
			}
		case planner.InSubquery:
			col := b.Column(0)
			for r := 0; r < n; r++ {
				if col.IsNull(r) {
					s.hasNull = true
					continue
				}
				keyBuf = appendKey(keyBuf[:0], col, r)
				s.set[string(keyBuf)] = true
			}
		}
		rows += n
		b.Release()
		if s.node.Kind == planner.ExistsSubquery && s.exists {
			break
		}
	}
	s.done = true
	return nil
}

func (s *subqueryEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	if !s.done {
		if err := s.run(ctx); err != nil {
			return nil, err
		}
	}
	n := int(b.NumRows())
	switch s.node.Kind {
	case planner.ScalarSubquery:
		return constArray(s.node.Typ, s.value, n)
	case planner.ExistsSubquery:
		return constArray(types.Bool, s.exists, n)
	}
	arg, err := s.arg.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer arg.Release()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	var keyBuf []byte
	for r := 0; r < n; r++ {
		if arg.IsNull(r) {
			nulls++
			continue
		}
		keyBuf = appendKey(keyBuf[:0], arg, r)
		switch {
		case s.set[string(keyBuf)]:
			bitutil.SetBit(bits, r)
			bitutil.SetBit(validity, r)
		case s.hasNull:
			// x IN (..., NULL) without a match is NULL, not false.
			nulls++
		default:
			bitutil.SetBit(validity, r)
		}
	}
	return newBool(n, bits, validity, nulls), nil
}

// valueAt reads row i of a as a constant value (the representation of
// planner.Const).
func valueAt(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch x := a.(type) {
	case *array.Boolean:
		return x.Value(i)
	case *array.Int16:
		return int64(x.Value(i))
	case *array.Int32:
		return int64(x.Value(i))
	case *array.Int64:
		return x.Value(i)
	case *array.Uint32:
		return int64(x.Value(i))
	case *array.Float32:
		return float64(x.Value(i))
	case *array.Float64:
		return x.Value(i)
	case *array.Decimal128:
		return x.Value(i)
	case *array.String:
		return x.Value(i)
	case *array.Date32:
		return int32(x.Value(i))
	case *array.Timestamp:
		return int64(x.Value(i))
	}
	panic(fmt.Sprintf("subquery value of type %s", a.DataType()))
}
