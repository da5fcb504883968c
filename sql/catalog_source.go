package sql

import (
	"context"
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/planner"
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
	list := func() ([]string, error) { return visibleNamespaces(c.s.callerContext(ctx), cat) }
	view, ok, err := c.catalogView(ctx, cat)
	if err != nil {
		return nil, err
	}
	if !ok {
		return list()
	}
	return view.cachedNamespaces(list)
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
	load := func() ([]pgcatalog.TableInfo, error) { return c.tables(ctx, cat, namespace) }
	view, ok, err := c.catalogView(ctx, cat)
	if err != nil {
		return nil, err
	}
	if !ok {
		return load()
	}
	return view.cachedTables(namespace, load)
}

// tables computes what Tables returns.
func (c catalogSource) tables(ctx context.Context, cat storage.Catalog, namespace string) ([]pgcatalog.TableInfo, error) {
	ctx = c.s.callerContext(ctx)
	tables, err := storage.LoadTables(ctx, cat, namespace)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", namespace, err)
	}
	out := make([]pgcatalog.TableInfo, 0, len(tables))
	for _, t := range tables {
		name := t.Ident().Table
		a, err := newTableAdapter(t)
		if err != nil {
			// A table with a column type SQE cannot present yet is left
			// out of the catalog rather than failing every introspection.
			continue
		}
		rel, secured := c.secure(ctx, a)
		info := pgcatalog.TableInfo{
			Namespace: namespace, Name: name, OID: a.OID(),
			Columns: a.Columns(), RowEstimate: -1, FilesSize: -1,
		}
		if secured {
			// The row count and the files' size tell of rows a row
			// filter hides: unknown to a caller under one.
			if len(rel.RowFilters) == 0 {
				info.RowEstimate = a.RowEstimate()
				info.FilesSize = t.FilesSize()
			}
			info.Statistics = visibleStatistics(t, rel)
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

// secure is the caller's view of the table (gate two); ok is false when
// it cannot be decided, and then nothing the table's metadata says of its
// rows or values is shown.
func (c catalogSource) secure(ctx context.Context, a *tableAdapter) (*planner.SecuredRelation, bool) {
	if c.s.security == nil {
		rel, err := planner.OpenRelation{}.Secure(ctx, a)
		return rel, err == nil
	}
	rel, err := c.s.security.Secure(ctx, a)
	return rel, err == nil
}

// visibleStatistics are ANALYZE's statistics of the columns rel lets the
// caller see, as pg_stats shows them. pg_class.reltuples and the
// statistics views show the row count unknown (-1) to a caller who sees
// the table through a row filter, since it counts the rows the caller
// may not see; for the same reason every statistic of such a table is
// withheld (NULL fractions and distinct counts would tell of hidden
// rows), and so are those of a masked column, which describe the values
// the mask hides. A restricted column is not listed at all.
func visibleStatistics(t *storage.Table, rel *planner.SecuredRelation) []pgcatalog.ColumnStatistics {
	st, ok := t.Statistics()
	if !ok {
		return nil
	}
	fields := t.Schema().Fields()
	var out []pgcatalog.ColumnStatistics
	for _, i := range rel.Visible {
		if i < 0 || i >= len(fields) {
			continue
		}
		cs, ok := st.Columns[storage.FieldID(fields[i].Metadata.ToMap())]
		if !ok {
			continue
		}
		_, masked := rel.Masks[i]
		out = append(out, pgcatalog.ColumnStatistics{
			Column:   i,
			Withheld: masked || len(rel.RowFilters) > 0,
			Rows:     cs.Rows, Nulls: cs.Nulls, Distinct: cs.Distinct, AvgWidth: cs.AvgWidth,
		})
	}
	return out
}
