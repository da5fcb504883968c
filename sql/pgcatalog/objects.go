package pgcatalog

import (
	"context"
	"fmt"

	"github.com/sqe-db/sqe/planner"
)

// namespaceInfo is a namespace the caller sees, with its OID.
type namespaceInfo struct {
	name string
	oid  uint32
}

// relInfo is a relation the caller sees: one of its tables or one of the
// catalog relations themselves, which PostgreSQL also lists in pg_class.
type relInfo struct {
	namespace namespaceInfo
	name      string
	oid       uint32
	kind      byte
	columns   []planner.TableColumn
	// rowEstimate is the table-level estimate, -1 when unknown.
	rowEstimate int64
	user        bool // a stored table rather than a catalog relation
	// definition is a view's query, as pg_get_viewdef shows it.
	definition string
	// defaults are the columns' adbin texts by position (TableInfo).
	defaults []string
	// statistics are ANALYZE's, as the caller may see them (TableInfo).
	statistics []ColumnStatistics
}

// defaultOf is the adbin text of column i's DEFAULT, "" for none.
func (r relInfo) defaultOf(i int) string {
	if i < len(r.defaults) {
		return r.defaults[i]
	}
	return ""
}

// visibleNamespaces lists the system namespaces and then the caller's,
// without repeating one (a catalog may hold a "public" namespace).
func visibleNamespaces(ctx context.Context, src Source) ([]namespaceInfo, error) {
	out := make([]namespaceInfo, 0, len(systemNamespaces))
	seen := map[string]bool{}
	for _, s := range systemNamespaces {
		out = append(out, namespaceInfo{s.name, s.oid})
		seen[s.name] = true
	}
	names, err := src.Namespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", err)
	}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, namespaceInfo{n, NamespaceOID(src.Database(), n)})
		}
	}
	return out, nil
}

// userTables lists the tables the caller sees in its namespaces.
func userTables(ctx context.Context, src Source) ([]relInfo, error) {
	nss, err := visibleNamespaces(ctx, src)
	if err != nil {
		return nil, err
	}
	var out []relInfo
	for _, ns := range nss {
		if ns.oid == oidPgCatalog || ns.oid == oidInformationSchema {
			continue
		}
		tables, err := src.Tables(ctx, ns.name)
		if err != nil {
			return nil, fmt.Errorf("list tables in %s: %w", ns.name, err)
		}
		for _, t := range tables {
			kind := byte('r')
			if t.View {
				kind = 'v'
			}
			out = append(out, relInfo{
				namespace: ns, name: t.Name, oid: t.OID, kind: kind,
				columns: t.Columns, rowEstimate: t.RowEstimate, user: true,
				definition: t.Definition, defaults: t.Defaults, statistics: t.Statistics,
			})
		}
	}
	return out, nil
}

// catalogRelations lists the catalog relations this package provides.
func catalogRelations() []relInfo {
	out := make([]relInfo, 0, len(pg15Shapes))
	for _, s := range pg15Shapes {
		out = append(out, relInfo{
			namespace: namespaceInfo{s.schema, NamespaceOID("", s.schema)},
			name:      s.name, oid: s.oid, kind: s.kind, columns: s.columns, rowEstimate: -1,
		})
	}
	return out
}

// allRelations lists the catalog relations and the caller's tables.
func allRelations(ctx context.Context, src Source) ([]relInfo, error) {
	tables, err := userTables(ctx, src)
	if err != nil {
		return nil, err
	}
	return append(catalogRelations(), tables...), nil
}

// typeRow is the built-in pg_type row of a type OID, or nil.
func typeRow(oid uint32) row {
	for _, r := range builtinTypes {
		if r["oid"] == oid {
			return r
		}
	}
	return nil
}
