package planner

import (
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// exprCtx is where an expression is bound.
type exprCtx struct {
	scope *scope
	// group is set when the query aggregates: column references must then
	// match a GROUP BY expression or sit inside an aggregate.
	group *groupState
	// clause names the clause for error messages ("WHERE").
	clause string
	// srfs collects set-returning function calls where they are allowed
	// (the select list); nil elsewhere.
	srfs *[]*SRFCall
	// windows collects window function calls where they are allowed (the
	// select list and ORDER BY); nil elsewhere.
	windows *windowState
}

// groupState collects the grouping of a query while its clauses are bound.
type groupState struct {
	input  *scope
	groups []Expr
	cols   []Column
	aggs   []*AggCall
	// sets are the grouping sets (indexes into groups), nil for a plain
	// GROUP BY; setCol is the Aggregate's column naming each row's set.
	sets   [][]int
	setCol Column
}

func (b *Binder) bindExpr(n *pg_query.Node, ec *exprCtx) (Expr, error) {
	if n == nil {
		return nil, pgerror.New(pgerror.SyntaxError, "missing expression")
	}
	if ec.group != nil && !containsAggregate(n) && !containsWindow(n) {
		// A sub-expression without aggregates is either a grouping key or
		// built from grouping keys.
		plain, err := b.bindExpr(n, &exprCtx{scope: ec.group.input, clause: ec.clause})
		if err != nil {
			return nil, err
		}
		if g := ec.group.match(plain); g != nil {
			return g, nil
		}
		if _, outer := plain.(*OuterRef); outer {
			// An enclosing query's column is a constant for this one.
			return plain, nil
		}
		if cr := n.GetColumnRef(); cr != nil {
			col := plain.(*ColRef)
			return nil, b.errAt(cr.Location, pgerror.GroupingError,
				"column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function", qualifierOf(ec.group.input, col.ID), col.Name)
		}
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_ColumnRef:
		return b.bindColumnRef(x.ColumnRef, ec)
	case *pg_query.Node_AConst:
		return b.bindConst(x.AConst)
	case *pg_query.Node_ParamRef:
		return b.bindParam(x.ParamRef)
	case *pg_query.Node_SqlvalueFunction:
		return b.bindSQLValueFunction(x.SqlvalueFunction)
	case *pg_query.Node_CaseExpr:
		return b.bindCase(x.CaseExpr, ec)
	case *pg_query.Node_CoalesceExpr:
		return b.bindCoalesce(x.CoalesceExpr, ec)
	case *pg_query.Node_SubLink:
		e, err := b.bindSubLink(x.SubLink, ec)
		if err != nil || ec.group == nil {
			return e, err
		}
		return b.readOuterFromGroups(e, ec.group, x.SubLink.Location)
	case *pg_query.Node_AArrayExpr:
		return b.bindArrayExpr(x.AArrayExpr, ec)
	case *pg_query.Node_GroupingFunc:
		return b.bindGroupingFunc(x.GroupingFunc, ec)
	case *pg_query.Node_AIndirection:
		return b.bindIndirection(x.AIndirection, ec)
	case *pg_query.Node_CollateClause:
		// Text compares bytewise (PostgreSQL's C collation); the default
		// and C collations are accepted, others refused.
		for _, n := range x.CollateClause.Collname {
			switch strings.ToLower(n.GetString_().GetSval()) {
			case "pg_catalog", "default", "c", "posix":
			default:
				return nil, pgerror.Unsupported("collation %s is not supported", n.GetString_().GetSval())
			}
		}
		return b.bindExpr(x.CollateClause.Arg, ec)
	case *pg_query.Node_TypeCast:
		to, err := typeFromName(x.TypeCast.TypeName)
		if err != nil {
			return nil, err
		}
		// A numeric literal cast to a float type is read as a float, so
		// 1e308::float8 works although decimal128 cannot hold 1e308.
		if c := x.TypeCast.Arg.GetAConst(); c != nil && c.GetFval() != nil && to.Family() == types.FamilyFloat {
			if f, err := strconv.ParseFloat(c.GetFval().Fval, 64); err == nil {
				return b.cast(&Const{Typ: types.Float8, Value: f}, to, x.TypeCast.Location)
			}
		}
		arg, err := b.bindExpr(x.TypeCast.Arg, ec)
		if err != nil {
			return nil, err
		}
		res, err := b.cast(arg, to, x.TypeCast.Location)
		// A literal the type's input function rejects is reported at the
		// literal, as PostgreSQL does; a cast that does not exist at the
		// cast.
		if c := x.TypeCast.Arg.GetAConst(); err != nil && c != nil && c.Location >= 0 {
			if pe, ok := err.(*pgerror.Error); ok && pe.Code != "42846" {
				return nil, pe.WithPosition(b.position(c.Location))
			}
		}
		return res, err
	case *pg_query.Node_AExpr:
		if x.AExpr.Kind == pg_query.A_Expr_Kind_AEXPR_SIMILAR {
			return b.bindSimilar(x.AExpr, ec)
		}
		return b.bindAExpr(x.AExpr, ec)
	case *pg_query.Node_MinMaxExpr:
		return b.bindMinMax(x.MinMaxExpr, ec)
	case *pg_query.Node_BooleanTest:
		return b.bindBooleanTest(x.BooleanTest, ec)
	case *pg_query.Node_BoolExpr:
		return b.bindBoolExpr(x.BoolExpr, ec)
	case *pg_query.Node_NullTest:
		if x.NullTest.Argisrow || isRow(x.NullTest.Arg) {
			return b.bindRowNullTest(x.NullTest, ec)
		}
		arg, err := b.bindExpr(x.NullTest.Arg, ec)
		if err != nil {
			return nil, err
		}
		return &IsNull{Arg: arg, Negated: x.NullTest.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL}, nil
	case *pg_query.Node_FuncCall:
		return b.bindFuncCall(x.FuncCall, ec)
	}
	return nil, b.unsupportedNode(n)
}

func qualifierOf(sc *scope, id ColumnID) string {
	for _, c := range sc.cols {
		if c.ID == id {
			return c.Qualifier
		}
	}
	return ""
}

func (g *groupState) match(e Expr) Expr {
	s := e.String()
	for i, ge := range g.groups {
		if ge.String() == s {
			c := g.cols[i]
			return &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
		}
	}
	if _, isConst := e.(*Const); isConst {
		return e
	}
	return nil
}

func (b *Binder) bindColumnRef(cr *pg_query.ColumnRef, ec *exprCtx) (Expr, error) {
	var parts []string
	for _, f := range cr.Fields {
		if f.GetAStar() != nil {
			return nil, b.errAt(cr.Location, pgerror.FeatureNotSupported, "* is not allowed here")
		}
		s := f.GetString_()
		if s == nil {
			return nil, b.unsupportedNode(f)
		}
		parts = append(parts, s.Sval)
	}
	var qualifier, name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		qualifier, name = parts[0], parts[1]
	case 3, 4:
		// schema.table.column (or catalog.schema.table.column): the table
		// part qualifies, as a FROM item's name is unique in a query.
		qualifier, name = parts[len(parts)-2], parts[len(parts)-1]
	default:
		return nil, b.errAt(cr.Location, pgerror.SyntaxError, "improper qualified name (too many dotted names): %s", strings.Join(parts, "."))
	}
	if ec.group != nil {
		// Reached only for a column inside an aggregate's argument, bound
		// against the aggregate's input.
		return nil, pgerror.New(pgerror.InternalError, "column reference bound in grouped context")
	}
	c, isOuter, err := b.resolveRef(ec.scope, qualifier, name, cr.Location)
	if err != nil {
		return nil, err
	}
	if isOuter {
		return &OuterRef{ID: c.ID, Name: c.Name, Typ: c.Type}, nil
	}
	return &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, nil
}

func (b *Binder) bindConst(c *pg_query.A_Const) (Expr, error) {
	if c.Isnull {
		return &Const{Typ: types.Unknown}, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return &Const{Typ: types.Int4, Value: int64(v.Ival.Ival)}, nil
	case *pg_query.A_Const_Fval:
		s := v.Fval.Fval
		if !strings.ContainsAny(s, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				// The parser reads -2147483648 as a negated float
				// constant; like PostgreSQL's make_const, a value that
				// fits integer is one.
				if i == int64(int32(i)) {
					return &Const{Typ: types.Int4, Value: i}, nil
				}
				return &Const{Typ: types.Int8, Value: i}, nil
			}
		}
		n, scale, err := types.ParseNumericLiteral(s)
		if pgerror.Code(err) == pgerror.NumericValueOutOfRange {
			// Beyond decimal128's 38 digits the literal is a general
			// numeric, exact as PostgreSQL's.
			d, gerr := types.ParseNumeric(s)
			if gerr != nil {
				return nil, gerr
			}
			return &Const{Typ: types.NumericGeneral(min(types.NumericDisplayScale(d), types.MaxNumericPrecision)), Value: d}, nil
		}
		if err != nil {
			return nil, err
		}
		return &Const{Typ: types.T{OID: types.OIDNumeric, Scale: scale}, Value: n}, nil
	case *pg_query.A_Const_Sval:
		return &Const{Typ: types.Unknown, Value: v.Sval.Sval}, nil
	case *pg_query.A_Const_Boolval:
		return &Const{Typ: types.Bool, Value: v.Boolval.Boolval}, nil
	}
	return nil, pgerror.Unsupported("bit string constants are not supported yet")
}

// unconstrainedScale is the scale a value keeps when cast to numeric
// without a typmod: a numeric's own, a string literal's written scale, 0
// for integers.
func unconstrainedScale(e Expr) int32 {
	t := e.Type()
	switch t.Family() {
	case types.FamilyNumeric:
		return t.Scale
	case types.FamilyFloat:
		return functions.AvgNumericScale
	}
	if c, ok := e.(*Const); ok {
		if s, ok := c.Value.(string); ok {
			if _, scale, err := types.ParseNumericLiteral(strings.TrimSpace(s)); err == nil {
				return scale
			}
		}
	}
	return 0
}

func isParam(e Expr) bool {
	_, ok := e.(*Param)
	return ok
}

func (b *Binder) bindParam(p *pg_query.ParamRef) (Expr, error) {
	n := int(p.Number)
	if b.params == nil || n < 1 || (!b.params.preparing() && n > len(b.params.Types)) || n > 65535 {
		return nil, b.errAt(p.Location, pgerror.UndefinedParameter, "there is no parameter $%d", n)
	}
	if b.params.preparing() {
		for len(b.params.Types) < n {
			b.params.Types = append(b.params.Types, types.Unknown)
		}
		return &Param{Index: n - 1, Typ: b.params.Types[n-1]}, nil
	}
	return &Const{Typ: b.params.Types[n-1], Value: b.params.Values[n-1]}, nil
}

// regIO binds a reg type's input (text to oid) or output (oid to text)
// function, which the session answers from the catalog.
func (b *Binder) regIO(e Expr, regType types.T, input bool, loc int32) (Expr, error) {
	if b.session == nil {
		return nil, pgerror.Unsupported("type %s is not available here", regType.Name())
	}
	name := regType.Name() + "out"
	argType, result := regType, types.Text
	if input {
		name = regType.Name() + "in"
		argType, result = types.Text, regType
	}
	f, ok, err := b.session.Function(name, []types.T{argType})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, b.errAt(loc, pgerror.FeatureNotSupported, "type %s is not supported yet", regType.Name())
	}
	if e, err = b.coerce(e, argType, loc); err != nil {
		return nil, err
	}
	return &Func{Name: name, Args: []Expr{e}, Typ: result, leakproof: f.Leakproof, Row: f.Eval}, nil
}

// presentable converts a value of a reg type to its name, as PostgreSQL
// prints it; other values are returned as they are.
func (b *Binder) presentable(e Expr) (Expr, error) {
	if e.Type().IsRegType() {
		return b.regIO(e, e.Type(), false, 0)
	}
	if regArray(e.Type()) {
		return b.regArrayOut(e)
	}
	return e, nil
}

// regArray reports an array of a reg type (regtype[]).
func regArray(t types.T) bool {
	elem, ok := t.Elem()
	return ok && t.Family() == types.FamilyArray && elem.IsRegType()
}

// regArrayOut converts an array of a reg type to the text array of its
// elements' names, as PostgreSQL prints one.
func (b *Binder) regArrayOut(e Expr) (Expr, error) {
	elem, _ := e.Type().Elem()
	if b.session == nil {
		return nil, pgerror.Unsupported("type %s is not available here", elem.Name())
	}
	name := elem.Name() + "out"
	f, ok, err := b.session.Function(name, []types.T{elem})
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, pgerror.Unsupported("type %s is not supported yet", elem.Name())
	}
	out := func(args []any) (any, error) {
		list, ok := args[0].([]any)
		if !ok {
			return nil, nil
		}
		names := make([]any, len(list))
		for i, v := range list {
			if v == nil {
				continue
			}
			n, err := f.Eval([]any{v})
			if err != nil {
				return nil, err
			}
			names[i] = n
		}
		return names, nil
	}
	return &Func{Name: "array_" + name, Args: []Expr{e}, Typ: types.TextArray, leakproof: f.Leakproof, Row: out}, nil
}

// cast converts e to t explicitly, folding constants.
func (b *Binder) cast(e Expr, to types.T, loc int32) (Expr, error) {
	if to.IsRegType() && (e.Type().Family() == types.FamilyString || (isUnknown(e) && e.Type().OID == types.OIDUnknown && !isParam(e))) {
		return b.regIO(e, to, true, loc)
	}
	if e.Type().IsRegType() && to.Family() == types.FamilyString {
		return b.regIO(e, e.Type(), false, loc)
	}
	if regArray(e.Type()) && (to.Family() == types.FamilyString || to == types.TextArray) {
		out, err := b.regArrayOut(e)
		if err != nil {
			return nil, err
		}
		return b.cast(out, to, loc)
	}
	if jsonbScalarCast(e.Type(), to) {
		return b.jsonbCast(e, to, loc)
	}
	if to.OID == types.OIDNumeric && to.Precision == 0 {
		// numeric without a typmod keeps the value's scale.
		if e.Type().IsGeneralNumeric() {
			return e, nil
		}
		to.Scale = unconstrainedScale(e)
		if c, ok := e.(*Const); ok && c.Typ.Family() == types.FamilyFloat {
			if f, ok := c.Value.(float64); ok {
				if n, scale, ok := floatConstToNumeric(f, c.Typ); ok {
					return &Const{Typ: types.T{OID: types.OIDNumeric, Scale: scale}, Value: n}, nil
				}
			}
		}
		if generalNumericInput(e) {
			to = types.NumericGeneral(to.Scale)
		}
	}
	if p, ok := e.(*Param); ok && p.Typ.OID == types.OIDUnknown {
		// The parameter's type is inferred from its first use.
		b.params.Types[p.Index] = to
		return &Param{Index: p.Index, Typ: to}, nil
	}
	if c, ok := e.(*Const); ok {
		v, err := convertConstIn(c.Value, c.Typ, to, b.sessionZone())
		if to.OID == types.OIDInterval {
			// The field mask only shaped the literal's reading.
			to = types.Interval
		}
		if err != nil {
			if pe, ok := err.(*pgerror.Error); ok && pe.Position == 0 {
				return nil, pe.WithPosition(b.position(loc))
			}
			return nil, err
		}
		return &Const{Typ: to, Value: v}, nil
	}
	if to.OID == types.OIDInterval {
		to = types.Interval
	}
	if e.Type() == to {
		return e, nil
	}
	if isVectorToArray(e.Type(), to) {
		return vectorToArray(e, to), nil
	}
	if !castSupported(e.Type(), to) {
		return nil, b.errAt(loc, "42846", "cannot cast type %s to %s", e.Type().Name(), to.Name())
	}
	return &Cast{Arg: e, To: to}, nil
}

// coerce converts e to t implicitly (for an operator's argument).
func (b *Binder) coerce(e Expr, to types.T, loc int32) (Expr, error) {
	if e.Type() == to {
		return e, nil
	}
	return b.cast(e, to, loc)
}

// castSupported lists the run-time conversions planner/exec implements.
func castSupported(from, to types.T) bool {
	ff, tf := from.Family(), to.Family()
	switch {
	case tf == types.FamilyString:
		// Every type has a text output function.
		return ff != types.FamilyUnknown
	case ff == types.FamilyString:
		// And an input function: text converts to it, failing on bad
		// input (an I/O conversion cast).
		switch tf {
		case types.FamilyBool, types.FamilyInt, types.FamilyFloat, types.FamilyNumeric, types.FamilyDate, types.FamilyTimestamp, types.FamilyOID,
			types.FamilyUUID, types.FamilyBytes, types.FamilyJSON, types.FamilyTime, types.FamilyInterval:
			return true
		}
		return false
	case ff == types.FamilyNumeric && tf == types.FamilyInt:
		return true
	case ff == types.FamilyInt && (tf == types.FamilyInt || tf == types.FamilyFloat || tf == types.FamilyNumeric),
		from.OID == types.OIDInt4 && tf == types.FamilyBool, ff == types.FamilyBool && to.OID == types.OIDInt4:
		return true
	case ff == types.FamilyFloat && (tf == types.FamilyFloat || tf == types.FamilyInt || tf == types.FamilyNumeric):
		return true
	case ff == types.FamilyNumeric && (tf == types.FamilyNumeric || tf == types.FamilyFloat):
		return true
	case ff == types.FamilyDate && tf == types.FamilyTimestamp,
		ff == types.FamilyTimestamp && (tf == types.FamilyDate || tf == types.FamilyTime || tf == types.FamilyTimestamp),
		ff == types.FamilyTime && tf == types.FamilyInterval,
		ff == types.FamilyInterval && tf == types.FamilyTime:
		return true
	case ff == types.FamilyJSON && tf == types.FamilyJSON:
		return true
	case jsonbScalarCast(from, to):
		return true
	case ff == types.FamilyArray && tf == types.FamilyArray:
		// Element by element, when the elements convert.
		fe, ok1 := from.Elem()
		te, ok2 := to.Elem()
		return ok1 && ok2 && from.OID != types.OIDInt2Vector && from.OID != types.OIDOidVector && castSupported(fe, te)
	case ff == types.FamilyInt && tf == types.FamilyOID, ff == types.FamilyOID && tf == types.FamilyOID,
		ff == types.FamilyOID && tf == types.FamilyInt && to.OID == types.OIDInt8:
		return true
	}
	return false
}

func (b *Binder) bindAExpr(a *pg_query.A_Expr, ec *exprCtx) (Expr, error) {
	if e, ok, err := b.bindRowAExpr(a, ec); ok {
		return e, err
	}
	if a.Kind != pg_query.A_Expr_Kind_AEXPR_OP {
		return b.bindSpecialAExpr(a, ec)
	}
	// OPERATOR(pg_catalog.~) is the built-in operator.
	if len(a.Name) == 2 && a.Name[0].GetString_().GetSval() == "pg_catalog" {
		a = &pg_query.A_Expr{Kind: a.Kind, Name: a.Name[1:], Lexpr: a.Lexpr, Rexpr: a.Rexpr, Location: a.Location}
	}
	if len(a.Name) != 1 {
		return nil, pgerror.Unsupported("qualified operators are not supported yet")
	}
	opName := a.Name[0].GetString_().GetSval()
	if a.Lexpr == nil {
		arg, err := b.bindExpr(a.Rexpr, ec)
		if err != nil {
			return nil, err
		}
		switch opName {
		case "-":
			if c, ok := arg.(*Const); ok {
				return negateConst(c)
			}
			if !arg.Type().IsNumeric() && arg.Type().Family() != types.FamilyInterval {
				return nil, b.errAt(a.Location, pgerror.UndefinedFunction, "operator does not exist: - %s", arg.Type().Name())
			}
			return &Negate{Arg: arg}, nil
		case "+":
			return arg, nil
		}
		if e, ok, err := b.operatorFunction(opName, []Expr{arg}, a.Location); ok {
			return e, err
		}
		return nil, b.errAt(a.Location, pgerror.UndefinedFunction, "operator does not exist: %s %s", opName, arg.Type().Name())
	}
	l, r, err := b.bindOperands(a, ec)
	if err != nil {
		return nil, err
	}
	if _, _, ok := functions.LookupPatternOp(opName); ok {
		return b.pattern(opName, l, r, a.Location)
	}
	return b.binary(opName, l, r, a.Location)
}

func negateConst(c *Const) (Expr, error) {
	switch v := c.Value.(type) {
	case nil:
		return c, nil
	case int64:
		if v == math.MinInt64 {
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "bigint out of range")
		}
		return &Const{Typ: c.Typ, Value: -v}, nil
	case float64:
		return &Const{Typ: c.Typ, Value: -v}, nil
	case decimal128.Num:
		return &Const{Typ: c.Typ, Value: v.Negate()}, nil
	case *apd.Decimal:
		n := new(apd.Decimal).Set(v)
		if n.Form != apd.NaN && !(n.Form == apd.Finite && n.Coeff.Sign() == 0) {
			n.Negative = !n.Negative
		}
		return &Const{Typ: c.Typ, Value: n}, nil
	case types.IntervalValue:
		n, err := types.NegateInterval(v)
		if err != nil {
			return nil, err
		}
		return &Const{Typ: c.Typ, Value: n}, nil
	}
	return nil, pgerror.New(pgerror.UndefinedFunction, "operator does not exist: - %s", c.Typ.Name())
}

// binary resolves an operator over two bound arguments.
func (b *Binder) binary(opName string, l, r Expr, loc int32) (Expr, error) {
	if e, ok, err := b.jsonOperator(opName, l, r, loc); ok {
		return e, err
	}
	if opName == "^" {
		// Exponentiation: power() over float8 or numeric, resolved as
		// PostgreSQL resolves its two ^ operators.
		if want, res, ok := functions.PowerArgs([]types.T{l.Type(), r.Type()}); ok {
			var err error
			if l, err = b.coerce(l, want[0], loc); err != nil {
				return nil, err
			}
			if r, err = b.coerce(r, want[1], loc); err != nil {
				return nil, err
			}
			if res.OID == types.OIDNumeric {
				res = types.NumericGeneral(res.Scale)
			}
			return &Func{Name: "power", Args: []Expr{l, r}, Typ: res}, nil
		}
	}
	if e, ok, err := b.arrayOperator(opName, l, r, loc); ok {
		return e, err
	}
	if e, ok, err := b.operatorFunction(opName, []Expr{l, r}, loc); ok {
		return e, err
	}
	if e, ok, err := b.patternComparison(opName, l, r, loc); ok {
		return e, err
	}
	op, ok := functions.LookupOperator(opName)
	if !ok {
		if isJSONOperator(opName) && (l.Type().Family() == types.FamilyJSON || r.Type().Family() == types.FamilyJSON) {
			return nil, b.errAt(loc, pgerror.FeatureNotSupported, "operator %s on %s is not supported yet", opName, l.Type().Name())
		}
		return nil, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Name(), opName, r.Type().Name())
	}
	noOp := func() error {
		if isJSONOperator(opName) && (l.Type().Family() == types.FamilyJSON || r.Type().Family() == types.FamilyJSON) {
			return b.errAt(loc, pgerror.FeatureNotSupported, "operator %s on %s is not supported yet", opName, l.Type().Name())
		}
		return b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Name(), opName, r.Type().Name()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	switch op.Kind {
	case functions.Comparison:
		ct, ok := commonType(l.Type(), r.Type())
		if !ok {
			return nil, noOp()
		}
		return b.typedBinary(op, l, r, ct, types.Bool, loc)
	case functions.Arithmetic:
		if lt, rt, res, ok := datetimeOperator(op.Name, l.Type(), r.Type()); ok {
			return b.datetimeBinary(op, l, r, lt, rt, res, loc)
		}
		ct, ok := commonType(l.Type(), r.Type())
		if !ok || !ct.IsNumeric() {
			return nil, noOp()
		}
		if ct.OID == types.OIDInt2 {
			ct = types.Int2
		}
		res := ct
		if ct.OID == types.OIDNumeric {
			ls, rs := numericScale(l.Type()), numericScale(r.Type())
			switch op.Name {
			case "*":
				res.Scale = min(ls+rs, types.MaxNumericPrecision)
				if lp, rp := l.Type().Precision, r.Type().Precision; !ct.General && lp > 0 && rp > 0 && lp+rp > types.MaxNumericPrecision {
					// The product of two declared precisions may pass the
					// fixed representation's digits; PostgreSQL's numeric
					// has room for it, and so does the general one.
					res = types.NumericGeneral(res.Scale)
				}
			case "/":
				// select_div_scale picks a quotient's scale per value.
				res = types.NumericGeneral(max(functions.AvgNumericScale, ls, rs))
			}
		}
		e, err := b.typedBinary(op, l, r, ct, res, loc)
		if bin, ok := e.(*BinOp); ok && op.Name == "/" && res.OID == types.OIDNumeric {
			lc, lok := bin.L.(*Const)
			rc, rok := bin.R.(*Const)
			if lok && rok {
				if q, ok := foldNumericDivision(lc, rc); ok {
					return q, nil
				}
			}
		}
		return e, err
	case functions.Concat:
		if e, ok, err := b.arrayConcat(l, r, loc); ok {
			return e, err
		}
		if e, ok, err := b.byteaConcat(l, r, loc); ok {
			return e, err
		}
		// text || anynonarray: the other side is converted to text, but
		// at least one side must be a string (or an untyped literal).
		lt, rt := l.Type(), r.Type()
		isText := func(t types.T) bool { return t.Family() == types.FamilyString || t.OID == types.OIDUnknown }
		if !isText(lt) && !isText(rt) {
			return nil, noOp()
		}
		return b.typedBinary(op, l, r, types.Text, types.Text, loc)
	}
	return nil, noOp()
}

func (b *Binder) typedBinary(op functions.Operator, l, r Expr, argType, result types.T, loc int32) (Expr, error) {
	var err error
	// Numeric arguments keep their own scales: the kernels align them.
	if argType.OID == types.OIDNumeric {
		// A literal is read as numeric without the other side's typmod,
		// keeping its own scale ('1.005', 'NaN'), as PostgreSQL's
		// numeric operators take it.
		unconstrained := types.T{OID: types.OIDNumeric, Scale: argType.Scale, General: argType.General}
		if isUnknown(l) {
			if l, err = b.coerce(l, unconstrained, loc); err != nil {
				return nil, err
			}
		}
		if isUnknown(r) {
			if r, err = b.coerce(r, unconstrained, loc); err != nil {
				return nil, err
			}
		}
		if l.Type().OID != types.OIDNumeric {
			if l, err = b.coerce(l, types.T{OID: types.OIDNumeric}, loc); err != nil {
				return nil, err
			}
		}
		if r.Type().OID != types.OIDNumeric {
			if r, err = b.coerce(r, types.T{OID: types.OIDNumeric}, loc); err != nil {
				return nil, err
			}
		}
	} else {
		if l, err = b.coerce(l, argType, loc); err != nil {
			return nil, err
		}
		if r, err = b.coerce(r, argType, loc); err != nil {
			return nil, err
		}
	}
	return &BinOp{Op: op, L: l, R: r, Typ: result}, nil
}

func (b *Binder) and(l, r Expr) Expr {
	op, _ := functions.LookupOperator("AND")
	return &BinOp{Op: op, L: l, R: r, Typ: types.Bool}
}

func (b *Binder) bindBoolExpr(be *pg_query.BoolExpr, ec *exprCtx) (Expr, error) {
	args := make([]Expr, len(be.Args))
	for i, a := range be.Args {
		e, err := b.bindExpr(a, ec)
		if err != nil {
			return nil, err
		}
		if e, err = b.requireBool(e, be.Location, ec.clause); err != nil {
			return nil, err
		}
		args[i] = e
	}
	switch be.Boolop {
	case pg_query.BoolExprType_NOT_EXPR:
		return &Not{Arg: args[0]}, nil
	case pg_query.BoolExprType_AND_EXPR, pg_query.BoolExprType_OR_EXPR:
		name := "AND"
		if be.Boolop == pg_query.BoolExprType_OR_EXPR {
			name = "OR"
		}
		op, _ := functions.LookupOperator(name)
		out := args[0]
		for _, a := range args[1:] {
			out = &BinOp{Op: op, L: out, R: a, Typ: types.Bool}
		}
		return out, nil
	}
	return nil, pgerror.Unsupported("boolean operator %s is not supported", be.Boolop)
}

// requireBool checks that e is boolean (an untyped literal is read as one).
func (b *Binder) requireBool(e Expr, loc int32, clause string) (Expr, error) {
	if e.Type().OID == types.OIDBool {
		return e, nil
	}
	if isUnknown(e) {
		return b.cast(e, types.Bool, loc)
	}
	if clause == "" {
		clause = "an expression"
	}
	return nil, b.errAt(loc, pgerror.DatatypeMismatch, "argument of %s must be type boolean, not type %s", clause, e.Type().Name())
}

func funcName(fc *pg_query.FuncCall) string {
	var parts []string
	for _, n := range fc.Funcname {
		parts = append(parts, n.GetString_().GetSval())
	}
	if len(parts) == 2 && parts[0] == "pg_catalog" {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

func containsAggregate(n *pg_query.Node) bool {
	found := false
	walkAST(n, func(fc *pg_query.FuncCall) {
		if _, ok := functions.LookupAggregate(funcName(fc)); (ok || fc == groupingCall) && fc.Over == nil {
			found = true
		}
	})
	return found
}

// bindAggArg binds one argument of a multi-argument aggregate in the
// aggregate's input scope; an unknown literal is text.
func (b *Binder) bindAggArg(fc *pg_query.FuncCall, n *pg_query.Node, ec *exprCtx) (Expr, error) {
	if containsAggregate(n) {
		return nil, b.errAt(fc.Location, pgerror.GroupingError, "aggregate function calls cannot be nested")
	}
	arg, err := b.bindExpr(n, &exprCtx{scope: ec.group.input, clause: "aggregate"})
	if err != nil {
		return nil, err
	}
	if isUnknown(arg) {
		return b.cast(arg, types.Text, fc.Location)
	}
	return arg, nil
}

// walkAST calls visit for every function call in the expression tree n.
func walkAST(n *pg_query.Node, visit func(*pg_query.FuncCall)) {
	if n == nil {
		return
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_FuncCall:
		visit(x.FuncCall)
		for _, a := range x.FuncCall.Args {
			walkAST(a, visit)
		}
		if over := x.FuncCall.Over; over != nil {
			for _, a := range over.PartitionClause {
				walkAST(a, visit)
			}
			for _, a := range over.OrderClause {
				walkAST(a, visit)
			}
		}
	case *pg_query.Node_AExpr:
		walkAST(x.AExpr.Lexpr, visit)
		walkAST(x.AExpr.Rexpr, visit)
	case *pg_query.Node_BoolExpr:
		for _, a := range x.BoolExpr.Args {
			walkAST(a, visit)
		}
	case *pg_query.Node_TypeCast:
		walkAST(x.TypeCast.Arg, visit)
	case *pg_query.Node_NullTest:
		walkAST(x.NullTest.Arg, visit)
	case *pg_query.Node_ResTarget:
		walkAST(x.ResTarget.Val, visit)
	case *pg_query.Node_SortBy:
		walkAST(x.SortBy.Node, visit)
	case *pg_query.Node_CaseExpr:
		walkAST(x.CaseExpr.Arg, visit)
		for _, a := range x.CaseExpr.Args {
			walkAST(a, visit)
		}
		walkAST(x.CaseExpr.Defresult, visit)
	case *pg_query.Node_CaseWhen:
		walkAST(x.CaseWhen.Expr, visit)
		walkAST(x.CaseWhen.Result, visit)
	case *pg_query.Node_CoalesceExpr:
		for _, a := range x.CoalesceExpr.Args {
			walkAST(a, visit)
		}
	case *pg_query.Node_CollateClause:
		walkAST(x.CollateClause.Arg, visit)
	case *pg_query.Node_AIndirection:
		// (array_agg(x))[1]: the call under a subscript or slice.
		walkAST(x.AIndirection.Arg, visit)
		for _, ind := range x.AIndirection.Indirection {
			if idx := ind.GetAIndices(); idx != nil {
				walkAST(idx.Lidx, visit)
				walkAST(idx.Uidx, visit)
			}
		}
	case *pg_query.Node_RowExpr:
		for _, a := range x.RowExpr.Args {
			walkAST(a, visit)
		}
	case *pg_query.Node_AArrayExpr:
		for _, a := range x.AArrayExpr.Elements {
			walkAST(a, visit)
		}
	case *pg_query.Node_NamedArgExpr:
		walkAST(x.NamedArgExpr.Arg, visit)
	case *pg_query.Node_SubLink:
		// Aggregates inside a subquery belong to it.
		walkAST(x.SubLink.Testexpr, visit)
	case *pg_query.Node_List:
		for _, a := range x.List.Items {
			walkAST(a, visit)
		}
	case *pg_query.Node_GroupingFunc:
		visit(groupingCall)
	}
}

func (b *Binder) bindFuncCall(fc *pg_query.FuncCall, ec *exprCtx) (Expr, error) {
	name := funcName(fc)
	if fc.Over != nil {
		return b.bindWindowCall(fc, name, ec)
	}
	if isSRF(name) {
		return b.bindSRF(fc, name, ec)
	}
	if lower := strings.ToLower(name); lower == "extract" || lower == "date_part" {
		return b.bindExtract(fc, lower, ec)
	}
	if strings.EqualFold(name, "pg_typeof") && len(fc.Args) == 1 && b.session != nil {
		return b.bindTypeof(fc, ec)
	}
	if strings.EqualFold(name, "age") && len(fc.Args) == 1 && b.session != nil {
		fc = b.ageSinceToday(fc)
	}
	if e, ok, err := b.bindSessionFunction(fc, name, ec); ok {
		return e, err
	}
	if strings.EqualFold(name, "overlaps") && fc.Over == nil {
		return b.bindOverlaps(fc, ec)
	}
	if lower := strings.ToLower(name); isArrayFunction(lower) && fc.Over == nil {
		return b.bindArrayFunction(fc, lower, ec)
	}
	if e, ok, err := b.composedFunction(fc, name, ec); ok {
		return e, err
	}
	agg, isAgg := functions.LookupAggregate(name)
	if sf, ok := functions.LookupScalar(name); ok && !isAgg {
		return b.bindScalar(fc, sf, ec)
	}
	if !isAgg {
		if e, ok, err := b.functionStyleCast(fc, name, ec); ok {
			return e, err
		}
	}
	if !isAgg && functions.IsPostgresFunction(name) {
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "function %s is not supported yet", name)
	}
	if !isAgg {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", name, b.argTypeNames(fc.Args, ec)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	return b.bindAggregateCall(fc, name, agg, ec)
}
