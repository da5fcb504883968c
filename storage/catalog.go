package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// Catalog is one Iceberg catalog: a Postgres database whose schemas are
// namespaces. Every method authorizes the principal in ctx first.
type Catalog interface {
	// Name is the catalog's name, the first part of a three-part name.
	Name() string
	// ListNamespaces returns the top-level namespaces, sorted.
	ListNamespaces(ctx context.Context) ([]string, error)
	NamespaceExists(ctx context.Context, ns string) (bool, error)
	// CreateNamespace fails with ErrAlreadyExists if ns is present.
	CreateNamespace(ctx context.Context, ns string) error
	// DropNamespace removes an empty namespace. It fails with
	// ErrNoSuchNamespace, or ErrNotEmpty while ns still holds tables.
	DropNamespace(ctx context.Context, ns string) error
	// ListTables returns the table names in ns, sorted.
	ListTables(ctx context.Context, ns string) ([]string, error)
	// LoadTable fails with ErrNoSuchNamespace or ErrNoSuchTable.
	LoadTable(ctx context.Context, ns, name string) (*Table, error)
	// CreateTable makes an empty format-version 2 table. Non-nullable
	// fields become required columns.
	CreateTable(ctx context.Context, ns, name string, schema *arrow.Schema, opts CreateTableOptions) (*Table, error)
	// DropTable removes the table from the catalog (its files stay, as
	// Iceberg's drop without purge leaves them). ErrNoSuchTable if absent.
	DropTable(ctx context.Context, ns, name string) error
	// RenameTable renames a table within its namespace; ErrAlreadyExists
	// if the new name is taken.
	RenameTable(ctx context.Context, ns, from, to string) (*Table, error)
	Close() error
}

// CreateTableOptions are the optional parts of CreateTable.
type CreateTableOptions struct {
	// Properties become Iceberg table properties. The storage-managed keys
	// (format version and delete mode) are always set by CreateTable.
	Properties map[string]string
	// Partitioning is the table's Iceberg partition spec, in order; empty
	// means unpartitioned.
	Partitioning []PartitionField
	// SortOrder is the table's Iceberg sort order, in order; empty means
	// unsorted.
	SortOrder []SortField
	// ColumnProperties are per-column table properties, by column name
	// and then key prefix: each is stored as the property
	// "<prefix>.<field id>", so that it follows the column's id across
	// renames, as Iceberg resolves columns.
	ColumnProperties map[string]map[string]string
	// FieldIDProperties, when set, returns more properties once the
	// columns have their field ids (top-level column name → id), for a
	// property that describes several columns by id in one value.
	FieldIDProperties func(ids map[string]int) (map[string]string, error)
}

// Table properties every table created here carries. One delete mode per
// table, never mixed: iceberg-go's copy-on-write rewrite ignores existing
// delete files (apache/iceberg-go#2042), so no delete files may ever exist.
const (
	propFormatVersion = "format-version"
	propDeleteMode    = "write.delete.mode"
	formatVersion     = "2"
	deleteMode        = "copy-on-write"
)

// namespaceLoader is a catalog that loads a namespace's tables at once.
type namespaceLoader interface {
	loadTables(ctx context.Context, ns string) ([]*Table, error)
}

// LoadTables loads the tables of ns the caller may load, by name: what
// ListTables and then LoadTable of each name give, without the tables the
// caller is refused or that went away meanwhile. A namespace the caller
// cannot see, or that does not exist, has none.
func LoadTables(ctx context.Context, cat Catalog, ns string) ([]*Table, error) {
	if l, ok := cat.(namespaceLoader); ok {
		return l.loadTables(ctx, ns)
	}
	names, err := cat.ListTables(ctx, ns)
	if errors.Is(err, ErrForbidden) || errors.Is(err, ErrNoSuchNamespace) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]*Table, 0, len(names))
	for _, name := range names {
		t, err := cat.LoadTable(ctx, ns, name)
		if errors.Is(err, ErrForbidden) || errors.Is(err, ErrNoSuchTable) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("load table %s.%s: %w", ns, name, err)
		}
		out = append(out, t)
	}
	return out, nil
}
