package storage

import (
	"context"
	"fmt"
	"strings"
)

// VersionedAuthorizer is an Authorizer that can say which version of its
// policies it decides under, so that what its decisions show a principal
// can be remembered until the version moves.
type VersionedAuthorizer interface {
	Authorizer
	// DecisionsVersion is the version of the policies the statement in ctx
	// is decided under. ok is false when a decision may change while the
	// version stays (a policy conditioned on the time or the client's
	// address): then nothing may be remembered.
	DecisionsVersion(ctx context.Context) (version int64, ok bool, err error)
}

// DecisionsVersion is constant: AllowAll never changes its mind.
func (AllowAll) DecisionsVersion(context.Context) (int64, bool, error) { return 0, true, nil }

// CatalogVersion is the state of what a catalog shows a principal: Objects
// moves with every change to its namespaces, tables and views (each
// commit, DDL, comment and property), Access with every change to the
// gate-one policies that decide what the principal may see.
type CatalogVersion struct {
	Objects, Access int64
}

// versionedCatalog is a catalog that knows its CatalogVersion.
type versionedCatalog interface {
	catalogVersion(ctx context.Context) (CatalogVersion, bool, error)
}

// VisibilityVersion is cat's version for the principal in ctx. ok is false
// when cat cannot tell: a catalog that decides as the caller itself (a
// REST catalog, Polaris), or an authorizer whose decisions are
// conditional. Anything computed from what cat shows the principal may
// be reused while the version and the principal stay the same, and only
// then.
func VisibilityVersion(ctx context.Context, cat Catalog) (CatalogVersion, bool, error) {
	if v, ok := cat.(versionedCatalog); ok {
		return v.catalogVersion(ctx)
	}
	return CatalogVersion{}, false, nil
}

// catalogVersionSchema counts the changes to the embedded catalog's
// tables. Triggers keep it, one per change to iceberg-go's tables and
// namespace properties, so every writer of the database (another SQE
// process, iceberg-go's own SQL catalog) moves it.
func catalogVersionSchema() string {
	var b strings.Builder
	b.WriteString(`CREATE TABLE IF NOT EXISTS sqe_catalog_version (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	version INTEGER NOT NULL
);
INSERT OR IGNORE INTO sqe_catalog_version (id, version) VALUES (1, 0);
`)
	for _, table := range []string{"iceberg_tables", "iceberg_namespace_properties"} {
		for _, event := range []string{"INSERT", "UPDATE", "DELETE"} {
			fmt.Fprintf(&b, "CREATE TRIGGER IF NOT EXISTS sqe_%s_%s AFTER %s ON %s\n"+
				"\tBEGIN UPDATE sqe_catalog_version SET version = version + 1 WHERE id = 1; END;\n",
				table, strings.ToLower(event), event, table)
		}
	}
	return b.String()
}

const readCatalogVersion = "SELECT version FROM sqe_catalog_version WHERE id = 1"

func (c *embeddedCatalog) catalogVersion(ctx context.Context) (CatalogVersion, bool, error) {
	va, ok := c.authz.(VersionedAuthorizer)
	if !ok {
		return CatalogVersion{}, false, nil
	}
	var v CatalogVersion
	if err := c.version.QueryRowContext(ctx).Scan(&v.Objects); err != nil {
		return CatalogVersion{}, false, fmt.Errorf("read version of catalog %s: %w", c.name, err)
	}
	access, ok, err := va.DecisionsVersion(ctx)
	if err != nil || !ok {
		return CatalogVersion{}, false, err
	}
	v.Access = access
	return v, true, nil
}

// catalogVersion forwards to the wrapped catalog, untimed: it is read for
// every catalog query.
func (t *timedCatalog) catalogVersion(ctx context.Context) (CatalogVersion, bool, error) {
	return VisibilityVersion(ctx, t.inner)
}
