package planner

import (
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// bindFrom binds the FROM clause. SQE reads one relation per query for
// now; joins arrive with the engine work.
func (b *Binder) bindFrom(from []*pg_query.Node) (Node, *scope, error) {
	switch len(from) {
	case 0:
		return OneRow{}, &scope{}, nil
	case 1:
	default:
		return nil, nil, pgerror.Unsupported("joins are not supported yet")
	}
	rv := from[0].GetRangeVar()
	if rv == nil {
		return nil, nil, b.unsupportedNode(from[0])
	}
	return b.bindRangeVar(rv)
}

// bindRangeVar resolves a table reference as the caller (gate one) and
// expands it into the secured relation (gate two): a scan of the visible
// columns, a barrier filter with the row filters, and a masking
// projection.
func (b *Binder) bindRangeVar(rv *pg_query.RangeVar) (Node, *scope, error) {
	if !rv.Inh {
		return nil, nil, pgerror.Unsupported("ONLY is not supported")
	}
	name := TableName{Catalog: rv.Catalogname, Schema: rv.Schemaname, Name: rv.Relname}
	tbl, err := b.catalog.ResolveTable(b.ctx, name)
	if err != nil {
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Position == 0 {
			return nil, nil, pe.WithPosition(b.position(rv.Location))
		}
		return nil, nil, err
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
	byTableIdx := make(map[int]Column, len(tcols))
	for _, i := range rel.Visible {
		c := b.newColumn(tcols[i].Name, Column{
			Type: tcols[i].Type, Qualifier: qualifier, TableOID: tbl.OID(),
			AttNum: int16(i + 1), Nullable: tcols[i].Nullable,
		})
		scan.TableColumns = append(scan.TableColumns, i)
		scan.Cols = append(scan.Cols, c)
		byTableIdx[i] = c
	}
	// Policy expressions are written against the table's own column names
	// and see stored values, restricted columns included.
	hidden := &scope{}
	for _, c := range scan.Cols {
		hidden.cols = append(hidden.cols, c)
	}
	var node Node = scan
	if len(rel.RowFilters) > 0 {
		pred := b.bindPolicyFilters(rel.RowFilters, hidden)
		node = &Filter{Input: node, Pred: pred, Barrier: true}
	}
	if len(rel.Masks) > 0 {
		proj := &Project{Input: node, Masking: true}
		for _, i := range rel.Visible {
			c := byTableIdx[i]
			expr, ok := rel.Masks[i]
			if !ok {
				proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
				proj.Cols = append(proj.Cols, c)
				continue
			}
			masked := b.bindPolicyMask(expr, c, hidden)
			out := b.newColumn(c.Name, Column{Type: masked.Type(), Qualifier: qualifier, Nullable: true})
			proj.Exprs = append(proj.Exprs, masked)
			proj.Cols = append(proj.Cols, out)
		}
		node = proj
	}
	return node, &scope{cols: node.Columns()}, nil
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
