package sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// codeInvalidTableDefinition is PostgreSQL's invalid_table_definition,
// raised when CREATE OR REPLACE VIEW would change existing columns.
const codeInvalidTableDefinition = "42P16"

// viewColumn is one column of a view being created.
type viewColumn struct {
	name string
	typ  types.T
}

// runCreateView runs CREATE [OR REPLACE] VIEW. The query is bound as the
// caller to check it and to fix the view's columns; what is stored is the
// query's text, normalised by the parser's deparser, with the search_path
// it was bound under (see propViewSearchPath).
func (s *Session) runCreateView(ctx context.Context, st *pg_query.ViewStmt, query string) (Result, error) {
	if st.WithCheckOption != pg_query.ViewCheckOption_NO_CHECK_OPTION {
		return nil, pgerror.Unsupported("WITH CHECK OPTION is not supported: SQE views are not updatable")
	}
	if err := viewOptions(st.Options); err != nil {
		return nil, err
	}
	sel := st.Query.GetSelectStmt()
	if sel == nil {
		return nil, pgerror.Unsupported("CREATE VIEW of this statement is not supported")
	}
	cat, ns, err := s.creationSchema(ctx, st.View)
	if err != nil {
		return nil, err
	}
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil, pgerror.Unsupported("catalog %s cannot store views", cat.Name())
	}
	name := st.View.Relname
	cols, deps, err := s.viewColumns(ctx, sel, query, st.Aliases)
	if err != nil {
		return nil, err
	}
	if st.Replace {
		if err := s.checkReplaceView(ctx, cat, vc, ns, name, cols); err != nil {
			return nil, err
		}
	}
	def, err := s.viewDefinition(st.Query, cols, deps)
	if err != nil {
		return nil, err
	}
	if err := vc.CreateView(ctx, ns, name, def, st.Replace); err != nil {
		return nil, relationErr(err, name)
	}
	return commandResult("CREATE VIEW"), nil
}

// viewOptions accepts the WITH options SQE's views already satisfy:
// security_invoker = true is how every SQE view behaves. Anything else,
// including asking for the view owner's rights, is refused.
func viewOptions(opts []*pg_query.Node) error {
	for _, o := range opts {
		d := o.GetDefElem()
		if d == nil {
			return pgerror.New(pgerror.SyntaxError, "unexpected view option")
		}
		if d.Defname == "security_invoker" {
			on, err := defBoolean(d)
			if err != nil {
				return err
			}
			if on {
				continue
			}
			return pgerror.Unsupported("security_invoker = false is not supported: a view always reads its tables with the caller's privileges and policies")
		}
		return pgerror.Unsupported("view option \"%s\" is not supported", d.Defname)
	}
	return nil
}

// viewColumns binds the view's query and names its columns: the column
// list of the statement first, then the query's own names. Untyped
// literals become text, as in PostgreSQL.
func (s *Session) viewColumns(ctx context.Context, sel *pg_query.SelectStmt, query string, aliases []*pg_query.Node) ([]viewColumn, []string, error) {
	p, deps, err := s.bindViewQuery(ctx, sel, query)
	if err != nil {
		return nil, nil, err
	}
	out := p.Root.Columns()
	if len(aliases) > len(out) {
		return nil, nil, pgerror.New(pgerror.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	cols := make([]viewColumn, len(out))
	seen := make(map[string]bool, len(out))
	for i, c := range out {
		name := c.Name
		if i < len(aliases) {
			name = aliases[i].GetString_().GetSval()
		}
		if seen[name] {
			return nil, nil, pgerror.New(pgerror.DuplicateColumn, "column \"%s\" specified more than once", name)
		}
		seen[name] = true
		t := c.Type
		if t.OID == types.OIDUnknown {
			t = types.Text
		}
		cols[i] = viewColumn{name: name, typ: t}
	}
	return cols, deps, nil
}

// checkReplaceView applies PostgreSQL's rules for CREATE OR REPLACE VIEW:
// the name must not be a table, and an existing view's columns must stay
// as they are (new ones may follow them).
func (s *Session) checkReplaceView(ctx context.Context, cat storage.Catalog, vc storage.ViewCatalog, ns, name string, cols []viewColumn) error {
	if _, err := cat.LoadTable(ctx, ns, name); err == nil {
		return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a view", name)
	} else if !errors.Is(err, storage.ErrNoSuchTable) {
		return err
	}
	old, err := vc.LoadView(ctx, ns, name)
	if errors.Is(err, storage.ErrNoSuchView) {
		return nil
	}
	if err != nil {
		return err
	}
	_, oldTypes, err := viewProperties(old)
	if err != nil {
		return err
	}
	if len(cols) < len(old.Columns) {
		return pgerror.New(codeInvalidTableDefinition, "cannot drop columns from view")
	}
	for i, oldName := range old.Columns {
		if cols[i].name != oldName {
			return pgerror.New(codeInvalidTableDefinition, "cannot change name of view column \"%s\" to \"%s\"", oldName, cols[i].name).
				WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
		}
		if !sameColumnType(cols[i].typ, oldTypes[i]) {
			return pgerror.New(codeInvalidTableDefinition, "cannot change data type of view column \"%s\" from %s to %s",
				oldName, oldTypes[i].Name(), cols[i].typ.Name())
		}
	}
	return nil
}

// viewDefinition is what the catalog stores for the view.
func (s *Session) viewDefinition(q *pg_query.Node, cols []viewColumn, deps []string) (storage.ViewDefinition, error) {
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: q}}})
	if err != nil {
		return storage.ViewDefinition{}, fmt.Errorf("deparse view query: %w", err)
	}
	fields := make([]arrow.Field, len(cols))
	typs := make([]types.T, len(cols))
	for i, c := range cols {
		fields[i] = arrow.Field{Name: c.name, Type: c.typ.Arrow(), Nullable: true}
		typs[i] = c.typ
	}
	path, err := json.Marshal(s.settings.searchPath(s.identity.User))
	if err != nil {
		return storage.ViewDefinition{}, fmt.Errorf("encode search path: %w", err)
	}
	rawDeps, err := json.Marshal(deps)
	if err != nil {
		return storage.ViewDefinition{}, fmt.Errorf("encode view dependencies: %w", err)
	}
	rawTypes, err := json.Marshal(typs)
	if err != nil {
		return storage.ViewDefinition{}, fmt.Errorf("encode view column types: %w", err)
	}
	return storage.ViewDefinition{
		SQL:    text,
		Schema: arrow.NewSchema(fields, nil),
		Properties: map[string]string{
			propViewSearchPath:  string(path),
			propViewColumnTypes: string(rawTypes),
			propViewDependsOn:   string(rawDeps),
		},
	}, nil
}

// sameColumnType compares types as PostgreSQL compares a view column's
// type and typmod. A computed numeric has no declared typmod; the scale
// SQE's binder gives it is an execution detail.
func sameColumnType(a, b types.T) bool {
	if a.OID == types.OIDNumeric && b.OID == types.OIDNumeric && a.Precision == 0 && b.Precision == 0 {
		return true
	}
	return a == b
}

// runCommentOnView runs COMMENT ON VIEW: the comment is the view property
// "comment"; NULL or ” removes it.
func (s *Session) runCommentOnView(ctx context.Context, parts []string, comment string) (Result, error) {
	rv, err := rangeVarFromParts(parts)
	if err != nil {
		return nil, err
	}
	cat, t, v, err := s.findRelation(ctx, rv)
	if err != nil {
		return nil, err
	}
	if t != nil {
		return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a view", rv.Relname)
	}
	if err := cat.(storage.ViewCatalog).SetViewProperties(ctx, v.Ident.Namespace, v.Ident.Table, map[string]string{propViewComment: comment}); err != nil {
		return nil, err
	}
	return commandResult("COMMENT"), nil
}
