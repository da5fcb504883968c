package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Row constructors, (a, b) and ROW(a, b), where PostgreSQL compares them:
// with =, <>, <, <=, >, >= against another row or a one-row subquery, with
// IS [NOT] DISTINCT FROM, IN a list of rows or a subquery, and IS [NOT]
// NULL. SQE has no record values; a row comparison is bound as the
// comparisons of its fields, with PostgreSQL's NULL rules:
//
//	=   true when every pair is equal, false when some pair is unequal,
//	    else NULL
//	<>  the negation of =
//	<   (and <=, >, >=) decided by the first pair that is not equal: NULL
//	    when that pair has a NULL, its comparison otherwise; when all
//	    pairs are equal, true for <= and >= only
//
// The ordering form is bound as l1 < r1 OR (l1 = r1 AND (l2 < r2 OR ...)),
// which three-valued logic makes exactly that rule.

// rowFields returns the fields of a row constructor, or nil when n is not
// one.
func rowFields(n *pg_query.Node) []*pg_query.Node {
	if r := n.GetRowExpr(); r != nil {
		return r.Args
	}
	return nil
}

// isRow reports whether n is a row constructor.
func isRow(n *pg_query.Node) bool { return n.GetRowExpr() != nil }

// bindRowAExpr binds an operator expression over row constructors; ok is
// false when a is not one.
func (b *Binder) bindRowAExpr(a *pg_query.A_Expr, ec *exprCtx) (Expr, bool, error) {
	opName := ""
	if len(a.Name) == 1 {
		opName = a.Name[0].GetString_().GetSval()
	}
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		if !isRow(a.Lexpr) && !isRow(a.Rexpr) {
			return nil, false, nil
		}
		if sl := a.Rexpr.GetSubLink(); sl != nil && isRow(a.Lexpr) && sl.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
			// (a, b) op (SELECT x, y), as PostgreSQL reads it.
			rc := &pg_query.SubLink{SubLinkType: pg_query.SubLinkType_ROWCOMPARE_SUBLINK, Testexpr: a.Lexpr,
				OperName: a.Name, Subselect: sl.Subselect, Location: a.Location}
			e, _, err := b.bindRowSubLink(rc, ec)
			return e, true, err
		}
		if !isRow(a.Lexpr) || !isRow(a.Rexpr) {
			return nil, true, b.rowWithScalar(opName, a, ec)
		}
		e, err := b.bindRowOperands(opName, rowFields(a.Lexpr), rowFields(a.Rexpr), a.Location, ec)
		return e, true, err
	case pg_query.A_Expr_Kind_AEXPR_IN:
		if !isRow(a.Lexpr) {
			return nil, false, nil
		}
		var out Expr
		for _, item := range a.Rexpr.GetList().GetItems() {
			if !isRow(item) {
				return nil, true, b.errAt(a.Location, pgerror.FeatureNotSupported, "comparing a row with a non-row value is not supported yet")
			}
			eq, err := b.bindRowOperands("=", rowFields(a.Lexpr), rowFields(item), a.Location, ec)
			if err != nil {
				return nil, true, err
			}
			if out == nil {
				out = eq
			} else {
				out = b.or(out, eq)
			}
		}
		if out == nil {
			return nil, true, b.unsupportedNode(a.Rexpr)
		}
		if opName == "<>" {
			// NOT IN: the negation, NULL staying NULL.
			return &Not{Arg: out}, true, nil
		}
		return out, true, nil
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if !isRow(a.Lexpr) || !isRow(a.Rexpr) {
			return nil, false, nil
		}
		l, r := rowFields(a.Lexpr), rowFields(a.Rexpr)
		if len(l) != len(r) {
			return nil, true, b.errAt(a.Location, pgerror.SyntaxError, "unequal number of entries in row expressions")
		}
		// Rows are distinct when some pair of fields is (NULLs compared
		// as values), so never NULL: OR of the pairs' IS DISTINCT FROM,
		// and its negation.
		var out Expr
		for i := range l {
			pair := &pg_query.A_Expr{Kind: pg_query.A_Expr_Kind_AEXPR_DISTINCT, Name: a.Name, Lexpr: l[i], Rexpr: r[i], Location: a.Location}
			d, err := b.bindSpecialAExpr(pair, ec)
			if err != nil {
				return nil, true, err
			}
			if out == nil {
				out = d
			} else {
				out = b.or(out, d)
			}
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT {
			return &Not{Arg: out}, true, nil
		}
		return out, true, nil
	}
	return nil, false, nil
}

// rowWithScalar is the error for a row compared with a value that is not
// one: there is no such operator.
func (b *Binder) rowWithScalar(op string, a *pg_query.A_Expr, ec *exprCtx) error {
	name := func(n *pg_query.Node) string {
		if isRow(n) {
			return "record"
		}
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return "unknown"
		}
		return e.Type().Name()
	}
	return b.errAt(a.Location, pgerror.UndefinedFunction, "operator does not exist: %s %s %s", name(a.Lexpr), op, name(a.Rexpr)).
		WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
}

// bindRowOperands binds two rows' fields and compares them.
func (b *Binder) bindRowOperands(op string, ln, rn []*pg_query.Node, loc int32, ec *exprCtx) (Expr, error) {
	if len(ln) != len(rn) {
		return nil, b.errAt(loc, pgerror.SyntaxError, "unequal number of entries in row expressions")
	}
	l, err := b.bindRowFields(ln, ec)
	if err != nil {
		return nil, err
	}
	r, err := b.bindRowFields(rn, ec)
	if err != nil {
		return nil, err
	}
	return b.rowCompare(op, l, r, loc)
}

func (b *Binder) bindRowFields(ns []*pg_query.Node, ec *exprCtx) ([]Expr, error) {
	out := make([]Expr, len(ns))
	for i, n := range ns {
		e, err := b.bindExpr(n, ec)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// rowCompare compares two rows of bound fields with op.
func (b *Binder) rowCompare(op string, l, r []Expr, loc int32) (Expr, error) {
	if len(l) != len(r) {
		return nil, b.errAt(loc, pgerror.SyntaxError, "unequal number of entries in row expressions")
	}
	if len(l) == 0 {
		return nil, b.errAt(loc, pgerror.FeatureNotSupported, "cannot compare rows of zero length")
	}
	pairs := func(op string, join func(x, y Expr) Expr) (Expr, error) {
		var out Expr
		for i := range l {
			c, err := b.binary(op, l[i], r[i], loc)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = c
			} else {
				out = join(out, c)
			}
		}
		return out, nil
	}
	switch op {
	case "=":
		return pairs("=", b.and)
	case "<>":
		return pairs("<>", b.or)
	case "<", "<=", ">", ">=":
		strict := op[:1]
		// Built from the last pair outwards.
		out, err := b.binary(op, l[len(l)-1], r[len(r)-1], loc)
		if err != nil {
			return nil, err
		}
		for i := len(l) - 2; i >= 0; i-- {
			lt, err := b.binary(strict, l[i], r[i], loc)
			if err != nil {
				return nil, err
			}
			eq, err := b.binary("=", l[i], r[i], loc)
			if err != nil {
				return nil, err
			}
			out = b.or(lt, b.and(eq, out))
		}
		return out, nil
	}
	// As PostgreSQL: the operator is looked up for the first pair.
	e, err := b.binary(op, l[0], r[0], loc)
	if err != nil {
		return nil, err
	}
	if e.Type().OID != types.OIDBool {
		return nil, b.errAt(loc, pgerror.DatatypeMismatch, "row comparison operator must yield type boolean, not type %s", e.Type().Name())
	}
	return nil, b.errAt(loc, pgerror.UndefinedFunction, "could not determine interpretation of row comparison operator %s", op).
		WithHint("Row comparison operators must be associated with btree operator families.")
}

// bindRowNullTest binds ROW(a, b) IS [NOT] NULL: IS NULL is true when
// every field is NULL, IS NOT NULL when none is.
func (b *Binder) bindRowNullTest(nt *pg_query.NullTest, ec *exprCtx) (Expr, error) {
	fields := rowFields(nt.Arg)
	if fields == nil {
		return nil, pgerror.Unsupported("IS NULL on a row value that is not a row constructor is not supported yet")
	}
	es, err := b.bindRowFields(fields, ec)
	if err != nil {
		return nil, err
	}
	negated := nt.Nulltesttype == pg_query.NullTestType_IS_NOT_NULL
	var out Expr
	for _, e := range es {
		var t Expr = &IsNull{Arg: e, Negated: negated}
		if out == nil {
			out = t
		} else {
			out = b.and(out, t)
		}
	}
	if out == nil {
		// ROW() has no field that is not NULL, nor one that is.
		return &Const{Typ: types.Bool, Value: true}, nil
	}
	return out, nil
}

// bindRowSubLink binds a subquery compared with a row: (a, b) IN (SELECT
// x, y ...) and (a, b) op (SELECT x, y). ok is false for other subqueries.
func (b *Binder) bindRowSubLink(sl *pg_query.SubLink, ec *exprCtx) (Expr, bool, error) {
	op := "="
	if len(sl.OperName) > 0 {
		op = sl.OperName[len(sl.OperName)-1].GetString_().GetSval()
	}
	switch {
	case sl.SubLinkType == pg_query.SubLinkType_ROWCOMPARE_SUBLINK:
	case sl.SubLinkType == pg_query.SubLinkType_ANY_SUBLINK && op == "=" && isRow(sl.Testexpr):
	default:
		return nil, false, nil
	}
	fields := rowFields(sl.Testexpr)
	if fields == nil {
		fields = []*pg_query.Node{sl.Testexpr}
	}
	args, err := b.bindRowFields(fields, ec)
	if err != nil {
		return nil, true, err
	}
	plan, outer, err := b.bindSubqueryPlan(sl, ec)
	if err != nil {
		return nil, true, err
	}
	cols := plan.Columns()
	switch {
	case len(cols) > len(args):
		return nil, true, b.errAt(sl.Location, pgerror.SyntaxError, "subquery has too many columns")
	case len(cols) < len(args):
		return nil, true, b.errAt(sl.Location, pgerror.SyntaxError, "subquery has too few columns")
	}
	if sl.SubLinkType == pg_query.SubLinkType_ROWCOMPARE_SUBLINK {
		// Each field is the one-row subquery's column; each is its own
		// scalar subquery over the same plan, so the row's fields are
		// compared as any row's.
		vals := make([]Expr, len(cols))
		for i, c := range cols {
			one := &Project{Input: plan, Exprs: []Expr{&ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}}, Cols: []Column{c}}
			vals[i] = &Subquery{Kind: ScalarSubquery, Plan: one, Typ: c.Type, Outer: outer}
		}
		e, err := b.rowCompare(op, args, vals, sl.Location)
		return e, true, err
	}
	// IN: the tested fields and the subquery's columns take their
	// common types, so that equal values have equal keys.
	proj := &Project{Input: plan}
	for i, c := range cols {
		ct, ok := commonType(args[i].Type(), c.Type)
		if !ok {
			return nil, true, b.errAt(sl.Location, pgerror.UndefinedFunction, "operator does not exist: %s = %s", args[i].Type().Name(), c.Type.Name())
		}
		if args[i], err = b.coerce(args[i], ct, sl.Location); err != nil {
			return nil, true, err
		}
		var col Expr = &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
		if c.Type != ct {
			if col, err = b.coerce(col, ct, sl.Location); err != nil {
				return nil, true, err
			}
		}
		proj.Exprs = append(proj.Exprs, col)
		proj.Cols = append(proj.Cols, b.newColumn(c.Name, Column{Type: ct, Nullable: true}))
	}
	return &Subquery{Kind: InSubquery, Plan: proj, Args: args, Typ: types.Bool, Outer: outer}, true, nil
}

// bindRowAggArg binds a row constructor as an aggregate's argument. Only
// count takes one (PostgreSQL's count("any")): a row is never NULL, so it
// counts every row, or with DISTINCT every distinct combination of the
// fields.
func (b *Binder) bindRowAggArg(fc *pg_query.FuncCall, name string, call *AggCall, bindArg func(*pg_query.Node) (Expr, error)) error {
	if call.Func.Name != "count" {
		return b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(record) does not exist", name).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	for _, n := range rowFields(fc.Args[0]) {
		e, err := bindArg(n)
		if err != nil {
			return err
		}
		call.RowArgs = append(call.RowArgs, e)
	}
	call.Arg = &Const{Typ: types.Bool, Value: true}
	return nil
}
