package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// BindUpdate binds UPDATE tbl [AS alias] SET ... [FROM ...] [WHERE ...]
// [RETURNING ...] as PostgreSQL's transformUpdateStmt does: Matches
// yields the row id and the new image of every target row the WHERE
// clause accepts, each assigned value converted to its column's type by
// assignment, then the FROM items' values RETURNING reads. defaults
// holds the DEFAULT expression of the columns that have one, by column
// index. With a row policy, Matches ends with a boolean column: whether
// the new image passes the policy (Check).
func (b *Binder) BindUpdate(stmt *pg_query.UpdateStmt, tbl Table, defaults map[int]*pg_query.Node) (*RewritePlan, error) {
	if stmt.WithClause != nil {
		return nil, pgerror.Unsupported("WITH in UPDATE is not supported yet")
	}
	if containsCurrentOf(stmt.WhereClause) {
		return nil, pgerror.Unsupported("WHERE CURRENT OF is not supported")
	}
	t, err := b.bindRewriteTarget(stmt.Relation, tbl, "UPDATE")
	if err != nil {
		return nil, err
	}
	node, sc, err := b.joinOthers(t, stmt.FromClause)
	if err != nil {
		return nil, err
	}
	node, pred, err := b.bindRewriteWhere(node, sc, stmt.WhereClause)
	if err != nil {
		return nil, err
	}
	ins := &insertBinding{b: b, tbl: tbl, tcols: tbl.Columns(), defaults: defaults, relname: stmt.Relation.Relname}
	images, err := b.bindSetClause(ins, t, sc, stmt.TargetList)
	if err != nil {
		return nil, err
	}
	ret, err := b.bindRewriteReturning(t, sc, stmt.ReturningList, stmt.Relation.Relname)
	if err != nil {
		return nil, err
	}
	plan := &RewritePlan{Table: tbl, Target: t.work, Prune: t.prune(pred), Image: true}
	m := b.rowIDProject(t, node, images)
	t.writeBack(m.Cols[1 : 1+len(images)])
	b.finishReturning(plan, m, ret)
	plan.Matches = m
	if t.policy != nil {
		plan.Matches = b.withPolicyCheck(t, m)
		plan.Check = true
	}
	b.settleParams()
	return plan, nil
}

// bindSetClause binds the SET list over sc and returns the new image of
// a row: the assigned value of each assigned column, the old value of
// the others.
func (b *Binder) bindSetClause(ins *insertBinding, t *rewriteTarget, sc *scope, list []*pg_query.Node) ([]Expr, error) {
	images := make([]Expr, len(ins.tcols))
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			return nil, b.unsupportedNode(n)
		}
		if len(rt.Indirection) > 0 {
			return nil, pgerror.Unsupported("subscripts and fields in an UPDATE target are not supported")
		}
		col := -1
		for i, c := range ins.tcols {
			if c.Name == rt.Name {
				col = i
				break
			}
		}
		if col < 0 {
			return nil, b.errAt(rt.Location, pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", rt.Name, ins.relname)
		}
		if images[col] != nil {
			return nil, b.errAt(rt.Location, pgerror.SyntaxError, "multiple assignments to same column \"%s\"", rt.Name)
		}
		if t.guarded[col] {
			return nil, b.errAt(rt.Location, pgerror.InsufficientPrivilege, "permission denied for column \"%s\" of relation \"%s\"", rt.Name, ins.relname).
				WithDetail("The column is masked or restricted for this user.")
		}
		val := rt.Val
		if m := val.GetMultiAssignRef(); m != nil {
			row := m.Source.GetRowExpr()
			if row == nil {
				return nil, pgerror.Unsupported("a sub-SELECT as the source of a multiple-column UPDATE is not supported yet")
			}
			if int(m.Ncolumns) != len(row.Args) {
				return nil, b.errAt(rt.Location, pgerror.SyntaxError, "number of columns does not match number of values")
			}
			val = row.Args[m.Colno-1]
		}
		var e Expr
		var err error
		if val.GetSetToDefault() != nil {
			e, err = ins.defaultFor(col)
		} else {
			if e, err = b.bindExpr(val, &exprCtx{scope: sc, clause: "UPDATE"}); err == nil {
				e, err = ins.assign(e, col, firstLocation([]*pg_query.Node{val}))
			}
		}
		if err != nil {
			return nil, err
		}
		images[col] = e
	}
	for i, c := range t.sc.cols {
		if images[i] == nil {
			images[i] = &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
		}
	}
	return images, nil
}

// withPolicyCheck appends to Matches whether each new image (the table's
// columns after the row id) passes the row policy: PostgreSQL checks an
// updated row against the policy's USING expression when it has no WITH
// CHECK, so an UPDATE cannot move a row out of what its user may see.
func (b *Binder) withPolicyCheck(t *rewriteTarget, m *Project) Node {
	out := &Project{Input: m}
	img := &scope{}
	for i, c := range m.Cols {
		out.Exprs = append(out.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		out.Cols = append(out.Cols, b.newColumn(c.Name, Column{Type: c.Type, Nullable: true}))
		if i > 0 && i <= len(t.sc.cols) {
			img.cols = append(img.cols, c)
		}
	}
	out.Exprs = append(out.Exprs, b.bindPolicyFilters(t.rowFilters, img))
	out.Cols = append(out.Cols, b.newColumn("?check?", Column{Type: types.Bool, Nullable: true}))
	return out
}
