package sql

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/storage"
)

// catalogSource is the session's view of the server that pg_catalog and
// information_schema are computed from. Namespaces and tables are listed
// through storage as the caller, so gate one decides what appears: an
// object it refuses is simply absent.
type catalogSource struct {
	s *Session
}

var _ pgcatalog.Source = catalogSource{}

func (c catalogSource) Database() string    { return c.s.database }
func (c catalogSource) Databases() []string { return c.s.engine.CatalogNames() }
func (c catalogSource) User() string        { return c.s.identity.User }
func (c catalogSource) Roles() []string     { return c.s.identity.Roles }
func (c catalogSource) Superuser() bool     { return c.s.superuser }
func (c catalogSource) BackendPID() int32   { return c.s.backend.pid }
func (c catalogSource) Settings() [][2]string {
	return c.s.settings.all()
}

func (c catalogSource) Namespaces(ctx context.Context) ([]string, error) {
	cat, err := c.s.engine.catalog(c.s.database)
	if err != nil {
		return nil, err
	}
	return visibleNamespaces(c.s.callerContext(ctx), cat)
}

// visibleNamespaces lists the namespaces of cat the principal in ctx may
// see. Listing is authorized for the catalog as a whole; each namespace is
// then shown only if the caller may see it.
func visibleNamespaces(ctx context.Context, cat storage.Catalog) ([]string, error) {
	names, err := cat.ListNamespaces(ctx)
	if errors.Is(err, storage.ErrForbidden) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list namespaces of %s: %w", cat.Name(), err)
	}
	out := names[:0:0]
	for _, ns := range names {
		ok, err := cat.NamespaceExists(ctx, ns)
		switch {
		case errors.Is(err, storage.ErrForbidden):
			continue
		case err != nil:
			return nil, fmt.Errorf("check namespace %s: %w", ns, err)
		case ok:
			out = append(out, ns)
		}
	}
	return out, nil
}

func (c catalogSource) Tables(ctx context.Context, namespace string) ([]pgcatalog.TableInfo, error) {
	cat, err := c.s.engine.catalog(c.s.database)
	if err != nil {
		return nil, err
	}
	ctx = c.s.callerContext(ctx)
	names, err := cat.ListTables(ctx, namespace)
	if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchNamespace) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", namespace, err)
	}
	out := make([]pgcatalog.TableInfo, 0, len(names))
	for _, name := range names {
		t, err := cat.LoadTable(ctx, namespace, name)
		if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchTable) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load table %s.%s: %w", namespace, name, err)
		}
		a, err := newTableAdapter(t)
		if err != nil {
			// A table with a column type SQE cannot present yet is left
			// out of the catalog rather than failing every introspection.
			continue
		}
		info := pgcatalog.TableInfo{
			Namespace: namespace, Name: name, OID: a.OID(),
			Columns: a.Columns(), RowEstimate: c.visibleRowEstimate(ctx, a),
		}
		addComments(&info, t)
		c.addDefaults(ctx, &info, t)
		out = append(out, info)
	}
	views, err := c.views(ctx, cat, namespace)
	if err != nil {
		return nil, err
	}
	return append(out, views...), nil
}

// visibleRowEstimate is the table's row count as pg_class.reltuples and
// the statistics views show it: unknown (-1) to a caller who sees the
// table through a row filter, since the count includes the rows it may
// not see.
func (c catalogSource) visibleRowEstimate(ctx context.Context, a *tableAdapter) int64 {
	if c.s.security == nil {
		return a.RowEstimate()
	}
	rel, err := c.s.security.Secure(ctx, a)
	if err != nil || len(rel.RowFilters) > 0 {
		return -1
	}
	return a.RowEstimate()
}
