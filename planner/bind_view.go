package planner

import (
	"context"
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// View is a stored view. A reference to it is expanded where it appears,
// as a subquery in FROM, so both access gates and every optimizer rule
// apply to the tables the view reads exactly as to the query written out:
// the caller's own grants and policies decide (security invoker), and a
// view can never widen what its reader sees.
type View struct {
	Name TableName
	OID  uint32
	// Query is the view's SELECT statement.
	Query string
	// Columns are the view's column names, fixed when it was created.
	Columns []string
	// Types are the column types recorded when the view was created.
	Types []types.T
	// Catalog resolves the names in Query: the search_path in force when
	// the view was created, so a later search_path does not change what
	// the view reads. Nil means the referencing query's catalog.
	Catalog Catalog
}

// ViewCatalog is a Catalog that also holds views.
type ViewCatalog interface {
	Catalog
	// ResolveRelation resolves name to a table or a view, searching each
	// schema of search_path for both before the next schema, as
	// PostgreSQL does. Exactly one of the results is non-nil on success.
	ResolveRelation(ctx context.Context, name TableName) (Table, *View, error)
}

// codeInvalidObjectDefinition is PostgreSQL's invalid_object_definition,
// which it raises for a view that expands into itself.
const codeInvalidObjectDefinition = "42P17"

// maxViewDepth bounds view expansion; a view that (after OR REPLACE)
// reads itself would otherwise expand forever.
const maxViewDepth = 64

// resolveRelation resolves a table reference to a table or a view.
func (b *Binder) resolveRelation(name TableName) (Table, *View, error) {
	if vc, ok := b.catalog.(ViewCatalog); ok {
		return vc.ResolveRelation(b.ctx, name)
	}
	t, err := b.catalog.ResolveTable(b.ctx, name)
	return t, nil, err
}

// bindView expands a view reference: the view's query is bound on its own
// (it sees neither the referencing query's WITH queries nor its outer
// columns) and its output is relabelled with the view's column names,
// under the reference's alias.
func (b *Binder) bindView(rv *pg_query.RangeVar, v *View) (Node, *scope, error) {
	for _, seen := range b.viewPath {
		if seen == v.Name {
			return nil, nil, pgerror.New(codeInvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", v.Name.Name)
		}
	}
	if len(b.viewPath) >= maxViewDepth {
		return nil, nil, pgerror.New(codeInvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", v.Name.Name)
	}
	tree, err := pg_query.Parse(v.Query)
	if err != nil || len(tree.Stmts) != 1 || tree.Stmts[0].Stmt.GetSelectStmt() == nil {
		return nil, nil, pgerror.New(pgerror.InternalError, "stored query of view \"%s\" is not a SELECT statement", v.Name.Name)
	}
	cat := v.Catalog
	if cat == nil {
		cat = b.catalog
	}
	inner := &Binder{
		ctx: b.ctx, catalog: cat, security: b.security, query: v.Query,
		nextID: b.nextID, session: b.session, defaultVersion: b.defaultVersion,
		viewPath: append(append([]TableName(nil), b.viewPath...), v.Name),
	}
	node, err := inner.bindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	b.nextID = inner.nextID
	if err != nil {
		// A position would point into the view's text, not the query's.
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Position != 0 {
			return nil, nil, pe.WithPosition(0)
		}
		return nil, nil, err
	}
	cols := node.Columns()
	if len(cols) < len(v.Columns) {
		return nil, nil, pgerror.New(codeInvalidObjectDefinition, "view \"%s\" no longer matches its definition: it has %d columns, its query now returns %d", v.Name.Name, len(v.Columns), len(cols)).
			WithHint("Recreate the view with CREATE OR REPLACE VIEW.")
	}
	qualifier := rv.Relname
	var aliases []*pg_query.Node
	if rv.Alias != nil {
		qualifier = rv.Alias.Aliasname
		aliases = rv.Alias.Colnames
	}
	if len(aliases) > len(v.Columns) {
		return nil, nil, pgerror.New(pgerror.InvalidColumnReference, "table \"%s\" has %d columns available but %d columns specified", qualifier, len(v.Columns), len(aliases))
	}
	// Columns a base table gained after the view was created are not the
	// view's: PostgreSQL expands * when the view is made.
	proj := &Project{Input: node}
	for i, name := range v.Columns {
		c := cols[i]
		if i < len(aliases) {
			name = aliases[i].GetString_().GetSval()
		}
		proj.Exprs = append(proj.Exprs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
		proj.Cols = append(proj.Cols, b.newColumn(name, Column{
			Type: c.Type, Qualifier: qualifier, TableOID: v.OID, AttNum: int16(i + 1), Nullable: true,
		}))
	}
	return proj, &scope{cols: proj.Cols}, nil
}
