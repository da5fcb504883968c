package storage

import "strings"

// Ident names a table (or a namespace with Table == "", or a catalog with
// both empty). Catalog is the Postgres database, Namespace the schema.
type Ident struct{ Catalog, Namespace, Table string }

// String joins the non-empty parts with dots: "cat.ns.table".
func (i Ident) String() string {
	parts := make([]string, 0, 3)
	for _, p := range []string{i.Catalog, i.Namespace, i.Table} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}
