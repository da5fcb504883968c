package sql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// View properties SQE keeps beside the Iceberg view's SQL and schema.
const (
	// propViewSearchPath is the search_path in force when the view was
	// created (a JSON list of schemas): the view's query resolves
	// unqualified names with it, wherever it is read from, as PostgreSQL
	// binds a view's names once at creation.
	propViewSearchPath = "sqe.search-path"
	// propViewColumnTypes are the PostgreSQL types of the view's columns
	// (JSON), which the Iceberg view schema cannot all express.
	propViewColumnTypes = "sqe.column-types"
	// propViewComment is the view's COMMENT, as Iceberg's "comment"
	// table property holds a table's.
	propViewComment = "comment"
)

// schemas is the search path names resolve in.
func (c *sessionCatalog) schemas() []string {
	if c.searchPath != nil {
		return c.searchPath
	}
	return c.s.settings.searchPath(c.s.identity.User)
}

// loadView loads the view ns.name for the planner; found is false when
// there is no such view.
func (c *sessionCatalog) loadView(ctx context.Context, cat storage.Catalog, ns, name string) (*planner.View, bool, error) {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil, false, nil
	}
	sv, err := vc.LoadView(ctx, ns, name)
	switch {
	case err == nil:
	case errors.Is(err, storage.ErrNoSuchView), errors.Is(err, storage.ErrNoSuchNamespace):
		return nil, false, nil
	case errors.Is(err, storage.ErrForbidden):
		return nil, true, pgerror.Wrap(err, pgerror.InsufficientPrivilege, "permission denied for view %s", name)
	default:
		return nil, true, fmt.Errorf("load view %s.%s: %w", ns, name, err)
	}
	v, err := c.s.plannerView(sv)
	return v, true, err
}

// plannerView presents a stored view to the planner.
func (s *Session) plannerView(sv *storage.View) (*planner.View, error) {
	path, typs, err := viewProperties(sv)
	if err != nil {
		return nil, err
	}
	return &planner.View{
		Name:    planner.TableName{Catalog: sv.Ident.Catalog, Schema: sv.Ident.Namespace, Name: sv.Ident.Table},
		OID:     TableOID(sv.Ident),
		Query:   sv.SQL,
		Columns: sv.Columns,
		Types:   typs,
		Catalog: &sessionCatalog{s: s, searchPath: path},
	}, nil
}

// viewProperties decodes the search path and column types of a view. A
// view written by another engine has neither: its names resolve in its
// own schema and its column types are taken as text.
func viewProperties(sv *storage.View) ([]string, []types.T, error) {
	path := []string{sv.Ident.Namespace}
	if raw, ok := sv.Properties[propViewSearchPath]; ok {
		if err := json.Unmarshal([]byte(raw), &path); err != nil {
			return nil, nil, fmt.Errorf("view %s: bad %s: %w", sv.Ident, propViewSearchPath, err)
		}
	}
	typs := make([]types.T, len(sv.Columns))
	for i := range typs {
		typs[i] = types.Text
	}
	if raw, ok := sv.Properties[propViewColumnTypes]; ok {
		var stored []types.T
		if err := json.Unmarshal([]byte(raw), &stored); err != nil {
			return nil, nil, fmt.Errorf("view %s: bad %s: %w", sv.Ident, propViewColumnTypes, err)
		}
		copy(typs, stored)
	}
	// An empty path still resolves nothing rather than falling back to
	// the reader's search_path.
	if path == nil {
		path = []string{}
	}
	return path, typs, nil
}

// views lists the views of namespace the caller may see, for the
// pg_catalog and information_schema relations.
func (c catalogSource) views(ctx context.Context, cat storage.Catalog, namespace string) ([]pgcatalog.TableInfo, error) {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil, nil
	}
	names, err := vc.ListViews(ctx, namespace)
	if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchNamespace) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list views of %s: %w", namespace, err)
	}
	out := make([]pgcatalog.TableInfo, 0, len(names))
	for _, name := range names {
		sv, err := vc.LoadView(ctx, namespace, name)
		if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchView) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load view %s.%s: %w", namespace, name, err)
		}
		_, typs, err := viewProperties(sv)
		if err != nil {
			// A view SQE cannot describe is left out rather than failing
			// every introspection query.
			continue
		}
		info := pgcatalog.TableInfo{
			Namespace: namespace, Name: name, OID: TableOID(sv.Ident), RowEstimate: -1,
			Comment: sv.Properties[propViewComment], View: true, Definition: viewDefinitionText(sv.SQL),
		}
		for i, col := range sv.Columns {
			info.Columns = append(info.Columns, planner.TableColumn{Name: col, Type: typs[i], Nullable: true})
		}
		out = append(out, info)
	}
	return out, nil
}

// viewDefinitionText is a view's query as pg_get_viewdef presents it: a
// leading space and a closing semicolon around the statement. The
// statement is SQE's normalised text, not PostgreSQL's reconstruction
// from the rewrite rule, so its layout differs.
func viewDefinitionText(sql string) string {
	return " " + sql + ";"
}

// viewDefFunction is pg_get_viewdef(oid [, pretty bool | wrap int]): the
// definition of a view the caller can see, NULL for any other OID.
func viewDefFunction(fn func([]types.T, types.T, planner.RowFunc) (*planner.SessionFunction, bool, error), args []types.T, index *catalogIndex) (*planner.SessionFunction, bool, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, false, nil
	}
	argTypes := []types.T{types.OID}
	if len(args) == 2 {
		argTypes = append(argTypes, types.Int4)
		if args[1].OID == types.OIDBool {
			argTypes[1] = types.Bool
		}
	}
	return fn(argTypes, types.Text, func(a []any) (any, error) {
		if a[0] == nil {
			return nil, nil
		}
		t, found, err := index.table(uint32(a[0].(int64)))
		if err != nil || !found || !t.View {
			return nil, err
		}
		return t.Definition, nil
	})
}
