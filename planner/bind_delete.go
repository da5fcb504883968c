package planner

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// BindDelete binds DELETE FROM tbl [AS alias] [USING ...] [WHERE ...]
// [RETURNING ...]: Matches yields the row id of every target row the
// WHERE clause accepts, joined with the USING items as PostgreSQL does,
// and with RETURNING the row and the USING items' values it reads.
func (b *Binder) BindDelete(stmt *pg_query.DeleteStmt, tbl Table) (*RewritePlan, error) {
	if stmt.WithClause != nil {
		return nil, pgerror.Unsupported("WITH in DELETE is not supported yet")
	}
	if containsCurrentOf(stmt.WhereClause) {
		return nil, pgerror.Unsupported("WHERE CURRENT OF is not supported")
	}
	t, err := b.bindRewriteTarget(stmt.Relation, tbl, "DELETE")
	if err != nil {
		return nil, err
	}
	node, sc, err := b.joinOthers(t, stmt.UsingClause)
	if err != nil {
		return nil, err
	}
	node, pred, err := b.bindRewriteWhere(node, sc, stmt.WhereClause)
	if err != nil {
		return nil, err
	}
	ret, err := b.bindRewriteReturning(t, sc, stmt.ReturningList, stmt.Relation.Relname)
	if err != nil {
		return nil, err
	}
	plan := &RewritePlan{Table: tbl, Target: t.work, Prune: t.prune(pred)}
	var image []Expr
	if ret != nil {
		// RETURNING reads the deleted rows as Matches found them.
		for _, c := range t.sc.cols {
			image = append(image, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		}
		plan.Image = true
	}
	m := b.rowIDProject(t, node, image)
	b.finishReturning(plan, m, ret)
	plan.Matches = m
	b.settleParams()
	return plan, nil
}

// containsCurrentOf reports WHERE CURRENT OF cursor.
func containsCurrentOf(n *pg_query.Node) bool {
	return n != nil && n.GetCurrentOfExpr() != nil
}
