package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindAggregateCall binds an aggregate call of a grouped query: its
// arguments, DISTINCT, ORDER BY, FILTER, and an ordered-set aggregate's
// WITHIN GROUP. Every part is bound over the aggregate's input rows. Equal
// calls share one result column.
func (b *Binder) bindAggregateCall(fc *pg_query.FuncCall, name string, agg functions.Aggregate, ec *exprCtx) (Expr, error) {
	if fc.FuncVariadic {
		return nil, pgerror.Unsupported("VARIADIC in aggregate calls is not supported yet")
	}
	if ec.group == nil {
		return nil, b.errAt(fc.Location, pgerror.GroupingError, "aggregate functions are not allowed in %s", ec.clause)
	}
	if agg.OrderedSet != fc.AggWithinGroup {
		// PostgreSQL looks such a call up as a different function, which
		// does not exist.
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, b.argTypeNames(fc.Args, &exprCtx{scope: ec.group.input, clause: "aggregate"})).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	call := &AggCall{Func: agg, Distinct: fc.AggDistinct}
	var res types.T
	var err error
	if agg.OrderedSet {
		res, err = b.bindOrderedSetArgs(fc, name, call, ec)
	} else {
		res, err = b.bindAggArgs(fc, name, call, ec, func(n *pg_query.Node) (Expr, error) {
			return b.bindAggArg(fc, n, ec)
		})
	}
	if err != nil {
		return nil, err
	}
	if fc.AggFilter != nil {
		if containsAggregate(fc.AggFilter) {
			return nil, b.errAt(fc.Location, pgerror.GroupingError, "aggregate functions are not allowed in FILTER")
		}
		f, err := b.bindExpr(fc.AggFilter, &exprCtx{scope: ec.group.input, clause: "FILTER"})
		if err != nil {
			return nil, err
		}
		if call.Filter, err = b.requireBool(f, fc.Location, "FILTER"); err != nil {
			return nil, err
		}
	}
	key := call.String()
	for _, existing := range ec.group.aggs {
		if existing.String() == key {
			return &ColRef{ID: existing.Out.ID, Name: existing.Out.Name, Typ: existing.Out.Type}, nil
		}
	}
	call.Out = b.newColumn(name, Column{Type: res, Nullable: true})
	ec.group.aggs = append(ec.group.aggs, call)
	return &ColRef{ID: call.Out.ID, Name: call.Out.Name, Typ: res}, nil
}

// bindAggArgs binds a plain aggregate's arguments and its ORDER BY, and
// returns its result type. bindArg binds one argument where the call
// reads it: over a group's input rows, or a window's rows.
func (b *Binder) bindAggArgs(fc *pg_query.FuncCall, name string, call *AggCall, ec *exprCtx, bindArg func(*pg_query.Node) (Expr, error)) (types.T, error) {
	agg := call.Func
	var argType types.T
	switch {
	case fc.AggStar:
		if !agg.Star {
			return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(*) does not exist", name)
		}
	case len(fc.Args) == 2 && agg.Delimited:
		arg, err := bindArg(fc.Args[0])
		if err != nil {
			return types.T{}, err
		}
		delim, err := bindArg(fc.Args[1])
		if err != nil {
			return types.T{}, err
		}
		if delim.Type().Family() != types.FamilyString {
			return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s, %s) does not exist", name, arg.Type().Name(), delim.Type().Name()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if delim, err = b.coerce(delim, types.Text, fc.Location); err != nil {
			return types.T{}, err
		}
		call.Arg, call.Delim = arg, delim
		argType = arg.Type()
	case len(fc.Args) == 1 && isRow(fc.Args[0]):
		if err := b.bindRowAggArg(fc, name, call, bindArg); err != nil {
			return types.T{}, err
		}
		argType = call.Arg.Type()
	case len(fc.Args) == 2 && agg.Regression:
		if err := b.bindRegressionArgs(fc, name, call, bindArg); err != nil {
			return types.T{}, err
		}
		argType = types.Float8
	case len(fc.Args) == 2 && agg.Pair:
		// The value rides where a delimited aggregate has its delimiter.
		key, err := bindArg(fc.Args[0])
		if err != nil {
			return types.T{}, err
		}
		val, err := bindArg(fc.Args[1])
		if err != nil {
			return types.T{}, err
		}
		call.Arg, call.Delim = key, val
		argType = key.Type()
	case len(fc.Args) == 1 && !agg.Delimited && !agg.Regression && !agg.Pair:
		arg, err := bindArg(fc.Args[0])
		if err != nil {
			return types.T{}, err
		}
		call.Arg = arg
		argType = arg.Type()
	default:
		return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", name, len(fc.Args))
	}
	res, ok := agg.Result(argType)
	if !ok {
		if agg.Name == "array_agg" && argType.Family() != types.FamilyUnknown {
			return types.T{}, b.errAt(fc.Location, pgerror.FeatureNotSupported, "array_agg(%s) is not supported yet: SQE has no %s[] type", argType.Name(), argType.Name())
		}
		return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, argType.Name()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if agg.Delimited {
		arg, err := b.coerce(call.Arg, res, fc.Location)
		if err != nil {
			return types.T{}, err
		}
		call.Arg = arg
	}
	for _, n := range fc.AggOrder {
		key, err := b.bindAggSortKey(fc, n, ec)
		if err != nil {
			return types.T{}, err
		}
		call.OrderBy = append(call.OrderBy, key)
	}
	if call.Distinct {
		if call.Arg == nil {
			return types.T{}, b.errAt(fc.Location, pgerror.SyntaxError, "DISTINCT needs an argument")
		}
		args := []Expr{call.Arg}
		if call.Delim != nil {
			args = append(args, call.Delim)
		}
		for _, k := range call.OrderBy {
			if !containsExpr(args, k.Expr) {
				return types.T{}, b.errAt(fc.Location, pgerror.InvalidColumnReference, "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
			}
		}
	}
	return res, nil
}

func containsExpr(list []Expr, e Expr) bool {
	s := e.String()
	for _, x := range list {
		if x.String() == s {
			return true
		}
	}
	return false
}

// bindAggSortKey binds one key of an aggregate's ORDER BY or WITHIN
// GROUP over the aggregate's input. An integer is a constant here, not a
// select-list position.
func (b *Binder) bindAggSortKey(fc *pg_query.FuncCall, n *pg_query.Node, ec *exprCtx) (SortKey, error) {
	sb := n.GetSortBy()
	if sb == nil {
		return SortKey{}, b.unsupportedNode(n)
	}
	if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
		return SortKey{}, pgerror.Unsupported("ORDER BY ... USING is not supported yet")
	}
	key := sortKeyOf(sb)
	e, err := b.bindAggArg(fc, sb.Node, ec)
	if err != nil {
		return SortKey{}, err
	}
	key.Expr = e
	return key, nil
}

// bindOrderedSetArgs binds an ordered-set aggregate: the WITHIN GROUP key
// is the aggregated value, the call's arguments its direct arguments.
// percentile_cont reads the value as double precision and both
// percentiles their fraction. The fraction must be a constant here.
func (b *Binder) bindOrderedSetArgs(fc *pg_query.FuncCall, name string, call *AggCall, ec *exprCtx) (types.T, error) {
	agg := call.Func
	if len(fc.AggOrder) != 1 || len(fc.Args) != agg.Direct {
		return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d direct and %d ordered arguments does not exist", name, len(fc.Args), len(fc.AggOrder)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	key, err := b.bindAggSortKey(fc, fc.AggOrder[0], ec)
	if err != nil {
		return types.T{}, err
	}
	res, ok := agg.Result(key.Expr.Type())
	if !ok {
		return types.T{}, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, key.Expr.Type().Name()).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if agg.Name == "percentile_cont" {
		if key.Expr, err = b.coerce(key.Expr, types.Float8, fc.Location); err != nil {
			return types.T{}, err
		}
	}
	call.Arg = key.Expr
	call.OrderBy = []SortKey{key}
	if agg.Direct == 0 {
		return res, nil
	}
	if containsAggregate(fc.Args[0]) {
		return types.T{}, b.errAt(fc.Location, pgerror.GroupingError, "aggregate function calls cannot be nested")
	}
	direct, err := b.bindExpr(fc.Args[0], &exprCtx{scope: ec.group.input, clause: "aggregate"})
	if err != nil {
		return types.T{}, err
	}
	if direct.Type().Family() == types.FamilyArray || fc.Args[0].GetAArrayExpr() != nil {
		return types.T{}, pgerror.Unsupported("%s with an array of fractions is not supported yet", name)
	}
	cols := map[ColumnID]bool{}
	ExprColumns(direct, cols)
	if len(cols) > 0 {
		return types.T{}, pgerror.Unsupported("%s with a fraction that is not a constant is not supported yet", name)
	}
	if isUnknown(direct) {
		direct, err = b.cast(direct, types.Float8, fc.Location)
	} else {
		direct, err = b.coerce(direct, types.Float8, fc.Location)
	}
	if err != nil {
		return types.T{}, err
	}
	call.Direct = direct
	return res, nil
}
