package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// refuseUnsupportedSelect names the first SELECT clause the binder does
// not implement yet. Every field of SelectStmt is either handled by
// bindSelect or refused here.
func refuseUnsupportedSelect(s *pg_query.SelectStmt) error {
	switch {
	case s.IntoClause != nil:
		return pgerror.Unsupported("SELECT INTO is not supported")
	case len(s.LockingClause) > 0:
		return pgerror.Unsupported("FOR UPDATE/SHARE is not supported")
	case s.GroupDistinct:
		return pgerror.Unsupported("GROUP BY DISTINCT is not supported yet")
	}
	return nil
}

// target is one output column of a SELECT while it is bound.
type target struct {
	name string
	expr Expr
}

func (b *Binder) bindSelect(s *pg_query.SelectStmt) (Node, error) {
	if s.WithClause == nil {
		return b.bindSelectBody(s)
	}
	level, names, err := b.withLevel(s)
	if err != nil {
		return nil, err
	}
	b.ctes = append(b.ctes, names)
	defer func() { b.ctes = b.ctes[:len(b.ctes)-1] }()
	node, err := b.bindSelectBody(s)
	if err != nil {
		return nil, err
	}
	return attachCTEs(node, level), nil
}

// bindSelectBody binds s, its WITH queries (if any) in scope.
func (b *Binder) bindSelectBody(s *pg_query.SelectStmt) (Node, error) {
	keepUnknown := b.keepUnknown && keepsUnknownColumns(s)
	b.keepUnknown = false
	if err := refuseUnsupportedSelect(s); err != nil {
		return nil, err
	}
	if s.Op != pg_query.SetOperation_SETOP_NONE {
		return b.bindSetOp(s)
	}
	if len(s.ValuesLists) > 0 {
		return b.bindValues(s)
	}
	node, sc, err := b.bindFrom(s.FromClause)
	if err != nil {
		return nil, err
	}
	if s.WhereClause != nil {
		if containsAggregate(s.WhereClause) {
			return nil, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in WHERE")
		}
		pred, err := b.bindExpr(s.WhereClause, &exprCtx{scope: sc, clause: "WHERE"})
		if err != nil {
			return nil, err
		}
		if pred, err = b.requireBool(pred, 0, "WHERE"); err != nil {
			return nil, err
		}
		node = &Filter{Input: node, Pred: pred}
	}

	windows, err := b.newWindowState(s.WindowClause)
	if err != nil {
		return nil, err
	}
	ec := &exprCtx{scope: sc, clause: "SELECT", windows: windows}
	grouped := len(s.GroupClause) > 0 || s.HavingClause != nil || windowDefsContainAggregate(s.WindowClause)
	for _, t := range s.TargetList {
		grouped = grouped || containsAggregate(t)
	}
	for _, o := range s.SortClause {
		grouped = grouped || containsAggregate(o)
	}
	if grouped {
		ec.group = &groupState{input: sc}
		if err := b.bindGroupBy(s, ec); err != nil {
			return nil, err
		}
	}

	var srfs []*SRFCall
	for _, t := range s.TargetList {
		if containsSRF(t) {
			if grouped {
				return nil, pgerror.Unsupported("set-returning functions in an aggregating query are not supported yet")
			}
			ec.srfs = &srfs
		}
	}
	targets, err := b.bindTargets(s.TargetList, sc, ec)
	if err != nil {
		return nil, err
	}
	ec.srfs = nil
	var having Expr
	if s.HavingClause != nil {
		hc := *ec
		hc.clause = "HAVING"
		hc.windows = nil
		if having, err = b.bindExpr(s.HavingClause, &hc); err != nil {
			return nil, err
		}
		if having, err = b.requireBool(having, 0, "HAVING"); err != nil {
			return nil, err
		}
	}
	keys, hidden, err := b.bindOrderBy(s.SortClause, targets, ec)
	if err != nil {
		return nil, err
	}
	var onKeys []SortKey
	if isDistinctOn(s) {
		var onHidden []target
		if onKeys, onHidden, err = b.bindDistinctOnKeys(s, targets, ec); err != nil {
			return nil, err
		}
		hidden = append(hidden, onHidden...)
	}
	if err := b.checkNamedWindows(s.WindowClause, ec); err != nil {
		return nil, err
	}
	if grouped {
		node = &Aggregate{Input: node, Groups: ec.group.groups, GroupCols: ec.group.cols, Aggs: ec.group.aggs,
			Sets: ec.group.sets, SetCol: ec.group.setCol}
		if having != nil {
			node = &Filter{Input: node, Pred: having}
		}
	}
	if len(windows.nodes) > 0 {
		if len(srfs) > 0 {
			return nil, pgerror.Unsupported("set-returning functions together with window functions are not supported yet")
		}
		node = windows.attach(node)
	}
	if len(srfs) > 0 {
		node = &ProjectSet{Input: node, Funcs: srfs}
	}

	// Project the targets and any ORDER BY expressions not among them.
	all := append(append([]target(nil), targets...), hidden...)
	proj := &Project{Input: node}
	for _, t := range all {
		e := t.expr
		if isUnknown(e) && !(keepUnknown && isConstant(e)) {
			var err error
			if e, err = b.cast(e, types.Text, 0); err != nil {
				return nil, err
			}
		}
		var err error
		if e, err = b.presentable(e); err != nil {
			return nil, err
		}
		col := Column{Type: e.Type(), Nullable: true}
		if cr, ok := e.(*ColRef); ok {
			for _, in := range node.Columns() {
				if in.ID == cr.ID {
					col = in
				}
			}
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.newColumn(t.name, col))
	}
	node = proj
	if len(onKeys) > 0 {
		for i := range keys {
			keys[i].Expr = b.projected(proj, keys[i].Expr)
		}
		for i := range onKeys {
			onKeys[i].Expr = b.projected(proj, onKeys[i].Expr)
		}
		if node, keys, err = b.distinctOn(proj, onKeys, keys); err != nil {
			return nil, err
		}
	} else if len(s.DistinctClause) > 0 {
		// SELECT DISTINCT groups by every output column; the group
		// columns keep the projection's IDs, so ORDER BY refers to them.
		if len(hidden) > 0 {
			return nil, pgerror.New(pgerror.InvalidColumnReference, "for SELECT DISTINCT, ORDER BY expressions must appear in select list")
		}
		agg := &Aggregate{Input: proj}
		for _, c := range proj.Cols {
			agg.Groups = append(agg.Groups, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
			agg.GroupCols = append(agg.GroupCols, c)
		}
		node = agg
	}
	if len(keys) > 0 {
		for i := range keys {
			keys[i].Expr = b.projected(proj, keys[i].Expr)
		}
		node = &Sort{Input: node, Keys: keys}
	}
	if node, err = b.applyLimit(s, node); err != nil {
		return nil, err
	}
	if len(hidden) > 0 || len(onKeys) > 0 {
		final := &Project{Input: node}
		for _, c := range proj.Cols[:len(targets)] {
			final.Exprs = append(final.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
			final.Cols = append(final.Cols, c)
		}
		node = final
	}
	return node, nil
}

// projected rewrites a sort key into a reference to the projection column
// computing the same expression.
func (b *Binder) projected(p *Project, e Expr) Expr {
	s := e.String()
	for i, pe := range p.Exprs {
		if pe.String() == s {
			c := p.Cols[i]
			return &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
		}
	}
	return e
}

func (b *Binder) bindGroupBy(s *pg_query.SelectStmt, ec *exprCtx) error {
	if hasGroupingSets(s.GroupClause) {
		return b.bindGroupingSets(s, ec)
	}
	for _, n := range s.GroupClause {
		if _, err := b.bindGroupKey(s, n, ec.group); err != nil {
			return err
		}
	}
	return nil
}

// bindGroupKey binds one grouping key and returns its index in g.groups;
// a key equal to an earlier one (constants aside) is that one.
func (b *Binder) bindGroupKey(s *pg_query.SelectStmt, n *pg_query.Node, g *groupState) (int, error) {
	// GROUP BY 2 and GROUP BY alias refer to the select list, as in
	// PostgreSQL.
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		pos := int(c.GetIval().Ival)
		if pos < 1 || pos > len(s.TargetList) {
			return 0, b.errAt(c.Location, pgerror.InvalidColumnReference, "GROUP BY position %d is not in select list", pos)
		}
		n = s.TargetList[pos-1].GetResTarget().GetVal()
		if containsAggregate(n) {
			return 0, b.errAt(c.Location, pgerror.GroupingError, "aggregate functions are not allowed in GROUP BY")
		}
	} else if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
		name := cr.Fields[0].GetString_().Sval
		if _, err := b.resolve(g.input, "", name, cr.Location); err != nil {
			for _, t := range s.TargetList {
				rt := t.GetResTarget()
				if rt.GetName() == name && !containsAggregate(rt.Val) {
					n = rt.Val
					break
				}
			}
		}
	}
	if containsAggregate(n) {
		return 0, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in GROUP BY")
	}
	e, err := b.bindExpr(n, &exprCtx{scope: g.input, clause: "GROUP BY"})
	if err != nil {
		return 0, err
	}
	if isUnknown(e) {
		if e, err = b.cast(e, types.Text, 0); err != nil {
			return 0, err
		}
	}
	if _, isConst := e.(*Const); !isConst {
		for i, ge := range g.groups {
			if ge.String() == e.String() {
				return i, nil // duplicate key
			}
		}
	}
	name := "?column?"
	if cr, ok := e.(*ColRef); ok {
		name = cr.Name
	}
	col := Column{Type: e.Type(), Nullable: true}
	if cr, ok := e.(*ColRef); ok {
		for _, in := range g.input.cols {
			if in.ID == cr.ID {
				col = in
			}
		}
	}
	g.groups = append(g.groups, e)
	g.cols = append(g.cols, b.newColumn(name, col))
	return len(g.groups) - 1, nil
}

func (b *Binder) bindTargets(list []*pg_query.Node, sc *scope, ec *exprCtx) ([]target, error) {
	var out []target
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, b.unsupportedNode(n)
		}
		if len(rt.Indirection) > 0 {
			return nil, pgerror.Unsupported("indirection in the select list is not supported yet")
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			qualifier := ""
			if len(cr.Fields) == 2 {
				qualifier = cr.Fields[0].GetString_().GetSval()
			} else if len(cr.Fields) > 2 {
				return nil, pgerror.Unsupported("qualified * with more than two parts is not supported yet")
			}
			matched := false
			for _, c := range sc.cols {
				if qualifier != "" && c.Qualifier != qualifier || qualifier == "" && sc.hidden[c.ID] {
					continue
				}
				matched = true
				var e Expr = &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
				if ec.group != nil {
					if e = ec.group.match(e); e == nil {
						return nil, b.errAt(cr.Location, pgerror.GroupingError,
							"column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function", c.Qualifier, c.Name)
					}
				}
				out = append(out, target{name: c.Name, expr: e})
			}
			if qualifier != "" && !matched {
				return nil, b.errAt(cr.Location, pgerror.UndefinedTable, "missing FROM-clause entry for table \"%s\"", qualifier)
			}
			if qualifier == "" && len(sc.cols) == 0 && len(list) == 1 {
				return nil, b.errAt(cr.Location, pgerror.SyntaxError, "SELECT * with no tables specified is not valid")
			}
			continue
		}
		if expanded, ok, err := b.expandCompositeTarget(rt, ec); ok {
			if err != nil {
				return nil, err
			}
			out = append(out, expanded...)
			continue
		}
		e, err := b.bindExpr(rt.Val, ec)
		if err != nil {
			return nil, err
		}
		name := rt.Name
		if name == "" {
			name = figureColname(rt.Val)
		}
		out = append(out, target{name: name, expr: e})
	}
	return out, nil
}

// figureColname names an unaliased output column as PostgreSQL does.
func figureColname(n *pg_query.Node) string {
	name, _ := figureColnameStrength(n)
	return name
}

// figureColnameStrength follows PostgreSQL's FigureColnameInternal: a
// column or function name (strength 2) beats a cast's type name (1),
// which beats "?column?" (0).
func figureColnameStrength(n *pg_query.Node) (string, int) {
	switch x := n.Node.(type) {
	case *pg_query.Node_ColumnRef:
		last := x.ColumnRef.Fields[len(x.ColumnRef.Fields)-1]
		if s := last.GetString_(); s != nil {
			return s.Sval, 2
		}
	case *pg_query.Node_FuncCall:
		names := x.FuncCall.Funcname
		return names[len(names)-1].GetString_().GetSval(), 2
	case *pg_query.Node_TypeCast:
		if name, strength := figureColnameStrength(x.TypeCast.Arg); strength > 1 {
			return name, strength
		}
		names := x.TypeCast.TypeName.Names
		return names[len(names)-1].GetString_().GetSval(), 1
	case *pg_query.Node_AConst:
		if b := x.AConst.GetBoolval(); b != nil {
			return "bool", 1
		}
	case *pg_query.Node_SqlvalueFunction:
		return sqlValueFunctionName(x.SqlvalueFunction), 2
	case *pg_query.Node_CaseExpr:
		return "case", 2
	case *pg_query.Node_GroupingFunc:
		return "grouping", 2
	case *pg_query.Node_MinMaxExpr:
		if x.MinMaxExpr.Op == pg_query.MinMaxOp_IS_LEAST {
			return "least", 2
		}
		return "greatest", 2
	case *pg_query.Node_AArrayExpr:
		return "array", 2
	case *pg_query.Node_AIndirection:
		// a[i] is named after a; a field selection after the field.
		ind := x.AIndirection.Indirection
		if f := ind[len(ind)-1].GetString_(); f != nil {
			return f.Sval, 2
		}
		return figureColnameStrength(x.AIndirection.Arg)
	case *pg_query.Node_CoalesceExpr:
		return "coalesce", 2
	case *pg_query.Node_SubLink:
		if x.SubLink.SubLinkType == pg_query.SubLinkType_EXISTS_SUBLINK {
			return "exists", 2
		}
		if x.SubLink.SubLinkType == pg_query.SubLinkType_ARRAY_SUBLINK {
			return "array", 2
		}
		if sel := x.SubLink.Subselect.GetSelectStmt(); sel != nil && len(sel.TargetList) == 1 && x.SubLink.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
			rt := sel.TargetList[0].GetResTarget()
			if rt.Name != "" {
				return rt.Name, 2
			}
			return figureColnameStrength(rt.Val)
		}
	case *pg_query.Node_AExpr:
		if x.AExpr.Kind == pg_query.A_Expr_Kind_AEXPR_NULLIF {
			return "nullif", 2
		}
	}
	return "?column?", 0
}

func (b *Binder) bindOrderBy(list []*pg_query.Node, targets []target, ec *exprCtx) ([]SortKey, []target, error) {
	var keys []SortKey
	var hidden []target
	for _, n := range list {
		sb := n.GetSortBy()
		if sb == nil {
			return nil, nil, b.unsupportedNode(n)
		}
		if sb.SortbyDir == pg_query.SortByDir_SORTBY_USING {
			return nil, nil, pgerror.Unsupported("ORDER BY ... USING is not supported yet")
		}
		key := sortKeyOf(sb)
		var e Expr
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			pos := int(c.GetIval().Ival)
			if pos < 1 || pos > len(targets) {
				return nil, nil, b.errAt(c.Location, pgerror.InvalidColumnReference, "ORDER BY position %d is not in select list", pos)
			}
			e = targets[pos-1].expr
		} else if cr := sb.Node.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && cr.Fields[0].GetString_() != nil {
			// An output column name wins over an input column, as in
			// PostgreSQL's ORDER BY.
			name := cr.Fields[0].GetString_().Sval
			for _, t := range targets {
				if t.name == name {
					if e != nil {
						return nil, nil, b.errAt(cr.Location, pgerror.AmbiguousColumn, "ORDER BY \"%s\" is ambiguous", name)
					}
					e = t.expr
				}
			}
		}
		if e == nil {
			oc := *ec
			oc.clause = "ORDER BY"
			var err error
			if e, err = b.bindExpr(sb.Node, &oc); err != nil {
				return nil, nil, err
			}
			found := false
			for _, t := range targets {
				if t.expr.String() == e.String() {
					found = true
				}
			}
			if !found {
				hidden = append(hidden, target{name: "?sort?", expr: e})
			}
		}
		key.Expr = e
		keys = append(keys, key)
	}
	return keys, hidden, nil
}

func (b *Binder) bindLimit(s *pg_query.SelectStmt) (*Limit, error) {
	lim := &Limit{Count: -1}
	if s.LimitCount != nil {
		v, e, isNull, err := b.bindLimitValue(s.LimitCount, "LIMIT")
		if err != nil {
			return nil, err
		}
		switch {
		case e != nil:
			lim.CountExpr = e
		case isNull && s.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES && !b.preparing():
			return nil, pgerror.New(pgerror.InvalidRowCountInLimitClause, "row count cannot be null in FETCH FIRST ... WITH TIES clause")
		case !isNull:
			if v < 0 {
				return nil, pgerror.New(pgerror.InvalidRowCountInLimitClause, "LIMIT must not be negative")
			}
			lim.Count = v
		}
	}
	if s.LimitOffset != nil {
		v, e, _, err := b.bindLimitValue(s.LimitOffset, "OFFSET")
		if err != nil {
			return nil, err
		}
		if v < 0 {
			return nil, pgerror.New(pgerror.InvalidRowCountInResultOffsetClause, "OFFSET must not be negative")
		}
		lim.Offset, lim.OffsetExpr = v, e
	}
	return lim, nil
}
