package planner

import (
	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// RewritePlan is a bound DELETE or UPDATE. Storage rewrites a table copy
// on write: it hands the rows of the data files that may hold changed
// rows to Target, each row numbered by a hidden row id column, and the
// statement decides, by running Matches, which rows change and how.
type RewritePlan struct {
	Table Table
	// Target stands for the target table's candidate rows: one column per
	// table column, in table order, then the row id (int8), the row's
	// position among all rows handed over.
	Target *WorkTable
	// Matches yields one row per target row the statement changes (an
	// UPDATE ... FROM or DELETE ... USING target row may appear more than
	// once: the first counts): the row id; then, with Image, a value of
	// every table column in table order, each of the column's type: the
	// new row of UPDATE, the row as it was for DELETE ... RETURNING; then
	// Returned values of the other FROM items' columns (UPDATE's FROM,
	// DELETE's USING) that RETURNING reads, from the row the target row
	// was joined with; then, with Check, the row policy's verdict.
	Matches  Node
	Image    bool
	Returned int
	// Prune is the part of the WHERE clause (and the row policy) Iceberg
	// can evaluate on file statistics: files it rules out hold no changed
	// row. nil prunes nothing.
	Prune iceberg.BooleanExpression
	// Returning computes RETURNING over Changed: for each changed row its
	// image and Returned values, as Matches yields them. nil without
	// RETURNING.
	Returning Node
	Changed   *WorkTable
	// Check says Matches ends with a boolean column that must be true for
	// every new image: the row policy applied to the new row (UPDATE).
	Check bool
}

// rewriteTarget is the bound target table of a DELETE or UPDATE.
type rewriteTarget struct {
	tbl       Table
	qualifier string
	work      *WorkTable
	node      Node   // the work table under the row policy's barrier
	sc        *scope // the table columns by name (stored values); the row id is not in it
	// user is what the statement's own expressions (WHERE, SET values,
	// the ON of MERGE) see: the visible columns, masked ones through
	// their masks. It is sc when no mask or restriction applies.
	user *scope
	// guarded marks the columns the caller may not assign: masked or
	// restricted for it.
	guarded map[int]bool
	rowID   Column
	policy  Expr   // the row policy's filter, nil without one
	guard   *Guard // what secures the target's work table; nil for none
	// rowFilters are the row policy's expressions, to check new images.
	rowFilters []string
}

// bindRewriteTarget binds the target of a DELETE, UPDATE or MERGE as a
// work table holding the table's candidate rows. Gate two applies as for
// a SELECT: the statement sees (and so changes) only the rows the row
// policy admits, and its expressions see masked columns only through
// their masks, restricted ones not at all; the rows it writes back keep
// the stored values of the columns it does not assign, and it may not
// assign a masked or restricted column.
func (b *Binder) bindRewriteTarget(rv *pg_query.RangeVar, tbl Table, verb string) (*rewriteTarget, error) {
	if !rv.Inh {
		return nil, pgerror.Unsupported("ONLY is not supported")
	}
	rel, err := b.security.Secure(b.ctx, tbl)
	if err != nil {
		return nil, err
	}
	tcols := tbl.Columns()
	t := &rewriteTarget{tbl: tbl, qualifier: rv.Relname}
	if rv.Alias != nil {
		t.qualifier = rv.Alias.Aliasname
	}
	t.work = &WorkTable{Name: t.qualifier}
	t.sc = &scope{}
	idx := make([]int, len(tcols))
	for i, c := range tcols {
		col := b.newColumn(c.Name, Column{Type: c.Type, Qualifier: t.qualifier, TableOID: tbl.OID(),
			AttNum: int16(i + 1), Nullable: c.Nullable})
		t.work.Cols = append(t.work.Cols, col)
		t.sc.cols = append(t.sc.cols, col)
		idx[i] = i
	}
	t.rowID = b.newColumn("?row?", Column{Type: types.Int8})
	t.work.Cols = append(t.work.Cols, t.rowID)
	sr := b.secureRelation(t.work, rel, t.sc.cols, idx, t.qualifier, true)
	t.node, t.policy, t.guard = sr.node, sr.policy, sr.guard
	t.user = t.sc
	if len(rel.RowFilters) > 0 {
		t.rowFilters = rel.RowFilters
	}
	if sr.guard != nil && len(sr.guard.Hidden) > 0 {
		t.user = &scope{cols: sr.user}
		visible := map[int]bool{}
		for _, i := range rel.Visible {
			visible[i] = true
		}
		t.guarded = map[int]bool{}
		for i := range tcols {
			if _, masked := rel.Masks[i]; masked || !visible[i] {
				t.guarded[i] = true
			}
		}
	}
	return t, nil
}

// writeBack records that cols, the Matches columns carrying the new row
// images, may be computed from the target's hidden columns: the rows
// written back keep the stored values of the columns not assigned.
func (t *rewriteTarget) writeBack(cols []Column) {
	if t.guard == nil {
		return
	}
	for _, c := range cols {
		t.guard.WriteBack = append(t.guard.WriteBack, c.ID)
	}
}

// joinOthers joins the target with the other FROM items of the
// statement (DELETE's USING, UPDATE's FROM).
func (b *Binder) joinOthers(t *rewriteTarget, from []*pg_query.Node) (Node, *scope, error) {
	if len(from) == 0 {
		return t.node, t.user, nil
	}
	other, osc, err := b.bindFrom(from)
	if err != nil {
		return nil, nil, err
	}
	if err := checkDistinctQualifiers(t.user, osc); err != nil {
		return nil, nil, err
	}
	return &Join{Left: t.node, Right: other, Kind: InnerJoin}, t.user.concat(osc), nil
}

// bindRewriteWhere binds the WHERE clause over sc and returns the
// filtered node and the predicate (nil without WHERE).
func (b *Binder) bindRewriteWhere(node Node, sc *scope, where *pg_query.Node) (Node, Expr, error) {
	if where == nil {
		return node, nil, nil
	}
	if containsAggregate(where) {
		return nil, nil, pgerror.New(pgerror.GroupingError, "aggregate functions are not allowed in WHERE")
	}
	pred, err := b.bindExpr(where, &exprCtx{scope: sc, clause: "WHERE"})
	if err != nil {
		return nil, nil, err
	}
	if pred, err = b.requireBool(pred, 0, "WHERE"); err != nil {
		return nil, nil, err
	}
	return &Filter{Input: node, Pred: pred}, pred, nil
}

// prune translates the conjuncts of the WHERE predicate and the row
// policy that read only target columns into an Iceberg filter for file
// pruning. Only leakproof user conjuncts are used, as for a scan.
func (t *rewriteTarget) prune(where Expr) iceberg.BooleanExpression {
	scan := &Scan{Table: t.tbl, Cols: t.sc.cols}
	for i := range t.sc.cols {
		scan.TableColumns = append(scan.TableColumns, i)
	}
	var out iceberg.BooleanExpression
	add := func(e Expr, needLeakproof bool) {
		for _, p := range SplitConjuncts(e) {
			if needLeakproof && !p.Leakproof() {
				continue
			}
			ie := toIceberg(p, scan)
			if ie == nil {
				continue
			}
			if out == nil {
				out = ie
			} else {
				out = iceberg.NewAnd(out, ie)
			}
		}
	}
	if where != nil {
		add(where, true)
	}
	if t.policy != nil {
		add(t.policy, false)
	}
	return out
}

// rewriteReturning is the bound RETURNING of a DELETE or UPDATE.
type rewriteReturning struct {
	node Node
	// work stands for the changed rows: the table's columns, then the
	// other FROM items' columns RETURNING reads.
	work *WorkTable
	// returned reads those other columns from the joined rows, for
	// Matches to carry.
	returned []Expr
}

// bindRewriteReturning binds RETURNING over the changed rows. As in
// PostgreSQL it sees the table's columns (the new values for UPDATE, the
// old for DELETE) and the columns of the other FROM items (sc after the
// target's columns) as they were in the row the target row was joined
// with; * lists them all, the table's first. nil without RETURNING.
func (b *Binder) bindRewriteReturning(t *rewriteTarget, sc *scope, list []*pg_query.Node, relname string) (*rewriteReturning, error) {
	if len(list) == 0 {
		return nil, nil
	}
	if t.guarded != nil {
		// RETURNING would show the stored values of the changed rows.
		return nil, pgerror.New(pgerror.InsufficientPrivilege, "permission denied for table %s", relname).
			WithDetail("RETURNING is not allowed on a table with masked or restricted columns for this user.")
	}
	ins := &insertBinding{b: b, tbl: t.tbl, tcols: t.tbl.Columns(), relname: relname}
	rowCols := ins.rowColumns(t.qualifier)
	others := sc.cols[len(t.user.cols):]
	copies := make([]Column, len(others))
	rsc := &scope{cols: append([]Column(nil), rowCols...)}
	for i, c := range others {
		copies[i] = b.newColumn(c.Name, c)
		rsc.cols = append(rsc.cols, copies[i])
		if sc.hidden[c.ID] {
			rsc.hide(copies[i].ID)
		}
	}
	targets, err := b.bindTargets(list, rsc, &exprCtx{scope: rsc, clause: "RETURNING"})
	if err != nil {
		return nil, err
	}
	used := map[ColumnID]bool{}
	for _, tg := range targets {
		ExprColumns(tg.expr, used)
	}
	ret := &rewriteReturning{work: &WorkTable{Name: t.qualifier, Cols: rowCols}}
	for i, c := range copies {
		if used[c.ID] {
			ret.work.Cols = append(ret.work.Cols, c)
			ret.returned = append(ret.returned, &ColRef{ID: others[i].ID, Name: others[i].Name, Typ: others[i].Type})
		}
	}
	if ret.node, err = b.returningProject(ret.work, targets); err != nil {
		return nil, err
	}
	return ret, nil
}

// finishReturning completes plan with RETURNING: the changed rows'
// images and the other FROM items' values RETURNING reads ride on m, the
// Matches projection.
func (b *Binder) finishReturning(plan *RewritePlan, m *Project, ret *rewriteReturning) {
	if ret == nil {
		return
	}
	for _, e := range ret.returned {
		cr := e.(*ColRef)
		m.Exprs = append(m.Exprs, e)
		m.Cols = append(m.Cols, b.newColumn(cr.Name, Column{Type: cr.Typ, Nullable: true}))
	}
	plan.Returned = len(ret.returned)
	plan.Returning, plan.Changed = ret.node, ret.work
}

// rowIDProject is the Matches projection: the target's row id first,
// then exprs.
func (b *Binder) rowIDProject(t *rewriteTarget, input Node, exprs []Expr) *Project {
	p := &Project{Input: input}
	p.Exprs = append(p.Exprs, &ColRef{ID: t.rowID.ID, Name: t.rowID.Name, Typ: t.rowID.Type})
	p.Cols = append(p.Cols, b.newColumn(t.rowID.Name, Column{Type: types.Int8}))
	for i, e := range exprs {
		c := t.tbl.Columns()[i]
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, b.newColumn(c.Name, Column{Type: c.Type, Nullable: true}))
	}
	return p
}
