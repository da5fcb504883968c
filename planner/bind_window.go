package planner

import (
	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// SQLSTATEs of window definitions that pgerror does not name.
const (
	windowingError = "42P20"
	undefinedName  = "42704"
)

// Frame option bits of a parsed WindowDef (PostgreSQL's FRAMEOPTION_*).
const (
	frameNonDefault           = 0x00001
	frameRange                = 0x00002
	frameRows                 = 0x00004
	frameGroups               = 0x00008
	frameStartUnboundedPrec   = 0x00020
	frameEndUnboundedFollow   = 0x00100
	frameStartCurrentRow      = 0x00200
	frameEndCurrentRow        = 0x00400
	frameStartOffsetPreceding = 0x00800
	frameEndOffsetPreceding   = 0x01000
	frameStartOffsetFollowing = 0x02000
	frameEndOffsetFollowing   = 0x04000
	frameExcludeCurrentRow    = 0x08000
	frameExcludeGroup         = 0x10000
	frameExcludeTies          = 0x20000
)

// windowArgsClause names a window function's arguments while they are
// bound, where another window function is refused as nested.
const windowArgsClause = "window function arguments"

// windowKind is what a window-only function needs from the binder.
type windowKind struct {
	minArgs, maxArgs int
	// result is the result type, or zero for "the first argument's type".
	result types.T
}

// windowFunctions are the window-only functions SQE computes.
var windowFunctions = map[string]windowKind{
	"row_number":   {result: types.Int8},
	"rank":         {result: types.Int8},
	"dense_rank":   {result: types.Int8},
	"percent_rank": {result: types.Float8},
	"cume_dist":    {result: types.Float8},
	"ntile":        {minArgs: 1, maxArgs: 1, result: types.Int4},
	"lag":          {minArgs: 1, maxArgs: 3},
	"lead":         {minArgs: 1, maxArgs: 3},
	"first_value":  {minArgs: 1, maxArgs: 1},
	"last_value":   {minArgs: 1, maxArgs: 1},
	"nth_value":    {minArgs: 2, maxArgs: 2},
}

// windowState collects a query's window functions while its select list
// and ORDER BY are bound: one Window node per distinct definition, in
// the order they were first used.
type windowState struct {
	named map[string]*pg_query.WindowDef
	nodes []*Window
}

// newWindowState reads the WINDOW clause.
func (b *Binder) newWindowState(clause []*pg_query.Node) (*windowState, error) {
	ws := &windowState{named: map[string]*pg_query.WindowDef{}}
	for _, n := range clause {
		wd := n.GetWindowDef()
		if wd == nil {
			return nil, b.unsupportedNode(n)
		}
		if _, dup := ws.named[wd.Name]; dup {
			return nil, b.errAt(wd.Location, windowingError, "window \"%s\" is already defined", wd.Name)
		}
		resolved, err := b.resolveWindowDef(ws, wd)
		if err != nil {
			return nil, err
		}
		ws.named[wd.Name] = resolved
	}
	return ws, nil
}

// resolveWindowDef applies PostgreSQL's rules for a window that names
// another: OVER w uses w as is; OVER (w ORDER BY ...) copies w's
// partitioning and may add an ORDER BY and a frame.
func (b *Binder) resolveWindowDef(ws *windowState, wd *pg_query.WindowDef) (*pg_query.WindowDef, error) {
	if wd.Refname == "" {
		return wd, nil
	}
	base, ok := ws.named[wd.Refname]
	if !ok {
		return nil, b.errAt(wd.Location, undefinedName, "window \"%s\" does not exist", wd.Refname)
	}
	if len(wd.PartitionClause) > 0 {
		return nil, b.errAt(wd.Location, windowingError, "cannot override PARTITION BY clause of window \"%s\"", wd.Refname)
	}
	if len(wd.OrderClause) > 0 && len(base.OrderClause) > 0 {
		return nil, b.errAt(wd.Location, windowingError, "cannot override ORDER BY clause of window \"%s\"", wd.Refname)
	}
	if base.FrameOptions&frameNonDefault != 0 {
		return nil, b.errAt(wd.Location, windowingError, "cannot copy window \"%s\" because it has a frame clause", wd.Refname)
	}
	out := &pg_query.WindowDef{
		PartitionClause: base.PartitionClause,
		OrderClause:     base.OrderClause,
		FrameOptions:    wd.FrameOptions,
		StartOffset:     wd.StartOffset,
		EndOffset:       wd.EndOffset,
		Location:        wd.Location,
	}
	if len(wd.OrderClause) > 0 {
		out.OrderClause = wd.OrderClause
	}
	return out, nil
}

// checkNamedWindows binds every window of the WINDOW clause, used or
// not, so an error in one is reported as PostgreSQL does.
func (b *Binder) checkNamedWindows(clause []*pg_query.Node, ec *exprCtx) error {
	inner := *ec
	inner.windows, inner.srfs, inner.clause = nil, nil, "window definitions"
	for _, n := range clause {
		wd, err := b.lookupWindow(ec.windows, &pg_query.WindowDef{Name: n.GetWindowDef().GetName()})
		if err != nil {
			return err
		}
		if _, err := b.bindWindowDef(wd, &inner); err != nil {
			return err
		}
	}
	return nil
}

// lookupWindow finds the definition an OVER clause uses.
func (b *Binder) lookupWindow(ws *windowState, over *pg_query.WindowDef) (*pg_query.WindowDef, error) {
	if over.Name != "" && over.Refname == "" {
		wd, ok := ws.named[over.Name]
		if !ok {
			return nil, b.errAt(over.Location, undefinedName, "window \"%s\" does not exist", over.Name)
		}
		return wd, nil
	}
	return b.resolveWindowDef(ws, over)
}

// containsWindow reports whether the expression n calls a window function.
func containsWindow(n *pg_query.Node) bool {
	found := false
	walkAST(n, func(fc *pg_query.FuncCall) {
		if fc.Over != nil {
			found = true
		}
	})
	return found
}

// windowDefsContainAggregate reports whether a WINDOW clause uses an
// aggregate, which makes the query aggregating.
func windowDefsContainAggregate(clause []*pg_query.Node) bool {
	for _, n := range clause {
		wd := n.GetWindowDef()
		if wd == nil {
			continue
		}
		for _, e := range append(append([]*pg_query.Node(nil), wd.PartitionClause...), wd.OrderClause...) {
			if containsAggregate(e) {
				return true
			}
		}
	}
	return false
}

// attach stacks the query's Window nodes on input.
func (ws *windowState) attach(input Node) Node {
	for _, w := range ws.nodes {
		w.Input = input
		input = w
	}
	return input
}

// bindWindowCall binds f(...) OVER (...) to a reference to the column a
// Window node computes.
func (b *Binder) bindWindowCall(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, error) {
	if ec.windows == nil {
		if ec.clause == "aggregate" {
			return nil, b.errAt(fc.Location, pgerror.GroupingError, "aggregate function calls cannot contain window function calls")
		}
		if ec.clause == windowArgsClause {
			return nil, b.errAt(fc.Location, windowingError, "window function calls cannot be nested")
		}
		return nil, b.errAt(fc.Location, windowingError, "window functions are not allowed in %s", ec.clause)
	}
	kind, isWindow := windowFunctions[name]
	agg, isAgg := functions.LookupAggregate(name)
	switch {
	case fc.AggFilter != nil && !isAgg && isWindow:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "FILTER is not implemented for non-aggregate window functions")
	case fc.AggDistinct:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "DISTINCT is not implemented for window functions")
	case len(fc.AggOrder) > 0:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "aggregate ORDER BY is not implemented for window functions")
	case isAgg && agg.OrderedSet && fc.AggWithinGroup:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "OVER is not supported for ordered-set aggregate %s", name)
	case isAgg && agg.OrderedSet:
		return nil, b.errAt(fc.Location, "42809", "WITHIN GROUP is required for ordered-set aggregate %s", name)
	case fc.AggWithinGroup || fc.FuncVariadic:
		return nil, pgerror.Unsupported("WITHIN GROUP and VARIADIC are not supported for window functions")
	case !isWindow && !isAgg:
		if _, ok := functions.LookupScalar(name); ok {
			return nil, b.errAt(fc.Location, "42809", "OVER specified, but %s is not a window function nor an aggregate function", name)
		}
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	wd, err := b.lookupWindow(ec.windows, fc.Over)
	if err != nil {
		return nil, err
	}
	// Arguments and the window's keys are bound where the call is: over
	// the grouped rows in an aggregating query. A window call inside them
	// is refused.
	inner := *ec
	inner.windows = nil
	inner.srfs = nil
	inner.clause = "window definitions"
	win, err := b.bindWindowDef(wd, &inner)
	if err != nil {
		return nil, err
	}
	inner.clause = windowArgsClause
	call := &WindowCall{Name: name}
	var res types.T
	if isAgg {
		if res, err = b.bindWindowAggregate(fc, name, call, &inner); err != nil {
			return nil, err
		}
	} else {
		if fc.AggStar || len(fc.Args) < kind.minArgs || len(fc.Args) > kind.maxArgs {
			return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", name, len(fc.Args)).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		if call.Args, err = b.bindWindowArgs(fc, name, &inner); err != nil {
			return nil, err
		}
		res = kind.result
		if res.OID == 0 {
			res = call.Args[0].Type()
		}
	}
	node := ec.windows.node(win)
	key := call.String()
	for _, existing := range node.Funcs {
		if existing.String() == key {
			return &ColRef{ID: existing.Out.ID, Name: existing.Out.Name, Typ: existing.Out.Type}, nil
		}
	}
	call.Out = b.newColumn(name, Column{Type: res, Nullable: true})
	if call.Agg != nil {
		call.Agg.Out = call.Out
	}
	node.Funcs = append(node.Funcs, call)
	return &ColRef{ID: call.Out.ID, Name: call.Out.Name, Typ: res}, nil
}

// node returns the Window node for definition w, adding w when it is new.
func (ws *windowState) node(w *Window) *Window {
	def := w.definition()
	for _, n := range ws.nodes {
		if n.definition() == def {
			return n
		}
	}
	ws.nodes = append(ws.nodes, w)
	return w
}

// bindWindowAggregate binds an aggregate used as a window function: its
// arguments as a grouped aggregate's, but read from the window's rows,
// and its FILTER.
func (b *Binder) bindWindowAggregate(fc *pg_query.FuncCall, name string, call *WindowCall, ec *exprCtx) (types.T, error) {
	agg, _ := functions.LookupAggregate(name)
	call.Agg = &AggCall{Func: agg}
	res, err := b.bindAggArgs(fc, name, call.Agg, ec, func(n *pg_query.Node) (Expr, error) {
		arg, err := b.bindExpr(n, ec)
		if err != nil || !isUnknown(arg) {
			return arg, err
		}
		return b.cast(arg, types.Text, fc.Location)
	})
	if err != nil {
		return types.T{}, err
	}
	if fc.AggFilter == nil {
		return res, nil
	}
	if containsAggregate(fc.AggFilter) {
		return types.T{}, b.errAt(fc.Location, pgerror.GroupingError, "aggregate functions are not allowed in FILTER")
	}
	fctx := *ec
	fctx.clause = "FILTER"
	f, err := b.bindExpr(fc.AggFilter, &fctx)
	if err != nil {
		return types.T{}, err
	}
	if call.Agg.Filter, err = b.requireBool(f, fc.Location, "FILTER"); err != nil {
		return types.T{}, err
	}
	return res, nil
}

// bindWindowArgs binds a window-only function's arguments: the value
// (lag's default is brought to a common type with it), then integer
// offsets and counts.
func (b *Binder) bindWindowArgs(fc *pg_query.FuncCall, name string, ec *exprCtx) ([]Expr, error) {
	args := make([]Expr, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	intArg := func(i int) error {
		if !implicitlyCoercible(args[i].Type(), types.Int4) {
			return b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with argument of type %s does not exist", name, args[i].Type().Name()).
				WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
		}
		e, err := b.coerce(args[i], types.Int4, fc.Location)
		if err != nil {
			return err
		}
		args[i] = e
		return nil
	}
	switch name {
	case "ntile":
		return args, intArg(0)
	case "nth_value":
		if err := intArg(1); err != nil {
			return nil, err
		}
	case "lag", "lead":
		if len(args) >= 2 {
			if err := intArg(1); err != nil {
				return nil, err
			}
		}
		if len(args) == 3 {
			t, ok := commonType(args[0].Type(), args[2].Type())
			if !ok {
				return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s, integer, %s) does not exist", name, args[0].Type().Name(), args[2].Type().Name()).
					WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
			}
			for _, i := range []int{0, 2} {
				e, err := b.coerce(args[i], t, fc.Location)
				if err != nil {
					return nil, err
				}
				args[i] = e
			}
			if !arrow.TypeEqual(args[0].Type().Arrow(), args[2].Type().Arrow()) {
				// Numerics of different scales: PostgreSQL keeps each
				// value's scale, which one column cannot.
				return nil, pgerror.Unsupported("%s with a default of a different numeric scale is not supported yet", name)
			}
		}
	}
	if len(args) > 0 && isUnknown(args[0]) {
		// first_value('a') is polymorphic over an unknown type, as in
		// PostgreSQL.
		return nil, b.errAt(fc.Location, pgerror.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	return args, nil
}

// bindWindowDef binds a window's PARTITION BY, ORDER BY and frame.
func (b *Binder) bindWindowDef(wd *pg_query.WindowDef, ec *exprCtx) (*Window, error) {
	w := &Window{}
	key := func(n *pg_query.Node) (Expr, error) {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		if isUnknown(e) {
			return b.cast(e, types.Text, 0)
		}
		return e, nil
	}
	for _, n := range wd.PartitionClause {
		e, err := key(n)
		if err != nil {
			return nil, err
		}
		w.PartitionBy = append(w.PartitionBy, e)
	}
	for _, n := range wd.OrderClause {
		sb := n.GetSortBy()
		if sb == nil {
			return nil, b.unsupportedNode(n)
		}
		if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
			return nil, pgerror.Unsupported("ORDER BY ... USING is not supported yet")
		}
		k := sortKeyOf(sb)
		e, err := key(sb.Node)
		if err != nil {
			return nil, err
		}
		k.Expr = e
		w.OrderBy = append(w.OrderBy, k)
	}
	frame, err := b.bindFrame(wd, w.OrderBy)
	if err != nil {
		return nil, err
	}
	w.Frame = frame
	return w, nil
}

func (b *Binder) bindFrame(wd *pg_query.WindowDef, orderBy []SortKey) (WindowFrame, error) {
	opts := wd.FrameOptions
	f := WindowFrame{Mode: RangeFrame, Start: FrameBound{Kind: UnboundedPreceding}, End: FrameBound{Kind: CurrentRow}}
	if opts&frameNonDefault == 0 {
		return f, nil
	}
	switch {
	case opts&frameGroups != 0:
		if len(orderBy) == 0 {
			return f, b.errAt(wd.Location, windowingError, "GROUPS mode requires an ORDER BY clause")
		}
		f.Mode = GroupsFrame
	case opts&frameRows != 0:
		f.Mode = RowsFrame
	}
	switch {
	case opts&frameExcludeCurrentRow != 0:
		f.Exclude = ExcludeCurrentRow
	case opts&frameExcludeGroup != 0:
		f.Exclude = ExcludeGroup
	case opts&frameExcludeTies != 0:
		f.Exclude = ExcludeTies
	}
	switch {
	case opts&frameStartUnboundedPrec != 0:
		f.Start.Kind = UnboundedPreceding
	case opts&frameStartCurrentRow != 0:
		f.Start.Kind = CurrentRow
	case opts&frameStartOffsetPreceding != 0:
		f.Start.Kind = OffsetPreceding
	case opts&frameStartOffsetFollowing != 0:
		f.Start.Kind = OffsetFollowing
	default:
		return f, pgerror.Unsupported("frame start is not supported")
	}
	switch {
	case opts&frameEndUnboundedFollow != 0:
		f.End.Kind = UnboundedFollowing
	case opts&frameEndCurrentRow != 0:
		f.End.Kind = CurrentRow
	case opts&frameEndOffsetPreceding != 0:
		f.End.Kind = OffsetPreceding
	case opts&frameEndOffsetFollowing != 0:
		f.End.Kind = OffsetFollowing
	default:
		return f, pgerror.Unsupported("frame end is not supported")
	}
	hasOffset := f.Start.Kind == OffsetPreceding || f.Start.Kind == OffsetFollowing ||
		f.End.Kind == OffsetPreceding || f.End.Kind == OffsetFollowing
	offsetType, keyType := types.Int8, types.Int8
	if hasOffset && f.Mode == RangeFrame {
		if len(orderBy) != 1 {
			return f, b.errAt(wd.Location, windowingError, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
		}
		// The offset is measured in the ORDER BY key's units, as
		// PostgreSQL's in_range functions do: an interval for dates,
		// times and timestamps.
		keyType = orderBy[0].Expr.Type()
		switch keyType.Family() {
		case types.FamilyInt:
		case types.FamilyFloat:
			offsetType = types.Float8
		case types.FamilyNumeric:
			offsetType = types.T{OID: types.OIDNumeric}
		case types.FamilyDate, types.FamilyTimestamp, types.FamilyTime, types.FamilyInterval:
			offsetType = types.Interval
		default:
			return f, pgerror.Unsupported("RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", keyType.Name())
		}
	}
	mode := f.Mode.String()
	var err error
	for _, bd := range []struct {
		bound *FrameBound
		node  *pg_query.Node
	}{{&f.Start, wd.StartOffset}, {&f.End, wd.EndOffset}} {
		if bd.bound.Kind != OffsetPreceding && bd.bound.Kind != OffsetFollowing {
			continue
		}
		if bd.bound.Offset, err = b.bindFrameOffset(bd.node, mode, offsetType, keyType); err != nil {
			return f, err
		}
	}
	return f, nil
}

// bindFrameOffset binds a frame offset: a constant of type to.
func (b *Binder) bindFrameOffset(n *pg_query.Node, mode string, to, keyType types.T) (Expr, error) {
	if n == nil {
		return nil, pgerror.New(pgerror.SyntaxError, "missing frame offset")
	}
	e, err := b.bindExpr(n, &exprCtx{scope: &scope{}, clause: "window frame offset"})
	if err != nil {
		if pe, ok := err.(*pgerror.Error); ok && (pe.Code == pgerror.UndefinedColumn || pe.Code == pgerror.UndefinedTable) {
			return nil, pgerror.New("42P10", "argument of %s must not contain variables", mode)
		}
		return nil, err
	}
	if containsWindow(n) || containsAggregate(n) {
		return nil, pgerror.New(pgerror.GroupingError, "argument of %s must not contain aggregate or window functions", mode)
	}
	if mode != "RANGE" && e.Type().IsNumeric() {
		// ROWS and GROUPS take their offset by assignment, as PostgreSQL
		// does: 1.5 rounds to 2.
		return b.coerce(e, to, 0)
	}
	if !implicitlyCoercible(e.Type(), to) {
		if mode != "RANGE" {
			return nil, pgerror.New(pgerror.DatatypeMismatch, "argument of %s must be type bigint, not type %s", mode, e.Type().Name())
		}
		return nil, pgerror.Unsupported("RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s", keyType.Name(), e.Type().Name()).
			WithHint("Cast the offset value to an appropriate type.")
	}
	return b.coerce(e, to, 0)
}

// implicitlyCoercible reports whether PostgreSQL converts from to to
// without an explicit cast, for the numeric types window arguments take.
func implicitlyCoercible(from, to types.T) bool {
	if from.OID == types.OIDUnknown || from.OID == to.OID {
		return true
	}
	switch to.Family() {
	case types.FamilyInt:
		return from.Family() == types.FamilyInt && intRank(from) <= intRank(to)
	case types.FamilyNumeric:
		return from.Family() == types.FamilyInt
	case types.FamilyFloat:
		return from.Family() == types.FamilyInt || from.Family() == types.FamilyNumeric || from.OID == types.OIDFloat4
	}
	return false
}
