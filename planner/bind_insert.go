package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// InsertPlan is a bound INSERT: the rows to write and what RETURNING
// computes from them.
type InsertPlan struct {
	Table Table
	// Source yields one column per table column, in table order, each of
	// exactly the column's type (assignment casts and defaults applied).
	Source Node
	// Returning computes the RETURNING list over Inserted, the rows
	// written; nil without RETURNING.
	Returning Node
	Inserted  *WorkTable
}

// BindInsert binds INSERT INTO tbl [(cols)] VALUES ... | SELECT ... |
// DEFAULT VALUES [RETURNING ...] as PostgreSQL's transformInsertStmt
// does. tbl is the resolved target; defaults holds the DEFAULT expression
// of each table column that has one, by column index (a column without
// one defaults to NULL).
func (b *Binder) BindInsert(stmt *pg_query.InsertStmt, tbl Table, defaults map[int]*pg_query.Node) (*InsertPlan, error) {
	switch {
	case stmt.OnConflictClause != nil:
		return nil, pgerror.Unsupported("ON CONFLICT is not supported yet")
	case stmt.WithClause != nil:
		return nil, pgerror.Unsupported("WITH in INSERT is not supported yet")
	case stmt.Override == pg_query.OverridingKind_OVERRIDING_USER_VALUE, stmt.Override == pg_query.OverridingKind_OVERRIDING_SYSTEM_VALUE:
		return nil, pgerror.Unsupported("OVERRIDING is not supported")
	}
	ins := &insertBinding{b: b, tbl: tbl, tcols: tbl.Columns(), defaults: defaults, relname: stmt.Relation.Relname}
	targets, locs, err := ins.targetColumns(stmt.Cols)
	if err != nil {
		return nil, err
	}
	plan := &InsertPlan{Table: tbl}
	sel := stmt.SelectStmt.GetSelectStmt()
	switch {
	case stmt.SelectStmt == nil:
		// DEFAULT VALUES: one row of defaults.
		row, err := ins.fullRow(nil, nil)
		if err != nil {
			return nil, err
		}
		plan.Source = ins.values([][]Expr{row})
	case sel != nil && isPlainValues(sel):
		if plan.Source, err = ins.bindValues(sel, targets, locs, len(stmt.Cols) > 0); err != nil {
			return nil, err
		}
	case sel != nil:
		if plan.Source, err = ins.bindQuery(sel, targets, locs, len(stmt.Cols) > 0); err != nil {
			return nil, err
		}
	default:
		return nil, b.unsupportedNode(stmt.SelectStmt)
	}
	if len(stmt.ReturningList) > 0 {
		qualifier := stmt.Relation.Relname
		if stmt.Relation.Alias != nil {
			qualifier = stmt.Relation.Alias.Aliasname
		}
		if plan.Returning, plan.Inserted, err = ins.bindReturning(stmt.ReturningList, qualifier); err != nil {
			return nil, err
		}
	}
	b.settleParams()
	return plan, nil
}

// settleParams makes a parameter nothing gave a type to text, as in
// PostgreSQL.
func (b *Binder) settleParams() {
	if b.params != nil && b.params.preparing() {
		for i, t := range b.params.Types {
			if t.OID == types.OIDUnknown {
				b.params.Types[i] = types.Text
			}
		}
	}
}

// isPlainValues reports a bare VALUES list, whose items INSERT assigns to
// the columns one by one (without ORDER BY, LIMIT or set operations, it
// needs no common type per column).
func isPlainValues(s *pg_query.SelectStmt) bool {
	return len(s.ValuesLists) > 0 && s.Op == pg_query.SetOperation_SETOP_NONE && len(s.SortClause) == 0 &&
		s.LimitCount == nil && s.LimitOffset == nil && s.WithClause == nil
}

type insertBinding struct {
	b        *Binder
	tbl      Table
	tcols    []TableColumn
	defaults map[int]*pg_query.Node
	relname  string
}

// targetColumns resolves the column list to table column indexes (all
// columns in order without a list), with each name's location.
func (ins *insertBinding) targetColumns(cols []*pg_query.Node) ([]int, []int32, error) {
	if len(cols) == 0 {
		out := make([]int, len(ins.tcols))
		locs := make([]int32, len(ins.tcols))
		for i := range out {
			out[i], locs[i] = i, -1
		}
		return out, locs, nil
	}
	var out []int
	var locs []int32
	for _, n := range cols {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, nil, ins.b.unsupportedNode(n)
		}
		if len(rt.Indirection) > 0 {
			return nil, nil, pgerror.Unsupported("subscripts and fields in an INSERT column list are not supported")
		}
		idx := -1
		for i, c := range ins.tcols {
			if c.Name == rt.Name {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, nil, ins.b.errAt(rt.Location, pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, ins.relname)
		}
		for _, seen := range out {
			if seen == idx {
				return nil, nil, ins.b.errAt(rt.Location, pgerror.DuplicateColumn, "column \"%s\" specified more than once", rt.Name)
			}
		}
		out = append(out, idx)
		locs = append(locs, rt.Location)
	}
	return out, locs, nil
}

// checkArity applies PostgreSQL's checks of a row's width against the
// target list; without an explicit column list a short row fills the
// first columns. It returns the targets the row fills.
func (ins *insertBinding) checkArity(n int, extraLoc int32, targets []int, locs []int32, explicit bool) ([]int, error) {
	switch {
	case n > len(targets):
		return nil, ins.b.errAt(extraLoc, pgerror.SyntaxError, "INSERT has more expressions than target columns")
	case n < len(targets) && explicit:
		return nil, ins.b.errAt(locs[n], pgerror.SyntaxError, "INSERT has more target columns than expressions")
	}
	return targets[:n], nil
}

// bindValues binds VALUES rows: each item is assigned to its column on
// its own, as PostgreSQL does for INSERT.
func (ins *insertBinding) bindValues(sel *pg_query.SelectStmt, targets []int, locs []int32, explicit bool) (Node, error) {
	b := ins.b
	width := -1
	var rows [][]Expr
	var filled []int
	for _, l := range sel.ValuesLists {
		items := l.GetList().GetItems()
		if width >= 0 && len(items) != width {
			return nil, b.errAt(firstLocation(items), pgerror.SyntaxError, "VALUES lists must all be the same length")
		}
		width = len(items)
		var extra int32 = -1
		if len(items) > len(targets) {
			extra = firstLocation(items[len(targets):])
		}
		var err error
		if filled, err = ins.checkArity(len(items), extra, targets, locs, explicit); err != nil {
			return nil, err
		}
		given := make([]Expr, len(items))
		for i, it := range items {
			col := filled[i]
			if it.GetSetToDefault() != nil {
				if given[i], err = ins.defaultFor(col); err != nil {
					return nil, err
				}
				continue
			}
			e, err := b.bindExpr(it, &exprCtx{scope: &scope{}, clause: "VALUES"})
			if err != nil {
				return nil, err
			}
			if given[i], err = ins.assign(e, col, firstLocation([]*pg_query.Node{it})); err != nil {
				return nil, err
			}
		}
		row, err := ins.fullRow(filled, given)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return ins.values(rows), nil
}

// bindQuery binds INSERT ... SELECT: the query's columns are assigned to
// the target columns in order.
func (ins *insertBinding) bindQuery(sel *pg_query.SelectStmt, targets []int, locs []int32, explicit bool) (Node, error) {
	b := ins.b
	// Like PostgreSQL, the query's untyped literals take the type of the
	// column they are assigned to rather than text.
	b.keepUnknown = true
	node, err := b.bindSelect(sel)
	b.keepUnknown = false
	if err != nil {
		return nil, err
	}
	cols := node.Columns()
	var extra int32 = -1
	if len(cols) > len(targets) && len(sel.TargetList) > len(targets) {
		extra = firstLocation(sel.TargetList[len(targets):])
	}
	filled, err := ins.checkArity(len(cols), extra, targets, locs, explicit)
	if err != nil {
		return nil, err
	}
	input := node
	exprs := make([]Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
	}
	if p, ok := node.(*Project); ok {
		// Read through the top projection so an untyped literal there is
		// converted straight to the column's type.
		input, exprs = p.Input, append([]Expr(nil), p.Exprs...)
	}
	given := make([]Expr, len(exprs))
	for i, e := range exprs {
		loc := int32(-1)
		if i < len(sel.TargetList) {
			loc = firstLocation(sel.TargetList[i : i+1])
		}
		if given[i], err = ins.assign(e, filled[i], loc); err != nil {
			return nil, err
		}
	}
	row, err := ins.fullRow(filled, given)
	if err != nil {
		return nil, err
	}
	proj := &Project{Input: input, Exprs: row}
	for i, c := range ins.tcols {
		proj.Cols = append(proj.Cols, b.newColumn(c.Name, Column{Type: c.Type, Nullable: true, AttNum: int16(i + 1)}))
	}
	return proj, nil
}

// fullRow completes a row given for the filled columns with the other
// columns' defaults, in table order.
func (ins *insertBinding) fullRow(filled []int, given []Expr) ([]Expr, error) {
	row := make([]Expr, len(ins.tcols))
	for i, col := range filled {
		row[col] = given[i]
	}
	for col := range row {
		if row[col] != nil {
			continue
		}
		d, err := ins.defaultFor(col)
		if err != nil {
			return nil, err
		}
		row[col] = d
	}
	return row, nil
}

// defaultFor is column col's DEFAULT expression, assigned to the column,
// or a NULL of its type.
func (ins *insertBinding) defaultFor(col int) (Expr, error) {
	t := ins.tcols[col].Type
	n, ok := ins.defaults[col]
	if !ok {
		return &Const{Typ: t}, nil
	}
	e, err := ins.b.bindExpr(n, &exprCtx{scope: &scope{}, clause: "DEFAULT"})
	if err != nil {
		return nil, err
	}
	return ins.assign(e, col, -1)
}

func (ins *insertBinding) values(rows [][]Expr) Node {
	v := &Values{Rows: rows}
	for i, c := range ins.tcols {
		v.Cols = append(v.Cols, ins.b.newColumn(c.Name, Column{Type: c.Type, Nullable: true, AttNum: int16(i + 1)}))
	}
	return v
}

// assign converts e to column col's type by assignment (PostgreSQL's
// coerce_to_target_type in COERCION_ASSIGNMENT).
func (ins *insertBinding) assign(e Expr, col int, loc int32) (Expr, error) {
	c := ins.tcols[col]
	out, err := ins.b.assignCast(e, c.Type, loc)
	if err == errNotAssignable {
		return nil, ins.b.errAt(loc, pgerror.DatatypeMismatch, "column \"%s\" is of type %s but expression is of type %s",
			c.Name, baseTypeName(c.Type), baseTypeName(e.Type())).WithHint("You will need to rewrite or cast the expression.")
	}
	return out, err
}

// baseTypeName names a type without its modifier, as format_type_be does
// in PostgreSQL's messages.
func baseTypeName(t types.T) string {
	if t.OID == types.OIDNumeric || t.OID == types.OIDVarchar || t.OID == types.OIDBpchar {
		t.Precision, t.Scale = 0, 0
		if t.OID == types.OIDBpchar {
			return "character"
		}
	}
	return t.Name()
}

// bindReturning binds RETURNING over the inserted rows, which a work
// table stands for: exec hands it the rows once they are written.
func (ins *insertBinding) bindReturning(list []*pg_query.Node, qualifier string) (Node, *WorkTable, error) {
	b := ins.b
	work := &WorkTable{Name: qualifier, Cols: ins.rowColumns(qualifier)}
	sc := &scope{cols: work.Cols}
	targets, err := b.bindTargets(list, sc, &exprCtx{scope: sc, clause: "RETURNING"})
	if err != nil {
		return nil, nil, err
	}
	proj, err := b.returningProject(work, targets)
	if err != nil {
		return nil, nil, err
	}
	return proj, work, nil
}

// rowColumns are the columns of a written row of the table, as
// RETURNING names them: under qualifier, with the table's identity for
// RowDescription.
func (ins *insertBinding) rowColumns(qualifier string) []Column {
	out := make([]Column, len(ins.tcols))
	for i, c := range ins.tcols {
		out[i] = ins.b.newColumn(c.Name, Column{Type: c.Type, Qualifier: qualifier, Nullable: c.Nullable,
			TableOID: ins.tbl.OID(), AttNum: int16(i + 1)})
	}
	return out
}

// returningProject is RETURNING's output over work: each target as a
// client sees it, an untyped literal as text, and a plain column with
// its origin.
func (b *Binder) returningProject(work *WorkTable, targets []target) (Node, error) {
	proj := &Project{Input: work}
	for _, t := range targets {
		e := t.expr
		var err error
		if isUnknown(e) {
			if e, err = b.cast(e, types.Text, 0); err != nil {
				return nil, err
			}
		}
		if e, err = b.presentable(e); err != nil {
			return nil, err
		}
		col := Column{Type: e.Type(), Nullable: true}
		if cr, ok := e.(*ColRef); ok {
			for _, in := range work.Cols {
				if in.ID == cr.ID {
					col = in
				}
			}
		}
		proj.Exprs = append(proj.Exprs, e)
		proj.Cols = append(proj.Cols, b.newColumn(t.name, col))
	}
	return proj, nil
}

// firstLocation is the parse location of the first of nodes that has
// one, -1 if none does.
func firstLocation(nodes []*pg_query.Node) int32 {
	for _, n := range nodes {
		if n == nil {
			continue
		}
		if rt := n.GetResTarget(); rt != nil {
			if loc := exprLocation(rt.Val); loc >= 0 {
				return loc
			}
			return rt.Location
		}
		if loc := exprLocation(n); loc >= 0 {
			return loc
		}
	}
	return -1
}
