package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// codeDependentObjects is PostgreSQL's dependent_objects_still_exist.
const codeDependentObjects = "2BP01"

func (c *embeddedCatalog) DropNamespace(ctx context.Context, ns string) error {
	if err := checkName("schema", ns); err != nil {
		return err
	}
	if err := authorize(ctx, c.authz, ActionDropNamespace, Ident{Catalog: c.name, Namespace: ns}); err != nil {
		return err
	}
	err := c.cat.DropNamespace(ctx, table.Identifier{ns})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return noSuchNamespace(ns, err)
	case errors.Is(err, catalog.ErrNamespaceNotEmpty):
		return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrNotEmpty, ns, err), codeDependentObjects,
			"cannot drop schema %s because other objects depend on it", ns)
	default:
		return fmt.Errorf("drop namespace %s.%s: %w", c.name, ns, err)
	}
}

func (c *embeddedCatalog) DropTable(ctx context.Context, ns, name string) error {
	id := Ident{Catalog: c.name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return err
	}
	if err := authorize(ctx, c.authz, ActionDropTable, id); err != nil {
		return err
	}
	// Wait for commits in flight so a drop never races an append.
	unlock, err := c.lockTable(ctx, id)
	if err != nil {
		return fmt.Errorf("drop table %s: wait for commit lock: %w", id, err)
	}
	defer unlock()
	err = c.cat.DropTable(ctx, table.Identifier{ns, name})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, catalog.ErrNoSuchTable), errors.Is(err, catalog.ErrNoSuchNamespace):
		if ok, nsErr := c.cat.CheckNamespaceExists(ctx, table.Identifier{ns}); nsErr == nil && !ok {
			return noSuchNamespace(ns, err)
		}
		return noSuchTable(id, err)
	default:
		return fmt.Errorf("drop table %s: %w", id, err)
	}
}

func (c *embeddedCatalog) RenameTable(ctx context.Context, ns, from, to string) (*Table, error) {
	src := Ident{Catalog: c.name, Namespace: ns, Table: from}
	dst := Ident{Catalog: c.name, Namespace: ns, Table: to}
	if err := checkIdent(src); err != nil {
		return nil, err
	}
	if err := checkIdent(dst); err != nil {
		return nil, err
	}
	if err := authorize(ctx, c.authz, ActionRenameTable, src); err != nil {
		return nil, err
	}
	if err := authorize(ctx, c.authz, ActionCreateTable, dst); err != nil {
		return nil, err
	}
	unlock, err := c.lockTable(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("rename table %s: wait for commit lock: %w", src, err)
	}
	defer unlock()
	tbl, err := c.cat.RenameTable(ctx, table.Identifier{ns, from}, table.Identifier{ns, to})
	switch {
	case err == nil:
		return newTable(c, dst, c.adopt(tbl))
	case errors.Is(err, catalog.ErrTableAlreadyExists), errors.Is(err, catalog.ErrViewAlreadyExists):
		return nil, tableExists(dst, err)
	case errors.Is(err, catalog.ErrNoSuchTable):
		return nil, noSuchTable(src, err)
	case errors.Is(err, catalog.ErrNoSuchNamespace):
		return nil, noSuchNamespace(ns, err)
	default:
		return nil, fmt.Errorf("rename table %s to %s: %w", src, to, err)
	}
}
