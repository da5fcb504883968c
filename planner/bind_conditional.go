package planner

import (
	"regexp"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// This file binds conditional expressions (CASE, COALESCE, NULLIF, IN,
// BETWEEN, IS DISTINCT FROM), pattern matching and scalar functions. The
// SQL-standard forms are rewritten into CASE and comparisons with
// PostgreSQL's NULL semantics, so exec needs one conditional operator.

// resultType is the common type of CASE / COALESCE branches. Untyped
// literals take the others' type, as PostgreSQL's select_common_type
// ignores them unless every branch is one ('a' in CASE ... THEN 1 ELSE
// 'a' is then read as an integer).
func (b *Binder) resultType(es []Expr, what string) (types.T, error) {
	t := types.Unknown
	for _, e := range es {
		if e == nil || isUnknown(e) {
			continue
		}
		if e.Type() == t {
			// One type throughout is its own common type, as in
			// PostgreSQL, even for a type without comparisons (json).
			continue
		}
		if t.OID == types.OIDUnknown && e.Type().OID == types.OIDBpchar && e.Type().Precision == 0 {
			// Unbounded character stays itself, padding kept, while
			// every branch is one.
			t = e.Type()
			continue
		}
		ct, ok := commonType(t, e.Type())
		if !ok {
			return types.T{}, pgerror.New(pgerror.DatatypeMismatch, "%s types %s and %s cannot be matched", what, t.Name(), e.Type().Name())
		}
		t = ct
	}
	if t.OID == types.OIDUnknown {
		t = types.Text
	}
	return numericBranchesType(es, t, what == "VALUES"), nil
}

func (b *Binder) newCase(whens []When, els Expr, what string) (Expr, error) {
	results := []Expr{els}
	for _, w := range whens {
		results = append(results, w.Result)
	}
	t, err := b.resultType(results, what)
	if err != nil {
		return nil, err
	}
	for i := range whens {
		if whens[i].Result, err = b.coerceResult(whens[i].Result, t); err != nil {
			return nil, err
		}
	}
	if els != nil {
		if els, err = b.coerceResult(els, t); err != nil {
			return nil, err
		}
	}
	return &Case{Whens: whens, Else: els, Typ: t}, nil
}

// coerceResult converts a branch result to the CASE type; numerics keep
// the widest scale. Every branch must come out at exactly that scale,
// even when the type has no typmod (where a plain cast keeps the value's
// own scale): the branches fill one column, and a column has one scale.
func (b *Binder) coerceResult(e Expr, t types.T) (Expr, error) {
	if e.Type() == t {
		return e, nil
	}
	if c, ok := e.(*Const); ok && c.Value == nil {
		// A NULL takes the column's type exactly (a numeric's scale too).
		return &Const{Typ: t}, nil
	}
	if t.OID != types.OIDNumeric || t.Precision != 0 || !e.Type().IsNumeric() || e.Type().Family() == types.FamilyFloat {
		return b.coerce(e, t, 0)
	}
	if c, ok := e.(*Const); ok {
		v, err := convertConst(c.Value, c.Typ, t)
		if err != nil {
			return nil, err
		}
		return &Const{Typ: t, Value: v}, nil
	}
	return &Cast{Arg: e, To: t}, nil
}

func (b *Binder) bindCase(c *pg_query.CaseExpr, ec *exprCtx) (Expr, error) {
	var arg Expr
	if c.Arg != nil {
		var err error
		if arg, err = b.bindExpr(c.Arg, ec); err != nil {
			return nil, err
		}
	}
	var whens []When
	for _, n := range c.Args {
		cw := n.GetCaseWhen()
		if cw == nil {
			return nil, b.unsupportedNode(n)
		}
		cond, err := b.bindExpr(cw.Expr, ec)
		if err != nil {
			return nil, err
		}
		if arg != nil {
			// CASE x WHEN v THEN ...: the condition is x = v.
			if cond, err = b.binary("=", arg, cond, cw.Location); err != nil {
				return nil, err
			}
		} else if cond, err = b.requireBool(cond, cw.Location, "CASE/WHEN"); err != nil {
			return nil, err
		}
		res, err := b.bindExpr(cw.Result, ec)
		if err != nil {
			return nil, err
		}
		whens = append(whens, When{Cond: cond, Result: res})
	}
	var els Expr
	if c.Defresult != nil {
		var err error
		if els, err = b.bindExpr(c.Defresult, ec); err != nil {
			return nil, err
		}
	}
	// newCase coerces the branches in place; the fold wants them as written.
	written := make([]Expr, len(whens))
	for i, w := range whens {
		written[i] = w.Result
	}
	e, err := b.newCase(whens, els, "CASE")
	if err != nil {
		return nil, err
	}
	return b.foldConstantCase(e, written, els), nil
}

// foldConstantCase picks the branch of a CASE whose conditions are all
// constants when it yields a numeric without typmod, so the value keeps
// its own scale as in PostgreSQL (CASE WHEN true THEN 1 ELSE 2.5 END is
// 1, not 1.0). written holds the WHEN results before coercion.
func (b *Binder) foldConstantCase(e Expr, written []Expr, els Expr) Expr {
	c, ok := e.(*Case)
	if !ok || !isUnconstrainedNumeric(c.Typ) {
		return e
	}
	chosen := els
	for i, w := range c.Whens {
		cond, ok := w.Cond.(*Const)
		if !ok {
			return e
		}
		if v, _ := cond.Value.(bool); v {
			chosen = written[i]
			break
		}
	}
	k, ok := chosen.(*Const)
	if !ok {
		return e
	}
	if own := b.ownScaleNumeric(k); own != nil {
		return own
	}
	return e
}

func (b *Binder) bindCoalesce(c *pg_query.CoalesceExpr, ec *exprCtx) (Expr, error) {
	args := make([]Expr, len(c.Args))
	for i, n := range c.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	var whens []When
	for _, a := range args[:len(args)-1] {
		whens = append(whens, When{Cond: &IsNull{Arg: a, Negated: true}, Result: a})
	}
	return b.newCase(whens, args[len(args)-1], "COALESCE")
}

// bindSpecialAExpr binds the A_Expr kinds other than a plain operator.
func (b *Binder) bindSpecialAExpr(a *pg_query.A_Expr, ec *exprCtx) (Expr, error) {
	opName := ""
	if len(a.Name) == 1 {
		opName = a.Name[0].GetString_().GetSval()
	}
	left := func() (Expr, error) { return b.bindExpr(a.Lexpr, ec) }
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_IN:
		l, err := left()
		if err != nil {
			return nil, err
		}
		list := a.Rexpr.GetList()
		if list == nil {
			return nil, b.unsupportedNode(a.Rexpr)
		}
		// x IN (a, b) is x = a OR x = b, with the same NULL behaviour.
		var out Expr
		for _, item := range list.Items {
			v, err := b.bindExpr(item, ec)
			if err != nil {
				return nil, err
			}
			eq, err := b.binary("=", l, v, a.Location)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = eq
			} else {
				out = b.or(out, eq)
			}
		}
		if opName == "<>" {
			return &Not{Arg: out}, nil
		}
		return out, nil
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		// x op ANY (ARRAY[a, b]) is x op a OR x op b; ALL uses AND. Arrays
		// held in columns are for later.
		arr := a.Rexpr.GetAArrayExpr()
		l, err := left()
		if err != nil {
			return nil, err
		}
		if arr == nil {
			return b.bindArrayCompare(opName, l, a, ec)
		}
		if op, ok := functions.LookupOperator(opName); !ok || op.Kind != functions.Comparison {
			return nil, b.errAt(a.Location, pgerror.WrongObjectType, "op ANY/ALL (array) requires operator to yield boolean")
		}
		if len(arr.Elements) == 0 {
			return &Const{Typ: types.Bool, Value: a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL}, nil
		}
		var out Expr
		for _, item := range arr.Elements {
			v, err := b.bindExpr(item, ec)
			if err != nil {
				return nil, err
			}
			cmp, err := b.binary(opName, l, v, a.Location)
			if err != nil {
				return nil, err
			}
			switch {
			case out == nil:
				out = cmp
			case a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL:
				out = b.and(out, cmp)
			default:
				out = b.or(out, cmp)
			}
		}
		return out, nil
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		l, err := left()
		if err != nil {
			return nil, err
		}
		bounds := a.Rexpr.GetList()
		lo, err := b.bindExpr(bounds.Items[0], ec)
		if err != nil {
			return nil, err
		}
		hi, err := b.bindExpr(bounds.Items[1], ec)
		if err != nil {
			return nil, err
		}
		between := func(lo, hi Expr) (Expr, error) {
			ge, err := b.binary(">=", l, lo, a.Location)
			if err != nil {
				return nil, err
			}
			le, err := b.binary("<=", l, hi, a.Location)
			if err != nil {
				return nil, err
			}
			return b.and(ge, le), nil
		}
		out, err := between(lo, hi)
		if err != nil {
			return nil, err
		}
		symmetric := a.Kind == pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM
		if symmetric {
			// BETWEEN SYMMETRIC takes the bounds in either order.
			swapped, err := between(hi, lo)
			if err != nil {
				return nil, err
			}
			out = b.or(out, swapped)
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
			return &Not{Arg: out}, nil
		}
		return out, nil
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, r, err := b.bindOperands(a, ec)
		if err != nil {
			return nil, err
		}
		ne, err := b.binary("<>", l, r, a.Location)
		if err != nil {
			return nil, err
		}
		// a IS DISTINCT FROM b: NULLs compare as values.
		distinct, err := b.newCase([]When{
			{Cond: &IsNull{Arg: l}, Result: &IsNull{Arg: r, Negated: true}},
			{Cond: &IsNull{Arg: r}, Result: &Const{Typ: types.Bool, Value: true}},
		}, ne, "CASE")
		if err != nil {
			return nil, err
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			return &Not{Arg: distinct}, nil
		}
		return distinct, nil
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := b.bindOperands(a, ec)
		if err != nil {
			return nil, err
		}
		eq, err := b.binary("=", l, r, a.Location)
		if err != nil {
			return nil, err
		}
		return b.newCase([]When{{Cond: eq, Result: &Const{Typ: l.Type()}}}, l, "NULLIF")
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		l, r, err := b.bindOperands(a, ec)
		if err != nil {
			return nil, err
		}
		return b.pattern(opName, l, r, a.Location)
	}
	return nil, pgerror.Unsupported("%s expressions are not supported yet", strings.TrimPrefix(a.Kind.String(), "AEXPR_"))
}

// bindOperands binds both sides of a binary A_Expr.
func (b *Binder) bindOperands(a *pg_query.A_Expr, ec *exprCtx) (Expr, Expr, error) {
	l, err := b.bindExpr(a.Lexpr, ec)
	if err != nil {
		return nil, nil, err
	}
	r, err := b.bindExpr(a.Rexpr, ec)
	if err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

func (b *Binder) or(l, r Expr) Expr {
	op, _ := functions.LookupOperator("OR")
	return &BinOp{Op: op, L: l, R: r, Typ: types.Bool}
}

// pattern binds LIKE, ILIKE and regular-expression matches. A constant
// regular expression is compiled here, so an invalid one is an error of
// the statement, never of a row.
func (b *Binder) pattern(op string, l, r Expr, loc int32) (Expr, error) {
	fn, negated, ok := functions.LookupPatternOp(op)
	if !ok {
		return nil, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Name(), op, r.Type().Name())
	}
	var err error
	if fn == "like" && (l.Type().Family() == types.FamilyBytes || r.Type().Family() == types.FamilyBytes) {
		return b.byteaLike(l, r, negated, loc)
	}
	for _, side := range []*Expr{&l, &r} {
		t := (*side).Type()
		if t.Family() != types.FamilyString && t.OID != types.OIDUnknown {
			return nil, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", l.Type().Name(), op, r.Type().Name())
		}
		if *side, err = b.coerce(*side, types.Text, loc); err != nil {
			return nil, err
		}
	}
	leakproof := false
	if c, ok := r.(*Const); ok {
		switch fn {
		case "like", "ilike":
			// A pattern ending in a lone escape fails on some rows.
			s, ok := c.Value.(string)
			leakproof = !ok || !likeEndsInEscape(s)
		case "regex", "iregex":
			if s, ok := c.Value.(string); ok {
				if _, err := regexp.Compile(s); err != nil {
					return nil, b.errAt(loc, pgerror.InvalidRegularExpression, "invalid regular expression: %v", err)
				}
				leakproof = true
			}
		}
	}
	var out Expr = &Func{Name: fn, Args: []Expr{l, r}, Typ: types.Bool, leakproof: leakproof}
	if negated {
		out = &Not{Arg: out}
	}
	return out, nil
}

// byteaLike binds bytea ~~ bytea and !~~: LIKE byte by byte. Not
// leakproof, as bytealike is not in PostgreSQL.
func (b *Binder) byteaLike(l, r Expr, negated bool, loc int32) (Expr, error) {
	var err error
	for _, side := range []*Expr{&l, &r} {
		t := (*side).Type()
		if t.Family() != types.FamilyBytes && t.OID != types.OIDUnknown {
			return nil, b.errAt(loc, pgerror.UndefinedFunction, "operator does not exist: %s ~~ %s", l.Type().Name(), r.Type().Name())
		}
		if *side, err = b.coerce(*side, types.Bytea, loc); err != nil {
			return nil, err
		}
	}
	var out Expr = &Func{Name: "like", Args: []Expr{l, r}, Typ: types.Bool}
	if negated {
		out = &Not{Arg: out}
	}
	return out, nil
}

// bindScalar binds a call of a registered scalar function.
func (b *Binder) bindScalar(fc *pg_query.FuncCall, f functions.Scalar, ec *exprCtx) (Expr, error) {
	if fc.AggStar || fc.AggDistinct || fc.Over != nil || fc.AggFilter != nil || len(fc.AggOrder) > 0 {
		return nil, b.errAt(fc.Location, pgerror.WrongObjectType, "%s is not an aggregate function", f.Name)
	}
	if needsPositionalCall(fc, f) {
		var err error
		if fc, err = b.positionalCall(fc, f, ec); err != nil {
			return nil, err
		}
	}
	args := make([]Expr, len(fc.Args))
	argTypes := make([]types.T, len(fc.Args))
	for i, n := range fc.Args {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		args[i], argTypes[i] = e, e.Type()
	}
	if err := refuseVectorBounds(f.Name, argTypes); err != nil {
		return nil, err
	}
	if f.Polymorphic && slices.ContainsFunc(argTypes, func(t types.T) bool { return t.OID == types.OIDUnknown }) {
		return nil, b.errAt(fc.Location, pgerror.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
	}
	want, res, ok := f.Resolve(argTypes)
	if !ok {
		names := make([]string, len(argTypes))
		for i, t := range argTypes {
			names[i] = t.Name()
		}
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(%s) does not exist", funcName(fc), strings.Join(names, ", ")).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	if f.TextOutput {
		args = booleansAsOutput(args)
	}
	for i := range args {
		var err error
		if args[i], err = b.cast(args[i], want[i], fc.Location); err != nil {
			return nil, err
		}
	}
	res, err := scaleFromArguments(f.Name, args, res)
	if err != nil {
		return nil, err
	}
	return &Func{Name: f.Name, Args: args, Typ: res, leakproof: f.Leakproof}, nil
}

// bindSubLink binds a subquery used as an expression. The subquery is
// bound with this query's scope as its outer scope, so a reference to an
// enclosing column is recognised (correlation is refused for now).
func (b *Binder) bindSubLink(sl *pg_query.SubLink, ec *exprCtx) (Expr, error) {
	if rewritten := quantifiedSubLink(sl); rewritten != nil {
		return b.bindExpr(rewritten, ec)
	}
	if e, ok, err := b.bindRowSubLink(sl, ec); ok {
		return e, err
	}
	plan, outer, err := b.bindSubqueryPlan(sl, ec)
	if err != nil {
		return nil, err
	}
	cols := plan.Columns()
	switch sl.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return &Subquery{Kind: ExistsSubquery, Plan: plan, Typ: types.Bool, Outer: outer}, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(cols) != 1 {
			return nil, b.errAt(sl.Location, pgerror.SyntaxError, "subquery must return only one column")
		}
		return &Subquery{Kind: ScalarSubquery, Plan: plan, Typ: cols[0].Type, Outer: outer}, nil
	case pg_query.SubLinkType_ARRAY_SUBLINK:
		if len(cols) != 1 {
			return nil, b.errAt(sl.Location, pgerror.SyntaxError, "subquery must return only one column")
		}
		at, ok := types.ArrayOf(cols[0].Type)
		if !ok {
			return nil, pgerror.Unsupported("arrays of %s are not supported yet", cols[0].Type.Name())
		}
		return &Subquery{Kind: ArraySubquery, Plan: plan, Typ: at, Outer: outer}, nil
	case pg_query.SubLinkType_ANY_SUBLINK:
		if len(sl.OperName) > 0 && sl.OperName[len(sl.OperName)-1].GetString_().GetSval() != "=" {
			return nil, pgerror.Unsupported("op ANY (subquery) is supported only for =")
		}
		if len(cols) != 1 {
			return nil, b.errAt(sl.Location, pgerror.SyntaxError, "subquery has too many columns")
		}
		arg, err := b.bindExpr(sl.Testexpr, ec)
		if err != nil {
			return nil, err
		}
		ct, ok := commonType(arg.Type(), cols[0].Type)
		if !ok {
			return nil, b.errAt(sl.Location, pgerror.UndefinedFunction, "operator does not exist: %s = %s", arg.Type().Name(), cols[0].Type.Name())
		}
		if arg, err = b.coerce(arg, ct, sl.Location); err != nil {
			return nil, err
		}
		if cols[0].Type != ct {
			// Convert the subquery's column to the compared type.
			c := cols[0]
			conv, err := b.coerce(&ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, ct, sl.Location)
			if err != nil {
				return nil, err
			}
			plan = &Project{Input: plan, Exprs: []Expr{conv}, Cols: []Column{b.newColumn(c.Name, Column{Type: ct, Nullable: true})}}
		}
		return &Subquery{Kind: InSubquery, Plan: plan, Args: []Expr{arg}, Typ: types.Bool, Outer: outer}, nil
	}
	return nil, pgerror.Unsupported("%s subqueries are not supported yet", strings.TrimSuffix(sl.SubLinkType.String(), "_SUBLINK"))
}

// bindSubqueryPlan binds a subquery's SELECT with this query's scope as
// its outer scope, and returns its plan and the enclosing columns it
// reads. Optimize optimizes the plan with the statement's.
func (b *Binder) bindSubqueryPlan(sl *pg_query.SubLink, ec *exprCtx) (Node, []Column, error) {
	sel := sl.Subselect.GetSelectStmt()
	if sel == nil {
		return nil, nil, b.unsupportedNode(sl.Subselect)
	}
	inner := &Binder{ctx: b.ctx, catalog: b.catalog, security: b.security, query: b.query,
		nextID: b.nextID, params: b.params, session: b.session, outer: append(append([]*scope(nil), b.outer...), ec.scope),
		ctes: b.ctes, workTables: b.workTables, recursive: b.recursive, withQueries: b.withQueries}
	plan, err := inner.bindSelect(sel)
	b.nextID = inner.nextID
	if err != nil {
		return nil, nil, err
	}
	// Outer columns from beyond this query are outer references here too,
	// so that this query's evaluator passes them down.
	own := map[ColumnID]bool{}
	for _, c := range ec.scope.cols {
		own[c.ID] = true
	}
	for _, c := range inner.correlated {
		if !own[c.ID] {
			b.noteCorrelated(c)
		}
	}
	return plan, inner.correlated, nil
}

// bindArrayCompare binds x op ANY/ALL (array value).
func (b *Binder) bindArrayCompare(opName string, l Expr, a *pg_query.A_Expr, ec *exprCtx) (Expr, error) {
	arr, err := b.bindExpr(a.Rexpr, ec)
	if err != nil {
		return nil, err
	}
	if isUnknown(arr) {
		// '{a,b}' written as a literal: an array of the left side's type.
		at, ok := types.ArrayOf(l.Type())
		if !ok {
			return nil, pgerror.Unsupported("arrays of %s are not supported yet", l.Type().Name())
		}
		if arr, err = b.cast(arr, at, a.Location); err != nil {
			return nil, err
		}
	}
	elem, ok := arr.Type().Elem()
	if !ok {
		return nil, b.errAt(a.Location, pgerror.DatatypeMismatch, "op ANY/ALL (array) requires array on right side")
	}
	op, ok := functions.LookupOperator(opName)
	if !ok || op.Kind != functions.Comparison {
		return nil, pgerror.Unsupported("%s ANY/ALL (array) is not supported", opName)
	}
	if l, err = b.coerce(l, elem, a.Location); err != nil {
		return nil, err
	}
	return &ArrayCompare{Op: op, Left: l, Array: arr, All: a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL}, nil
}

// bindArrayExpr binds ARRAY[a, b, ...]: the elements take their common
// type.
func (b *Binder) bindArrayExpr(a *pg_query.A_ArrayExpr, ec *exprCtx) (Expr, error) {
	elems := make([]Expr, len(a.Elements))
	for i, n := range a.Elements {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		elems[i] = e
	}
	t, err := b.resultType(elems, "ARRAY")
	if err != nil {
		return nil, err
	}
	at, ok := types.ArrayOf(t)
	if !ok {
		return nil, pgerror.Unsupported("arrays of %s are not supported yet", t.Name())
	}
	for i := range elems {
		if elems[i], err = b.coerceResult(elems[i], t); err != nil {
			return nil, err
		}
	}
	return &ArrayExpr{Elems: elems, Typ: at}, nil
}
