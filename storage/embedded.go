package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/uptrace/bun/driver/sqliteshim"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// embeddedCatalog is an iceberg-go SQL catalog on a SQLite file, over a
// warehouse folder or object store, gated by an Authorizer.
type embeddedCatalog struct {
	name  string
	db    *sql.DB
	cat   *sqlcat.Catalog
	authz Authorizer
	// version reads the catalog's version (catalog_version.go), location
	// a table's metadata location; prepared once, since every catalog
	// query reads the one and every statement the other.
	version, location *sql.Stmt
	locks             *tableLocks
	lines             *commitLines
	snapshots         *snapshotJSON
	opts              EmbeddedOptions
	// props are the catalog properties tables' file I/O opens with.
	props iceberg.Properties
	// metadata holds parsed table metadata by file (embedded_tables.go).
	metadata *metadataCache
	plans    *planCache
	// rowGroups holds data files' row-group statistics (row_group_stats.go).
	rowGroups *rowGroupCache
	// sync flushes the local files a commit creates before the pointer
	// moves (embedded_durability.go); nil when EmbeddedOptions.SkipFsync.
	sync fileSyncer
}

// OpenEmbedded opens (creating on first use) the embedded catalog name: an
// iceberg-go SQL catalog on SQLite at <dataDir>/catalog.db over the
// warehouse folder <dataDir>/warehouse. Several catalogs (names) can live in
// one database file, and several processes can open it at once.
func OpenEmbedded(ctx context.Context, name, dataDir string, authz Authorizer) (Catalog, error) {
	return OpenEmbeddedWith(ctx, name, dataDir, authz, EmbeddedOptions{CommitRetries: DefaultCommitRetries})
}

// OpenEmbeddedWith is OpenEmbedded with options; opts.Warehouse may put the
// table files elsewhere, such as in S3 (the database stays in dataDir).
func OpenEmbeddedWith(ctx context.Context, name, dataDir string, authz Authorizer, opts EmbeddedOptions) (Catalog, error) {
	if err := opts.Validate(); err != nil {
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	if name == "" {
		return nil, errors.New("open embedded catalog: empty catalog name")
	}
	if authz == nil {
		return nil, fmt.Errorf("open embedded catalog %s: no authorizer", name)
	}
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("open embedded catalog %s: data dir: %w", name, err)
	}
	props, err := opts.warehouseProperties(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}

	db, err := sql.Open(sqliteshim.ShimName, sqliteDSN(filepath.Join(dir, "catalog.db")))
	if err != nil {
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	if err := db.PingContext(ctx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	cat, err := sqlcat.NewCatalog(name, db, sqlcat.SQLite, props)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	if _, err := db.ExecContext(ctx, catalogVersionSchema()); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open embedded catalog %s: create version triggers: %w", name, err)
	}
	version, err := db.PrepareContext(ctx, readCatalogVersion)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	location, err := db.PrepareContext(ctx, readMetadataLocation)
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open embedded catalog %s: %w", name, err)
	}
	c := &embeddedCatalog{name: name, db: db, cat: cat, authz: authz, version: version, location: location, locks: newTableLocks(), lines: newCommitLines(), snapshots: newSnapshotJSON(snapshotJSONBytes), opts: opts,
		props: props, metadata: newMetadataCache(metadataCacheEntries, metadataCacheVersions, metadataCacheSnapshots), plans: newPlanCache(planCacheEntries, planCacheTasks),
		rowGroups: newRowGroupCache(rowGroupCacheFiles, rowGroupCacheGroups)}
	if !opts.SkipFsync {
		c.sync = osSyncer{}
	}
	return c, nil
}

func (c *embeddedCatalog) Name() string { return c.name }

func (c *embeddedCatalog) Close() error {
	return errors.Join(c.version.Close(), c.location.Close(), c.cat.Close(), c.db.Close())
}

func (c *embeddedCatalog) ListNamespaces(ctx context.Context) ([]string, error) {
	if ok, err := c.allowed(ctx, ActionListNamespaces, Ident{Catalog: c.name}); err != nil || !ok {
		return nil, err
	}
	idents, err := c.cat.ListNamespaces(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("list namespaces of %s: %w", c.name, err)
	}
	names := make([]string, 0, len(idents))
	for _, id := range idents {
		if len(id) == 0 {
			continue
		}
		ok, err := c.allowed(ctx, ActionLoadNamespace, Ident{Catalog: c.name, Namespace: id[0]})
		if err != nil {
			return nil, err
		}
		if ok {
			names = append(names, id[0])
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

func (c *embeddedCatalog) NamespaceExists(ctx context.Context, ns string) (bool, error) {
	if err := checkName("schema", ns); err != nil {
		return false, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil || !ok {
		return false, err
	}
	ok, err := c.cat.CheckNamespaceExists(ctx, table.Identifier{ns})
	if err != nil {
		return false, fmt.Errorf("check namespace %s.%s: %w", c.name, ns, err)
	}
	return ok, nil
}

func (c *embeddedCatalog) CreateNamespace(ctx context.Context, ns string) error {
	if err := checkName("schema", ns); err != nil {
		return err
	}
	if err := authorize(ctx, c.authz, ActionCreateNamespace, Ident{Catalog: c.name, Namespace: ns}); err != nil {
		return err
	}
	err := c.cat.CreateNamespace(ctx, table.Identifier{ns}, nil)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrNamespaceAlreadyExists):
		return namespaceExists(ns, err)
	default:
		return fmt.Errorf("create namespace %s.%s: %w", c.name, ns, err)
	}
}

func (c *embeddedCatalog) ListTables(ctx context.Context, ns string) ([]string, error) {
	if err := checkName("schema", ns); err != nil {
		return nil, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil {
		return nil, err
	} else if !ok {
		return nil, noSuchNamespace(ns, ErrNoSuchNamespace)
	}
	var names []string
	for id, err := range c.cat.ListTables(ctx, table.Identifier{ns}) {
		if errors.Is(err, catalog.ErrNoSuchNamespace) {
			return nil, noSuchNamespace(ns, err)
		}
		if err != nil {
			return nil, fmt.Errorf("list tables of %s.%s: %w", c.name, ns, err)
		}
		names = append(names, id[len(id)-1])
	}
	slices.Sort(names)
	return c.visibleMembers(ctx, ns, names, ActionListTables, ActionLoadTable)
}

// LoadTable finds the table first and authorizes the load second, as
// Polaris does: a table that does not exist, or lies in a namespace the
// caller cannot see, is absent (42P01); one the caller may not load is
// refused (42501).
func (c *embeddedCatalog) LoadTable(ctx context.Context, ns, name string) (*Table, error) {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return nil, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil {
		return nil, err
	} else if !ok {
		return nil, noSuchTable(id, ErrNoSuchTable)
	}
	tbl, err := c.reloadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := authorize(ctx, c.authz, ActionLoadTable, id); err != nil {
		return nil, err
	}
	return newCachedTable(c, c.metadata, id, tbl)
}

// loadTables is LoadTables with one catalog query for the namespace
// instead of one per table.
func (c *embeddedCatalog) loadTables(ctx context.Context, ns string) ([]*Table, error) {
	if err := checkName("schema", ns); err != nil {
		return nil, err
	}
	if ok, err := c.namespaceVisible(ctx, ns); err != nil || !ok {
		return nil, err
	}
	locs, err := c.metadataLocations(ctx, ns)
	if err != nil {
		return nil, err
	}
	var out []*Table
	for _, l := range locs {
		id := Ident{Catalog: c.name, Namespace: ns, Table: l.name}
		if ok, err := c.allowed(ctx, ActionLoadTable, id); err != nil {
			return nil, err
		} else if !ok {
			continue
		}
		tbl, err := c.openTable(ctx, id, l.loc)
		if err != nil {
			return nil, objectStoreFailure(fmt.Errorf("load table %s: %w", id, err), "load", id.Namespace+"."+id.Table)
		}
		t, err := newCachedTable(c, c.metadata, id, tbl)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func (c *embeddedCatalog) CreateTable(ctx context.Context, ns, name string, schema *arrow.Schema, opts CreateTableOptions) (*Table, error) {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return nil, err
	}
	if err := authorize(ctx, c.authz, ActionCreateTable, id); err != nil {
		return nil, err
	}
	sc, createOpts, err := newTableSpec(id, schema, opts)
	if err != nil {
		return nil, err
	}
	tbl, err := c.cat.CreateTable(ctx, table.Identifier{ns, name}, sc, createOpts...)
	switch {
	case err == nil:
		if !sameFieldIDs(sc, tbl.Schema()) {
			// Column properties are keyed by the ids assigned above.
			return nil, errors.Join(fmt.Errorf("create table %s: the catalog renumbered the columns", id),
				c.cat.DropTable(ctx, table.Identifier{ns, name}))
		}
		if err := c.syncCreated(tbl.Metadata(), tbl.MetadataLocation()); err != nil {
			return nil, errors.Join(fmt.Errorf("create table %s: %w", id, err),
				c.cat.DropTable(ctx, table.Identifier{ns, name}))
		}
		return newTable(c, id, c.adopt(tbl))
	case errors.Is(err, catalog.ErrTableAlreadyExists), errors.Is(err, catalog.ErrViewAlreadyExists):
		return nil, tableExists(id, err)
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return nil, noSuchNamespace(ns, err)
	default:
		return nil, objectStoreFailure(fmt.Errorf("create table %s: %w", id, err), "create", id.Namespace+"."+id.Table)
	}
}

// reloadTable reads the table's current metadata without asking gate one;
// callers have authorized the operation it serves.
func (c *embeddedCatalog) reloadTable(ctx context.Context, id Ident) (*table.Table, error) {
	loc, err := c.metadataLocation(ctx, id)
	if err == nil {
		tbl, err := c.openTable(ctx, id, loc)
		if err != nil {
			return nil, objectStoreFailure(fmt.Errorf("load table %s: %w", id, err), "load", id.Namespace+"."+id.Table)
		}
		return tbl, nil
	}
	if !isNoRows(err) {
		return nil, fmt.Errorf("load table %s: %w", id, err)
	}
	if ok, nsErr := c.cat.CheckNamespaceExists(ctx, table.Identifier{id.Namespace}); nsErr == nil && !ok {
		return nil, noSuchNamespace(id.Namespace, fmt.Errorf("%w: %s", catalog.ErrNoSuchNamespace, id.Namespace))
	}
	return nil, noSuchTable(id, fmt.Errorf("%w: %s", catalog.ErrNoSuchTable, id))
}

// adopt rebinds a table the SQL catalog returned so that its commits go
// through the embedded catalog's own CommitTable.
func (c *embeddedCatalog) adopt(tbl *table.Table) *table.Table {
	c.metadata.put(tbl.MetadataLocation(), tbl.Metadata())
	return table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(),
		icebergio.LoadFSFunc(c.props, tbl.MetadataLocation()), tableIO{c})
}

func (c *embeddedCatalog) authorize(ctx context.Context, a Action, target Ident) error {
	return authorize(ctx, c.authz, a, target)
}

// MayPerform asks the catalog's authorizer about a on target (in this
// catalog) for the principal in ctx.
func (c *embeddedCatalog) MayPerform(ctx context.Context, a Action, target Ident) bool {
	target.Catalog = c.name
	return c.authorize(ctx, a, target) == nil
}

// commitError gives an object store's failure its SQLSTATE (58030); other
// commit errors come from a local database and stay as they are.
func (c *embeddedCatalog) commitError(_ context.Context, id Ident, err error) error {
	return objectStoreFailure(err, "commit to", id.Namespace+"."+id.Table)
}

func (c *embeddedCatalog) lockTable(ctx context.Context, id Ident) (func(), error) {
	return c.locks.lock(ctx, id.Namespace+"\x00"+id.Table)
}

func (c *embeddedCatalog) catalogIO(context.Context) (table.CatalogIO, error) { return tableIO{c}, nil }

func (c *embeddedCatalog) commitAttempts() int { return c.opts.CommitRetries + 1 }

// checkName refuses names the SQL catalog cannot store unambiguously: it
// joins nested namespaces with dots, so a dot in a name would alias another
// object.
func checkName(kind, name string) error {
	if name == "" {
		return pgerror.New(pgerror.InvalidName, "zero-length %s name", kind)
	}
	if strings.ContainsAny(name, ".\x00") {
		return pgerror.New(pgerror.InvalidName, "invalid %s name %q: dots are not allowed", kind, name)
	}
	return nil
}

func checkIdent(id Ident) error {
	if err := checkName("schema", id.Namespace); err != nil {
		return err
	}
	return checkName("table", id.Table)
}
