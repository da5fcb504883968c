package planner

import (
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindFrom binds the FROM clause: its items are cross-joined left to
// right, as PostgreSQL reads a comma list.
func (b *Binder) bindFrom(from []*pg_query.Node) (Node, *scope, error) {
	if len(from) == 0 {
		return OneRow{}, &scope{}, nil
	}
	var node Node
	var sc *scope
	for _, item := range from {
		if node != nil && isLateral(item) {
			var err error
			if node, sc, err = b.bindLateral(node, sc, item, InnerJoin); err != nil {
				return nil, nil, err
			}
			continue
		}
		n, s, err := b.bindFromItem(item)
		if err != nil {
			return nil, nil, err
		}
		if node == nil {
			node, sc = n, s
			continue
		}
		if err := checkDistinctQualifiers(sc, s); err != nil {
			return nil, nil, err
		}
		node = &Join{Left: node, Right: n, Kind: InnerJoin}
		sc = sc.concat(s)
	}
	return node, sc, nil
}

// bindFromItem binds one FROM item: a table, a join or a subquery.
func (b *Binder) bindFromItem(item *pg_query.Node) (Node, *scope, error) {
	switch x := item.Node.(type) {
	case *pg_query.Node_RangeVar:
		return b.bindRangeVar(x.RangeVar)
	case *pg_query.Node_RangeTableSample:
		return b.bindTableSample(x.RangeTableSample)
	case *pg_query.Node_JoinExpr:
		return b.bindJoin(x.JoinExpr)
	case *pg_query.Node_RangeSubselect:
		return b.bindSubselect(x.RangeSubselect)
	case *pg_query.Node_RangeFunction:
		return b.bindRangeFunction(x.RangeFunction)
	}
	return nil, nil, b.unsupportedNode(item)
}

func (b *Binder) bindJoin(j *pg_query.JoinExpr) (Node, *scope, error) {
	if j.Alias != nil || j.JoinUsingAlias != nil {
		return nil, nil, pgerror.Unsupported("aliases on a join are not supported yet")
	}
	var kind JoinKind
	switch j.Jointype {
	case pg_query.JoinType_JOIN_INNER:
		kind = InnerJoin
	case pg_query.JoinType_JOIN_LEFT:
		kind = LeftJoin
	case pg_query.JoinType_JOIN_RIGHT:
		kind = RightJoin
	case pg_query.JoinType_JOIN_FULL:
		kind = FullJoin
	default:
		return nil, nil, pgerror.Unsupported("join type %s is not supported yet", j.Jointype)
	}
	left, ls, err := b.bindFromItem(j.Larg)
	if err != nil {
		return nil, nil, err
	}
	if isLateral(j.Rarg) && (kind == InnerJoin || kind == LeftJoin) {
		return b.bindLateralJoin(j, left, ls, kind)
	}
	right, rs, err := b.bindFromItem(j.Rarg)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDistinctQualifiers(ls, rs); err != nil {
		return nil, nil, err
	}
	sc := ls.concat(rs)
	join := &Join{Left: left, Right: right, Kind: kind}
	using := j.UsingClause
	if j.IsNatural {
		// NATURAL: USING every column name both sides share.
		using = nil
		for _, lc := range ls.visible() {
			for _, rc := range rs.visible() {
				if lc.Name == rc.Name {
					using = append(using, &pg_query.Node{Node: &pg_query.Node_String_{String_: &pg_query.String{Sval: lc.Name}}})
				}
			}
		}
	}
	switch {
	case len(using) > 0:
		var merged []ColumnID
		defer func() { sc.moveFirst(merged) }()
		var fullPairs [][2]Column // FULL JOIN: the columns each merged column coalesces
		for _, u := range using {
			name := u.GetString_().GetSval()
			lc, err := b.resolve(ls, "", name, 0)
			if err != nil {
				return nil, nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in left table", name)
			}
			rc, err := b.resolve(rs, "", name, 0)
			if err != nil {
				return nil, nil, pgerror.New(pgerror.UndefinedColumn, "column \"%s\" specified in USING clause does not exist in right table", name)
			}
			eq, err := b.binary("=", &ColRef{ID: lc.ID, Name: lc.Name, Typ: lc.Type}, &ColRef{ID: rc.ID, Name: rc.Name, Typ: rc.Type}, 0)
			if err != nil {
				return nil, nil, err
			}
			if join.On == nil {
				join.On = eq
			} else {
				join.On = b.and(join.On, eq)
			}
			if kind == FullJoin {
				// Either side may be missing: the merged column is
				// COALESCE(left, right), and both are reachable only
				// when qualified.
				sc.hide(lc.ID)
				sc.hide(rc.ID)
				fullPairs = append(fullPairs, [2]Column{lc, rc})
				continue
			}
			// The merged column is the left one (the right one for a
			// RIGHT JOIN); the other is reachable only when qualified.
			hide, keep := rc.ID, lc.ID
			if kind == RightJoin {
				hide, keep = lc.ID, rc.ID
			}
			sc.hide(hide)
			merged = append(merged, keep)
		}
		if len(fullPairs) > 0 {
			sc.markNullable(join, kind)
			project, cols, err := b.mergeFullJoinColumns(join, fullPairs)
			if err != nil {
				return nil, nil, err
			}
			for _, c := range cols {
				sc.cols = append(sc.cols, c)
				merged = append(merged, c.ID)
			}
			return project, sc, nil
		}
	case j.Quals != nil:
		if containsAggregate(j.Quals) {
			return nil, nil, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in JOIN conditions")
		}
		on, err := b.bindExpr(j.Quals, &exprCtx{scope: sc, clause: "JOIN/ON"})
		if err != nil {
			return nil, nil, err
		}
		if on, err = b.requireBool(on, 0, "JOIN/ON"); err != nil {
			return nil, nil, err
		}
		join.On = on
	}
	if kind == RightJoin || kind == FullJoin || kind == LeftJoin {
		// Columns of the side that can be filled with NULLs are nullable.
		sc.markNullable(join, kind)
	}
	return join, sc, nil
}

// bindCTERef binds a reference to a WITH query: a CTEScan when the query
// is materialized, otherwise a subquery in FROM named by the reference's
// alias or the query's name. The query is bound
// with the WITH levels around its definition, without itself (no
// recursion).
func (b *Binder) bindCTERef(rv *pg_query.RangeVar, cte *pg_query.CommonTableExpr) (Node, *scope, error) {
	if n, sc, ok, err := b.bindMaterializedRef(rv, cte); ok || err != nil {
		return n, sc, err
	}
	alias := rv.Alias
	if alias == nil {
		alias = &pg_query.Alias{Aliasname: cte.Ctename, Colnames: cte.Aliascolnames}
	} else if len(alias.Colnames) == 0 {
		alias = &pg_query.Alias{Aliasname: alias.Aliasname, Colnames: cte.Aliascolnames}
	}
	saved := b.ctes
	b.ctes = hideCTE(b.ctes, cte)
	defer func() { b.ctes = saved }()
	return b.bindSubselect(&pg_query.RangeSubselect{Subquery: cte.Ctequery, Alias: alias})
}

// bindRecursiveCTE binds a reference to a WITH RECURSIVE query: its
// body is anchor UNION [ALL] recursive term, where the term reads the
// query's own name as the previous round's rows.
func (b *Binder) bindRecursiveCTE(rv *pg_query.RangeVar, cte *pg_query.CommonTableExpr) (Node, *scope, error) {
	body := cte.Ctequery.GetSelectStmt()
	if body.Op != pg_query.SetOperation_SETOP_UNION || len(body.SortClause) > 0 || body.LimitCount != nil || body.LimitOffset != nil {
		return nil, nil, b.errAt(cte.Location, pgerror.InvalidRecursion,
			"recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", cte.Ctename)
	}
	saved, savedWork := b.ctes, b.workTables
	defer func() { b.ctes, b.workTables = saved, savedWork }()
	b.ctes = hideCTE(b.ctes, cte)
	anchor, err := b.bindSelect(body.Larg)
	if err != nil {
		return nil, nil, err
	}
	ac := anchor.Columns()
	if len(cte.Aliascolnames) > len(ac) {
		return nil, nil, pgerror.New(pgerror.InvalidColumnReference, "WITH query \"%s\" has %d columns available but %d columns specified", cte.Ctename, len(ac), len(cte.Aliascolnames))
	}
	work := &WorkTable{Name: cte.Ctename}
	for i, c := range ac {
		name := c.Name
		if i < len(cte.Aliascolnames) {
			name = cte.Aliascolnames[i].GetString_().GetSval()
		}
		work.Cols = append(work.Cols, b.newColumn(name, Column{Type: c.Type, Qualifier: cte.Ctename, Nullable: true}))
	}
	b.workTables = map[string]*WorkTable{}
	for k, v := range savedWork {
		b.workTables[k] = v
	}
	b.workTables[cte.Ctename] = work
	rec, err := b.bindSelect(body.Rarg)
	if err != nil {
		return nil, nil, err
	}
	rc := rec.Columns()
	if len(rc) != len(ac) {
		return nil, nil, pgerror.New(pgerror.SyntaxError, "each UNION query must have the same number of columns")
	}
	want := make([]types.T, len(ac))
	for i, c := range ac {
		want[i] = c.Type
	}
	if rec, err = b.convertColumns(rec, want); err != nil {
		return nil, nil, err
	}
	ru := &RecursiveUnion{Anchor: anchor, Recursive: rec, Work: work, All: body.All}
	for _, c := range work.Cols {
		ru.Cols = append(ru.Cols, b.newColumn(c.Name, Column{Type: c.Type, Nullable: true}))
	}
	alias := cte.Ctename
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	proj := &Project{Input: ru}
	for i, c := range ru.Cols {
		name := c.Name
		if rv.Alias != nil && i < len(rv.Alias.Colnames) {
			name = rv.Alias.Colnames[i].GetString_().GetSval()
		}
		proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		proj.Cols = append(proj.Cols, b.newColumn(name, Column{Type: c.Type, Qualifier: alias, Nullable: true}))
	}
	return proj, &scope{cols: proj.Cols}, nil
}

// hideCTE is the WITH levels with cte's own name removed, for binding
// its body.
func hideCTE(levels []map[string]*pg_query.CommonTableExpr, cte *pg_query.CommonTableExpr) []map[string]*pg_query.CommonTableExpr {
	var visible []map[string]*pg_query.CommonTableExpr
	for _, level := range levels {
		if level[cte.Ctename] == cte {
			trimmed := map[string]*pg_query.CommonTableExpr{}
			for k, v := range level {
				if k != cte.Ctename {
					trimmed[k] = v
				}
			}
			return append(visible, trimmed)
		}
		visible = append(visible, level)
	}
	return visible
}

// checkDistinctQualifiers refuses two FROM items with the same name, as
// PostgreSQL does: a qualified reference to either would be ambiguous.
func checkDistinctQualifiers(a, b *scope) error {
	names := map[string]bool{}
	for _, c := range a.cols {
		if c.Qualifier != "" {
			names[c.Qualifier] = true
		}
	}
	for _, c := range b.cols {
		if c.Qualifier != "" && names[c.Qualifier] {
			return pgerror.New("42712", "table name \"%s\" specified more than once", c.Qualifier)
		}
	}
	return nil
}

// bindSubselect binds a subquery in FROM; PostgreSQL requires an alias
// before version 16, and the alias qualifies its columns.
func (b *Binder) bindSubselect(rs *pg_query.RangeSubselect) (Node, *scope, error) {
	// LATERAL first in FROM has nothing to its left to read: a plain
	// subquery. Later LATERAL items are bound by bindLateral.
	return b.bindSubselectItem(rs)
}

// bindSubselectItem binds a subquery in FROM (LATERAL or not).
func (b *Binder) bindSubselectItem(rs *pg_query.RangeSubselect) (Node, *scope, error) {
	sel := rs.Subquery.GetSelectStmt()
	if sel == nil {
		return nil, nil, b.unsupportedNode(rs.Subquery)
	}
	if rs.Alias == nil {
		return nil, nil, pgerror.New(pgerror.SyntaxError, "subquery in FROM must have an alias")
	}
	inner, err := b.bindSelect(sel)
	if err != nil {
		return nil, nil, err
	}
	cols := inner.Columns()
	if len(rs.Alias.Colnames) > len(cols) {
		return nil, nil, pgerror.New(pgerror.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", rs.Alias.Aliasname, len(cols), len(rs.Alias.Colnames))
	}
	// Re-label the subquery's output under the alias.
	proj := &Project{Input: inner}
	for i, c := range cols {
		name := c.Name
		if i < len(rs.Alias.Colnames) {
			name = rs.Alias.Colnames[i].GetString_().GetSval()
		}
		proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		proj.Cols = append(proj.Cols, b.newColumn(name, Column{Type: c.Type, Qualifier: rs.Alias.Aliasname, Nullable: true}))
	}
	return proj, &scope{cols: proj.Cols}, nil
}

// bindRangeVar resolves a table reference as the caller (gate one) and
// expands it into the secured relation (gate two): a scan of the visible
// columns, a barrier filter with the row filters, and a masking
// projection.
func (b *Binder) bindRangeVar(rv *pg_query.RangeVar) (Node, *scope, error) {
	if !rv.Inh {
		return nil, nil, pgerror.Unsupported("ONLY is not supported")
	}
	version, written := b.versions[rv.Location]
	if rv.Catalogname == "" && rv.Schemaname == "" && (b.workTables[rv.Relname] != nil || b.lookupCTE(rv.Relname) != nil) && written {
		return nil, nil, b.errAt(rv.Location, pgerror.FeatureNotSupported, "WITH query \"%s\" has no versions to read", rv.Relname)
	}
	if rv.Catalogname == "" && rv.Schemaname == "" {
		if wt, ok := b.workTables[rv.Relname]; ok {
			qualifier := rv.Relname
			if rv.Alias != nil {
				qualifier = rv.Alias.Aliasname
			}
			// Each reference gets columns of its own, so a self-join of
			// the work table stays unambiguous.
			proj := &Project{Input: wt}
			for _, c := range wt.Cols {
				proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
				proj.Cols = append(proj.Cols, b.newColumn(c.Name, Column{Type: c.Type, Qualifier: qualifier, Nullable: true}))
			}
			return proj, &scope{cols: proj.Cols}, nil
		}
		if cte := b.lookupCTE(rv.Relname); cte != nil {
			if b.recursive[cte] {
				return b.bindRecursiveCTE(rv, cte)
			}
			return b.bindCTERef(rv, cte)
		}
	}
	name := TableName{Catalog: rv.Catalogname, Schema: rv.Schemaname, Name: rv.Relname, Version: version}
	if !written {
		name.Version = b.defaultVersion
	}
	tbl, view, err := b.resolveRelation(name)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Position == 0 {
			return nil, nil, pe.WithPosition(b.position(rv.Location))
		}
		return nil, nil, err
	}
	if view != nil {
		return b.bindView(rv, view)
	}
	rel, err := b.security.Secure(b.ctx, tbl)
	if err != nil {
		return nil, nil, err
	}
	qualifier := rv.Relname
	if rv.Alias != nil {
		if len(rv.Alias.Colnames) > 0 {
			return nil, nil, pgerror.Unsupported("column aliases in FROM are not supported yet")
		}
		qualifier = rv.Alias.Aliasname
	}

	// The scan reads every visible column; the optimizer narrows it.
	tcols := tbl.Columns()
	scan := &Scan{Table: tbl}
	for _, i := range rel.Visible {
		c := b.newColumn(tcols[i].Name, Column{
			Type: tcols[i].Type, Qualifier: qualifier, TableOID: tbl.OID(),
			AttNum: int16(i + 1), Nullable: tcols[i].Nullable,
		})
		scan.TableColumns = append(scan.TableColumns, i)
		scan.Cols = append(scan.Cols, c)
	}
	sr := b.secureRelation(scan, rel, scan.Cols, scan.TableColumns, qualifier, false)
	return sr.node, &scope{cols: sr.user}, nil
}

// bindPolicyFilters ANDs the row filters. A filter that cannot be parsed
// or bound admits no row: failing closed.
func (b *Binder) bindPolicyFilters(filters []string, sc *scope) Expr {
	var pred Expr
	for _, f := range filters {
		e, err := b.bindPolicyExpr(f, sc)
		if err != nil || e.Type().OID != types.OIDBool {
			e = &Const{Typ: types.Bool, Value: false}
		}
		if pred == nil {
			pred = e
		} else {
			pred = b.and(pred, e)
		}
	}
	return pred
}

// bindPolicyMask binds a mask expression for column c. One that cannot be
// bound, or whose type cannot stand in for the column, makes the column
// NULL: failing closed.
func (b *Binder) bindPolicyMask(expr string, c Column, sc *scope) Expr {
	e, err := b.bindPolicyExpr(expr, sc)
	if err != nil {
		return &Const{Typ: c.Type, Value: nil}
	}
	if e.Type() != c.Type {
		if cast, err := b.coerce(e, c.Type, 0); err == nil {
			return cast
		}
		return &Const{Typ: c.Type, Value: nil}
	}
	return e
}

func (b *Binder) bindPolicyExpr(expr string, sc *scope) (Expr, error) {
	tree, err := pg_query.Parse("SELECT " + expr)
	if err != nil || len(tree.Stmts) != 1 {
		return nil, pgerror.New(pgerror.SyntaxError, "invalid policy expression")
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || len(sel.FromClause) != 0 {
		return nil, pgerror.New(pgerror.SyntaxError, "invalid policy expression")
	}
	inner := &Binder{ctx: b.ctx, catalog: b.catalog, security: b.security, query: "SELECT " + expr, nextID: b.nextID, session: b.session}
	e, err := inner.bindExpr(sel.TargetList[0].GetResTarget().GetVal(), &exprCtx{scope: sc})
	b.nextID = inner.nextID
	return e, err
}

// mergeFullJoinColumns puts a projection over a FULL JOIN ... USING that
// passes the join's columns through and adds, for each USING column, the
// merged column PostgreSQL gives it: COALESCE(left, right) in the two
// sides' common type, NULL only when both are.
func (b *Binder) mergeFullJoinColumns(join *Join, pairs [][2]Column) (Node, []Column, error) {
	in := join.Columns()
	p := &Project{Input: join, Exprs: make([]Expr, 0, len(in)+len(pairs)), Cols: make([]Column, 0, len(in)+len(pairs))}
	for _, c := range in {
		p.Exprs = append(p.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		p.Cols = append(p.Cols, c)
	}
	var added []Column
	for _, pair := range pairs {
		l := &ColRef{ID: pair[0].ID, Name: pair[0].Name, Typ: pair[0].Type}
		r := &ColRef{ID: pair[1].ID, Name: pair[1].Name, Typ: pair[1].Type}
		e, err := b.newCase([]When{{Cond: &IsNull{Arg: l, Negated: true}, Result: l}}, r, "JOIN/USING")
		if err != nil {
			return nil, nil, err
		}
		c := b.newColumn(pair[0].Name, Column{Type: e.Type(), Nullable: pair[0].Nullable && pair[1].Nullable})
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, c)
		added = append(added, c)
	}
	return p, added, nil
}
