package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"

	"github.com/sqe-db/sqe/sql/types"
)

// subqueryEval runs an uncorrelated subquery once, at its first use, and
// answers every later batch from what it kept: the value (scalar), whether
// a row exists (EXISTS), or the set of values (IN).
type subqueryEval struct {
	node  *planner.Subquery
	args  []evaluator // IN's tested values: one, or a row's fields
	outer []evaluator // a correlated subquery's outer columns, over the enclosing batch

	answer
	// memo keeps a correlated subquery's answer per combination of outer
	// values, so it runs once per distinct combination.
	memo    map[string]*answer
	memoMem reservation
	keyBuf  []byte
}

// answer is what a subquery run leaves: the value (scalar), whether a row
// exists (EXISTS), or the set of values (IN).
type answer struct {
	done    bool
	value   any // scalar: the one value, nil for NULL or no row
	exists  bool
	set     map[string]bool
	hasNull bool
	// rows keeps every row of a row-valued IN's subquery, each field's
	// key apart ("" for NULL): a tested row with a NULL, or a subquery
	// row with one, is compared field by field (rowIn).
	rows [][]string
	list []any // ARRAY(subquery)
	// mem charges the set and the list to the query's budget. Evaluators
	// have no Close: it is given back with the query's budget.
	mem reservation
}

// answerBytes is the memory of one memoized answer beside its set and
// list (charged by the answer's own reservation).
const answerBytes = 128

// outerValues carries the enclosing row's values to a correlated
// subquery's OuterRefs, through the context its plan runs with.
type outerValues map[planner.ColumnID]any

type outerKey struct{}

func withOuter(ctx context.Context, vals outerValues) context.Context {
	// Values from further out stay visible to nested subqueries.
	if prev, ok := ctx.Value(outerKey{}).(outerValues); ok {
		merged := make(outerValues, len(prev)+len(vals))
		for k, v := range prev {
			merged[k] = v
		}
		for k, v := range vals {
			merged[k] = v
		}
		vals = merged
	}
	return context.WithValue(ctx, outerKey{}, vals)
}

// outerRefEval reads an enclosing row's value.
type outerRefEval struct{ ref *planner.OuterRef }

func (o outerRefEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	vals, _ := ctx.Value(outerKey{}).(outerValues)
	v, ok := vals[o.ref.ID]
	if !ok {
		return nil, fmt.Errorf("outer reference %s has no value", o.ref)
	}
	return constArray(o.ref.Typ, v, int(b.NumRows()))
}

func (s *answer) run(ctx context.Context, node *planner.Subquery) error {
	op, err := Build(ctx, node.Plan)
	if err != nil {
		return err
	}
	defer op.Close()
	rows := 0
	var keyBuf []byte
	if node.Kind == planner.InSubquery {
		s.set = map[string]bool{}
	}
	s.mem = newReservation(ctx, "SubqueryResult")
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := op.Next(ctx)
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		n := int(b.NumRows())
		switch node.Kind {
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
		case planner.ArraySubquery:
			if err := s.mem.grow(arrayBytes(b.Column(0)) + int64(n)*anyValueBytes); err != nil {
				b.Release()
				return err
			}
			for r := 0; r < n; r++ {
				s.list = append(s.list, valueAt(b.Column(0), r))
			}
		case planner.InSubquery:
			var grown int64
			if b.NumCols() == 1 {
				grown = s.addValues(b.Column(0), &keyBuf)
			} else {
				grown = s.addRows(b, &keyBuf)
			}
			if err := s.mem.grow(grown); err != nil {
				b.Release()
				return err
			}
		}
		rows += n
		b.Release()
		if node.Kind == planner.ExistsSubquery && s.exists {
			break
		}
	}
	s.done = true
	return nil
}

func (s *subqueryEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	args, err := evalAll(ctx, s.args, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(args)
	if len(s.outer) == 0 {
		if !s.done {
			if err := s.answer.run(ctx, s.node); err != nil {
				return nil, err
			}
		}
		if s.node.Kind != planner.InSubquery {
			return constArray(s.node.Typ, s.answer.resultOf(s.node.Kind), n)
		}
		// The hot path of x IN (SELECT ...): straight into bitmaps.
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		validity := make([]byte, bitutil.BytesForBits(int64(n)))
		nulls := 0
		for r := 0; r < n; r++ {
			switch s.answer.in(args, r, &s.keyBuf) {
			case true:
				bitutil.SetBit(bits, r)
				bitutil.SetBit(validity, r)
			case false:
				bitutil.SetBit(validity, r)
			default:
				nulls++
			}
		}
		return newBool(n, bits, validity, nulls), nil
	}
	// Correlated: one answer per distinct combination of outer values.
	outs, err := evalAll(ctx, s.outer, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(outs)
	if s.memo == nil {
		s.memo = map[string]*answer{}
		s.memoMem = newReservation(ctx, "SubqueryMemo")
	}
	vals := make([]any, n)
	var key []byte
	for r := 0; r < n; r++ {
		key = key[:0]
		for _, o := range outs {
			key = appendKey(key, o, r)
		}
		ans, ok := s.memo[string(key)]
		if !ok {
			ov := outerValues{}
			for k, c := range s.node.Outer {
				ov[c.ID] = valueAt(outs[k], r)
			}
			ans = &answer{}
			if err := ans.run(withOuter(ctx, ov), s.node); err != nil {
				return nil, err
			}
			if err := s.memoMem.grow(hashEntryBytes + int64(len(key)) + answerBytes); err != nil {
				return nil, err
			}
			s.memo[string(key)] = ans
		}
		if s.node.Kind == planner.InSubquery {
			vals[r] = ans.in(args, r, &s.keyBuf)
		} else {
			vals[r] = ans.resultOf(s.node.Kind)
		}
	}
	return valuesArray(s.node.Typ, vals)
}

// resultOf is a scalar or EXISTS subquery's value.
func (s *answer) resultOf(kind planner.SubqueryKind) any {
	switch kind {
	case planner.ExistsSubquery:
		return s.exists
	case planner.ArraySubquery:
		if s.list == nil {
			return []any{}
		}
		return s.list
	}
	return s.value
}

// in answers args[r] IN (the set), with SQL's NULL rules: false for an
// empty set whatever the value, else NULL when the value is NULL, or
// when it is not found and the set holds a NULL.
func (s *answer) in(args []arrow.Array, r int, keyBuf *[]byte) any {
	if len(args) > 1 {
		return s.rowIn(args, r, keyBuf)
	}
	arg := args[0]
	if len(s.set) == 0 && !s.hasNull {
		return false
	}
	if arg.IsNull(r) {
		return nil
	}
	*keyBuf = appendKey((*keyBuf)[:0], arg, r)
	switch {
	case s.set[string(*keyBuf)]:
		return true
	case s.hasNull:
		return nil
	}
	return false
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
	case *array.Decimal64:
		return decimal128.FromI64(int64(x.Value(i)))
	case *types.NumericArray:
		return types.NumericFromBytes(x.Bytes(i))
	case *array.String:
		return x.Value(i)
	case *array.Date32:
		return int32(x.Value(i))
	case *array.Timestamp:
		return int64(x.Value(i))
	case *array.Time64:
		return int64(x.Value(i))
	case *array.MonthDayNanoInterval:
		return types.IntervalFromArrow(x.Value(i))
	case bytesValues:
		return append([]byte{}, x.Value(i)...)
	case *array.List:
		start, end := x.ValueOffsets(i)
		out := make([]any, 0, end-start)
		for k := start; k < end; k++ {
			out = append(out, valueAt(x.ListValues(), int(k)))
		}
		return out
	}
	panic(fmt.Sprintf("subquery value of type %s", a.DataType()))
}
