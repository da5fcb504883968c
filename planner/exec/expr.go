package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// evaluator computes an expression over a batch. The returned array has
// the batch's length and is owned by the caller.
type evaluator interface {
	eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error)
}

// compile builds the evaluator of e over batches shaped like input.
func compile(e planner.Expr, input []planner.Column) (evaluator, error) {
	return compileSharing(e, input, nil)
}

// compileSharing is compile with the subexpressions shared (may be nil)
// lists evaluated once per batch, wherever they occur below an
// arithmetic operator of e.
func compileSharing(e planner.Expr, input []planner.Column, shared *sharedExprs) (evaluator, error) {
	if ev, ok, err := shared.evaluator(e, input); ok || err != nil {
		return ev, err
	}
	return compileNode(e, input, shared)
}

// compileNode is compileSharing of e itself.
func compileNode(e planner.Expr, input []planner.Column, shared *sharedExprs) (evaluator, error) {
	switch x := e.(type) {
	case *planner.ColRef:
		for i, c := range input {
			if c.ID == x.ID {
				return columnEval(i), nil
			}
		}
		return nil, fmt.Errorf("column %s not in input", x)
	case *planner.Const:
		return &constEval{typ: x.Typ, value: x.Value}, nil
	case *planner.BinOp:
		if x.Op.Name == "OR" {
			if in, err := compileInList(x, input); in != nil || err != nil {
				return in, err
			}
		}
		if x.Op.Kind != functions.Arithmetic {
			shared = nil
		}
		l, err := compileSharing(x.L, input, shared)
		if err != nil {
			return nil, err
		}
		r, err := compileSharing(x.R, input, shared)
		if err != nil {
			return nil, err
		}
		be := &binaryEval{op: x.Op, l: l, r: r, res: x.Typ, rightMayFail: x.Op.Kind == functions.Logical && !x.R.Leakproof(), operand: x.L.Type(), rOperand: x.R.Type()}
		if be.rightMayFail {
			// A right operand folded to a constant can no longer fail.
			be.rightMayFail = !allConst(r)
			be.rightCheap = cheapEval(r)
		}
		if allConst(l, r) && !zoneDependentArith(x.L.Type(), x.R.Type()) {
			return foldConstant(be, x.Typ), nil
		}
		if be.consumedWithinBatch() {
			for _, operand := range []evaluator{l, r} {
				if child, ok := operand.(*binaryEval); ok && child.op.Kind == functions.Arithmetic {
					child.reuseOut = true
				}
			}
		}
		if x.Op.Kind == functions.Arithmetic && x.Typ.OID == types.OIDNumeric && !x.Typ.General && be.consumedWithinBatch() {
			narrowOperands(be)
		}
		return be, nil
	case *planner.Not:
		arg, err := compile(x.Arg, input)
		if err != nil {
			return nil, err
		}
		return unaryEval{arg: arg, fn: func(a arrow.Array) (arrow.Array, error) { return not(a), nil }}, nil
	case *planner.Negate:
		arg, err := compile(x.Arg, input)
		if err != nil {
			return nil, err
		}
		res := x.Type()
		ev := unaryEval{arg: arg, fn: func(a arrow.Array) (arrow.Array, error) { return negate(a, res) }}
		if allConst(arg) {
			return foldConstant(ev, res), nil
		}
		return ev, nil
	case *planner.IsNull:
		arg, err := compile(x.Arg, input)
		if err != nil {
			return nil, err
		}
		neg := x.Negated
		return unaryEval{arg: arg, fn: func(a arrow.Array) (arrow.Array, error) { return isNull(a, neg), nil }}, nil
	case *planner.Func:
		f := &funcEval{row: x.Row, res: x.Typ}
		if x.Row == nil {
			argTypes := make([]types.T, len(x.Args))
			for i, a := range x.Args {
				argTypes[i] = a.Type()
			}
			if k, ok := lookupContextKernel(x.Name); ok {
				f.waits = k
			} else if k, ok := generalNumericKernel(x.Name, argTypes, x.Typ); ok {
				f.kernel = k
			} else if k, ok := typedKernel(x.Name, argTypes); ok {
				f.kernel = k
			} else {
				var err error
				if f.kernel, err = lookupKernel(x.Name); err != nil {
					return nil, err
				}
			}
			f.zoned, _ = lookupZonedKernel(x.Name, argTypes)
			f.keyed, _ = lookupKeyedKernel(x.Name)
		}
		for _, a := range x.Args {
			ev, err := compile(a, input)
			if err != nil {
				return nil, err
			}
			f.args = append(f.args, ev)
		}
		return f, nil
	case *planner.Subquery:
		sq := &subqueryEval{node: x}
		for _, a := range x.Args {
			arg, err := compile(a, input)
			if err != nil {
				return nil, err
			}
			sq.args = append(sq.args, arg)
		}
		for _, c := range x.Outer {
			// An outer column of this query's input is read from the
			// batch; one from further out comes from the context.
			ev, err := compile(&planner.ColRef{ID: x.OuterSource(c.ID), Name: c.Name, Typ: c.Type}, input)
			if err != nil {
				ev = outerRefEval{ref: &planner.OuterRef{ID: c.ID, Name: c.Name, Typ: c.Type}}
			}
			sq.outer = append(sq.outer, ev)
		}
		return sq, nil
	case *planner.OuterRef:
		return outerRefEval{ref: x}, nil
	case *planner.ArrayExpr:
		a := &arrayEval{typ: x.Typ}
		for _, e := range x.Elems {
			ev, err := compile(e, input)
			if err != nil {
				return nil, err
			}
			a.elems = append(a.elems, ev)
		}
		return a, nil
	case *planner.ArrayCompare:
		l, err := compile(x.Left, input)
		if err != nil {
			return nil, err
		}
		arr, err := compile(x.Array, input)
		if err != nil {
			return nil, err
		}
		return &arrayCompareEval{node: x, left: l, array: arr}, nil
	case *planner.Case:
		c := &caseEval{typ: x.Typ}
		for _, w := range x.Whens {
			cond, err := compile(w.Cond, input)
			if err != nil {
				return nil, err
			}
			res, err := compile(w.Result, input)
			if err != nil {
				return nil, err
			}
			c.conds, c.results = append(c.conds, cond), append(c.results, res)
		}
		if x.Else != nil {
			els, err := compile(x.Else, input)
			if err != nil {
				return nil, err
			}
			c.els = els
		}
		return c, nil
	case *planner.Cast:
		arg, err := compile(x.Arg, input)
		if err != nil {
			return nil, err
		}
		from, to := x.Arg.Type(), x.To
		if zoneDependentCast(from, to) {
			return castEval{arg: arg, from: from, to: to}, nil
		}
		ev := unaryEval{arg: arg, fn: func(a arrow.Array) (arrow.Array, error) { return castArray(a, from, to) }}
		if allConst(arg) {
			return foldConstant(ev, to), nil
		}
		return ev, nil
	}
	return nil, fmt.Errorf("expression %T cannot be executed", e)
}

type columnEval int

func (c columnEval) eval(_ context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	col := b.Column(int(c))
	col.Retain()
	return col, nil
}

// constEval repeats a literal; the array is rebuilt only when a batch
// is longer than the cached one (constSlice).
type constEval struct {
	typ   types.T
	value any
	cache arrow.Array
}

func (c *constEval) eval(_ context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	return c.constSlice(int(b.NumRows()))
}

func constArray(t types.T, v any, n int) (arrow.Array, error) {
	if t.OID == types.OIDUnknown {
		t = types.Text
	}
	bld := array.NewBuilder(memory.DefaultAllocator, t.Arrow())
	defer bld.Release()
	bld.Reserve(n)
	if v == nil {
		bld.AppendNulls(n)
		return bld.NewArray(), nil
	}
	for i := 0; i < n; i++ {
		if err := appendConst(bld, t, v); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// appendConst appends one constant-representation value to bld.
func appendConst(bld array.Builder, t types.T, v any) error {
	{
		switch b := bld.(type) {
		case *array.BooleanBuilder:
			b.Append(v.(bool))
		case *array.Int16Builder:
			b.Append(int16(v.(int64)))
		case *array.Int32Builder:
			b.Append(int32(v.(int64)))
		case *array.Int64Builder:
			b.Append(v.(int64))
		case *array.Uint32Builder:
			b.Append(uint32(v.(int64)))
		case *array.Float32Builder:
			b.Append(float32(v.(float64)))
		case *array.Float64Builder:
			b.Append(v.(float64))
		case *array.Decimal128Builder:
			b.Append(v.(decimal128.Num))
		case *array.Decimal64Builder:
			b.Append(decimal.Decimal64(v.(decimal128.Num).LowBits()))
		case *array.ExtensionBuilder:
			d, ok := v.(*apd.Decimal)
			if !ok || !t.IsGeneralNumeric() {
				return fmt.Errorf("constant of type %s is not implemented", t.Name())
			}
			types.NumericBuilder(b).Append(types.AppendNumeric(nil, d))
		case *array.StringBuilder:
			b.Append(v.(string))
		case *array.Date32Builder:
			b.Append(arrow.Date32(v.(int32)))
		case *array.TimestampBuilder:
			b.Append(arrow.Timestamp(v.(int64)))
		case *array.Time64Builder:
			b.Append(arrow.Time64(v.(int64)))
		case *array.MonthDayNanoIntervalBuilder:
			b.Append(v.(types.IntervalValue).ToArrow())
		case *array.BinaryBuilder:
			b.Append(v.([]byte))
		case *array.FixedSizeBinaryBuilder:
			b.Append(v.([]byte))
		case *array.ListBuilder:
			elem, _ := t.Elem()
			b.Append(true)
			for _, e := range v.([]any) {
				if e == nil {
					b.ValueBuilder().AppendNull()
					continue
				}
				if err := appendConst(b.ValueBuilder(), elem, e); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("constant of type %s is not implemented", t.Name())
		}
	}
	return nil
}

type unaryEval struct {
	arg evaluator
	fn  func(arrow.Array) (arrow.Array, error)
}

func (u unaryEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := u.arg.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return u.fn(a)
}

type binaryEval struct {
	op   functions.Operator
	l, r evaluator
	res  types.T
	// rightMayFail: the right operand of AND / OR is not leakproof, so it
	// is evaluated only on the rows the left operand has not decided.
	rightMayFail bool
	// rightCheap: the right operand is cheap to compute on every row
	// (cheapEval), so the short circuit first tries it on the whole
	// batch and narrows to the undecided rows only if that fails.
	rightCheap bool
	// operand is the type a comparison's operands share (the left
	// operand's type); rOperand the right's, which differs for date/time
	// arithmetic (timestamp + interval).
	operand, rOperand types.T
	// reuseOut: the result is an operand of a parent operator that
	// computes a new array from it and releases it before the next
	// batch, so a decimal result's values live in out, reused.
	reuseOut bool
	out      []decimal128.Num
	// narrow: the reader (an arithmetic operator, a sum) takes the
	// result as decimal64 when its values fit (arithNarrow), in out64;
	// wide: a batch's did not, and the result is computed in 128 bits
	// from then on.
	narrow bool
	wide   bool
	out64  []int64
}

// consumedWithinBatch reports whether an operator's operands are read
// only while it computes its own, newly allocated result: arithmetic and
// comparison of numbers (not of dates and times, whose kernels are not
// in this file).
func (e *binaryEval) consumedWithinBatch() bool {
	switch e.op.Kind {
	case functions.Arithmetic, functions.Comparison:
		return e.operand.IsNumeric() && e.rOperand.IsNumeric()
	}
	return false
}

// shortCircuit evaluates AND / OR whose right operand can fail (1/x,
// a bad cast) only on the rows that need it: those where the left is
// true (AND) or false (OR), or NULL. A row the left operand already
// decides never raises the right operand's error, as PostgreSQL
// evaluates boolean operators left to right.
func (e *binaryEval) shortCircuit(ctx context.Context, b arrow.RecordBatch, l arrow.Array) (arrow.Array, error) {
	lb := l.(*array.Boolean)
	n := lb.Len()
	decidedBy := e.op.Name == "OR" // the left value that decides the row
	var need []int32
	for i := 0; i < n; i++ {
		if lb.IsNull(i) || lb.Value(i) != decidedBy {
			need = append(need, int32(i))
		}
	}
	if len(need) == 0 {
		l.Retain()
		return l, nil
	}
	if len(need) < n && e.rightCheap {
		// Same answer as evaluating the undecided rows only (a decided
		// row ignores the right value), without gathering them; an
		// error may come from a decided row, so it sends us the slow way.
		if r, err := e.r.eval(ctx, b); err == nil {
			defer r.Release()
			return kleene(ctx, e.op.Name, l, r)
		}
	}
	var r arrow.Array
	if len(need) == n {
		var err error
		if r, err = e.r.eval(ctx, b); err != nil {
			return nil, err
		}
	} else {
		sub, err := takeBatch(ctx, b, need)
		if err != nil {
			return nil, err
		}
		part, err := e.r.eval(ctx, sub)
		sub.Release()
		if err != nil {
			return nil, err
		}
		// Rows the left decided take the deciding value; it does not
		// change their result.
		vals := make([]any, n)
		for i := range vals {
			vals[i] = decidedBy
		}
		pb := part.(*array.Boolean)
		for k, row := range need {
			if pb.IsNull(k) {
				vals[row] = nil
			} else {
				vals[row] = pb.Value(k)
			}
		}
		part.Release()
		if r, err = valuesArray(types.Bool, vals); err != nil {
			return nil, err
		}
	}
	defer r.Release()
	return kleene(ctx, e.op.Name, l, r)
}

func (e *binaryEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	l, err := e.l.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	if e.op.Kind == functions.Logical && e.rightMayFail {
		return e.shortCircuit(ctx, b, l)
	}
	r, err := e.r.eval(ctx, b)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	switch e.op.Kind {
	case functions.Comparison:
		return compareTyped(e.op.Name, l, r, e.operand)
	case functions.Arithmetic:
		if isDatetimeArith(e.operand, e.rOperand) {
			return datetimeArithIn(timeZoneOf(ctx), e.op.Name, l, r, e.operand, e.rOperand, e.res)
		}
		if e.res.IsGeneralNumeric() {
			return arithGeneral(e.op.Name, l, r)
		}
		if e.narrow {
			return e.arithNarrow(l, r)
		}
		if e.reuseOut && isDecimal(l.DataType().ID()) {
			return e.arithDecimalReusing(l, r)
		}
		return arith(e.op.Name, l, r, e.res)
	case functions.Logical:
		return kleene(ctx, e.op.Name, l, r)
	case functions.Concat:
		return concat(l, r), nil
	}
	return nil, fmt.Errorf("operator %s cannot be executed", e.op.Name)
}

// arithDecimalReusing computes decimal arithmetic into e.out, whose
// previous result the parent operator has released.
func (e *binaryEval) arithDecimalReusing(l, r arrow.Array) (arrow.Array, error) {
	n := l.Len()
	if cap(e.out) < n {
		e.out = make([]decimal128.Num, n)
	}
	out := e.out[:n]
	validity, nulls := validity2(l, r)
	if nulls > 0 {
		clear(out) // NULL rows are not written
	}
	return arithDecimalInto(e.op.Name, l, r, validity, nulls, e.res, out)
}

// funcEval evaluates a scalar function's arguments, then its kernel.
type funcEval struct {
	kernel scalarKernel
	zoned  zonedKernel   // set when the result depends on the session zone
	keyed  keyedKernel   // set when the result depends on the server's mask key
	waits  contextKernel // set for a function that waits (pg_sleep)
	row    planner.RowFunc
	args   []evaluator
	res    types.T
}

func (f *funcEval) eval(ctx context.Context, b arrow.RecordBatch) (arrow.Array, error) {
	args, err := evalAll(ctx, f.args, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(args)
	if f.row != nil {
		return evalRows(f.row, args, int(b.NumRows()), f.res)
	}
	if f.zoned != nil {
		return f.zoned(timeZoneOf(ctx), args, f.res)
	}
	if f.keyed != nil {
		return f.keyed(maskKeyOf(ctx), args, f.res)
	}
	if f.waits != nil {
		return f.waits(ctx, args, f.res)
	}
	if len(args) == 0 {
		// A function without arguments still answers one value per row.
		rows := array.NewNull(int(b.NumRows()))
		defer rows.Release()
		return f.kernel([]arrow.Array{rows}, f.res)
	}
	return f.kernel(args, f.res)
}

// evalRows runs a row function on each row: for the session's catalog
// functions, whose work is a lookup per value.
func evalRows(fn planner.RowFunc, args []arrow.Array, n int, res types.T) (arrow.Array, error) {
	vals := make([]any, n)
	in := make([]any, len(args))
	for r := 0; r < n; r++ {
		for i, a := range args {
			in[i] = valueAt(a, r)
		}
		v, err := fn(in)
		if err != nil {
			return nil, err
		}
		vals[r] = v
	}
	return valuesArray(res, vals)
}

// valuesArray builds an array of type t from constant-representation
// values (nil = NULL).
func valuesArray(t types.T, vals []any) (arrow.Array, error) {
	bld := array.NewBuilder(memory.DefaultAllocator, t.Arrow())
	defer bld.Release()
	for _, v := range vals {
		if v == nil {
			bld.AppendNull()
			continue
		}
		if err := appendConst(bld, t, v); err != nil {
			return nil, err
		}
	}
	return bld.NewArray(), nil
}

// typedKernel is the kernel of a function whose implementation depends on
// its argument types (json vs jsonb, array element types); ok is false
// for the functions lookupKernel finds by name alone.
func typedKernel(name string, argTypes []types.T) (scalarKernel, bool) {
	if k, ok := jsonTypedKernel(name, argTypes); ok {
		return k, true
	}
	return arrayFuncKernel(name, argTypes)
}
