package sql

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// SHOW SCHEMAS and SHOW TABLES list what the caller may see, through the
// same storage calls as pg_catalog, so gate one decides what appears: an
// object it refuses is absent, never a row with an error.

var (
	showSchemasColumns = []string{"schema_name"}
	showTablesColumns  = []string{"schema_name", "table_name", "table_type"}
)

// showObjectsColumns is the row shape of SHOW SCHEMAS / SHOW TABLES, nil
// for other statements.
func showObjectsColumns(st extgrammar.Statement) []Column {
	switch st.(type) {
	case *extgrammar.ShowSchemas:
		return textColumns(showSchemasColumns...)
	case *extgrammar.ShowTables:
		return textColumns(showTablesColumns...)
	}
	return nil
}

// runShowObjects answers SHOW SCHEMAS or SHOW TABLES; ok is false for
// other statements.
func (s *Session) runShowObjects(ctx context.Context, st extgrammar.Statement) (res Result, ok bool, err error) {
	switch x := st.(type) {
	case *extgrammar.ShowSchemas:
		res, err = s.showSchemas(ctx, x)
		return res, true, err
	case *extgrammar.ShowTables:
		res, err = s.showTables(ctx, x)
		return res, true, err
	}
	return nil, false, nil
}

// showCatalog is the catalog a SHOW names, the session's by default.
func (s *Session) showCatalog(name string) (storage.Catalog, error) {
	if name == "" {
		name = s.database
	}
	cat, err := s.engine.catalog(name)
	if err != nil {
		return nil, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", name)
	}
	return cat, nil
}

func (s *Session) showSchemas(ctx context.Context, x *extgrammar.ShowSchemas) (Result, error) {
	cat, err := s.showCatalog(x.Catalog)
	if err != nil {
		return nil, err
	}
	nss, err := visibleNamespaces(s.callerContext(ctx), cat)
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(nss))
	for i, ns := range nss {
		rows[i] = []string{ns}
	}
	return newTextResult(showSchemasColumns, rows, "SHOW")
}

func (s *Session) showTables(ctx context.Context, x *extgrammar.ShowTables) (Result, error) {
	cat, err := s.showCatalog(x.Catalog)
	if err != nil {
		return nil, err
	}
	ctx = s.callerContext(ctx)
	visible, err := visibleNamespaces(ctx, cat)
	if err != nil {
		return nil, err
	}
	schemas := []string{x.Schema}
	if x.Schema == "" {
		schemas = s.settings.searchPath(s.identity.User)
	} else if !slices.Contains(visible, x.Schema) {
		return nil, pgerror.New(pgerror.UndefinedSchema, "schema \"%s\" does not exist", x.Schema)
	}
	var rows [][]string
	for _, ns := range schemas {
		if !slices.Contains(visible, ns) {
			continue
		}
		tables, err := visibleTables(ctx, cat, ns)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rows = append(rows, []string{ns, t, "BASE TABLE"})
		}
		views, err := catalogSource{s}.views(ctx, cat, ns)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			rows = append(rows, []string{ns, v.Name, "VIEW"})
		}
	}
	slices.SortFunc(rows, func(a, b []string) int {
		return slices.Compare(a, b)
	})
	return newTextResult(showTablesColumns, rows, "SHOW")
}

// visibleTables lists the tables of ns the principal in ctx may load: a
// table it may not load is absent, as in pg_class.
func visibleTables(ctx context.Context, cat storage.Catalog, ns string) ([]string, error) {
	names, err := cat.ListTables(ctx, ns)
	if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchNamespace) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", ns, err)
	}
	out := names[:0:0]
	for _, name := range names {
		_, err := cat.LoadTable(ctx, ns, name)
		switch {
		case errors.Is(err, storage.ErrForbidden), errors.Is(err, storage.ErrNoSuchTable):
			continue
		case err != nil:
			return nil, fmt.Errorf("load table %s.%s: %w", ns, name, err)
		}
		out = append(out, name)
	}
	return out, nil
}
