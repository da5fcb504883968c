package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"
)

func (c *restCatalog) LoadTable(ctx context.Context, ns, name string) (*Table, error) {
	id := Ident{Catalog: c.cfg.Name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return nil, err
	}
	if err := c.authorize(ctx, ActionLoadTable, id); err != nil {
		return nil, err
	}
	tbl, err := c.reloadTable(ctx, id)
	if err != nil {
		return nil, err
	}
	return newTable(c, id, tbl)
}

func (c *restCatalog) CreateTable(ctx context.Context, ns, name string, schema *arrow.Schema, opts CreateTableOptions) (*Table, error) {
	id := Ident{Catalog: c.cfg.Name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return nil, err
	}
	cat, err := c.begin(ctx, ActionCreateTable, id)
	if err != nil {
		return nil, err
	}
	sc, createOpts, err := newTableSpec(id, schema, opts)
	if err != nil {
		return nil, err
	}
	ident := table.Identifier{ns, name}
	tbl, err := cat.CreateTable(ctx, ident, sc, createOpts...)
	if err != nil {
		return nil, c.restError(ctx, "create table", id, err)
	}
	if !sameFieldIDs(sc, tbl.Schema()) {
		// Column properties are keyed by the ids assigned above; a server
		// that renumbers the columns would attach them to other columns.
		dropErr := cat.DropTable(ctx, ident)
		return nil, c.restError(ctx, "create table", id,
			errors.Join(errors.New("the catalog renumbered the columns"), dropErr))
	}
	return newTable(c, id, tbl)
}

func (c *restCatalog) DropTable(ctx context.Context, ns, name string) error {
	id := Ident{Catalog: c.cfg.Name, Namespace: ns, Table: name}
	if err := checkIdent(id); err != nil {
		return err
	}
	cat, err := c.begin(ctx, ActionDropTable, id)
	if err != nil {
		return err
	}
	// Wait for commits in flight here so a drop never races an append.
	unlock, err := c.lockTable(ctx, id)
	if err != nil {
		return fmt.Errorf("drop table %s: wait for commit lock: %w", id, err)
	}
	defer unlock()
	return c.restError(ctx, "drop table", id, cat.DropTable(ctx, table.Identifier{ns, name}))
}

func (c *restCatalog) RenameTable(ctx context.Context, ns, from, to string) (*Table, error) {
	src := Ident{Catalog: c.cfg.Name, Namespace: ns, Table: from}
	dst := Ident{Catalog: c.cfg.Name, Namespace: ns, Table: to}
	if err := checkIdent(src); err != nil {
		return nil, err
	}
	if err := checkIdent(dst); err != nil {
		return nil, err
	}
	cat, err := c.begin(ctx, ActionRenameTable, src)
	if err != nil {
		return nil, err
	}
	unlock, err := c.lockTable(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("rename table %s: wait for commit lock: %w", src, err)
	}
	defer unlock()
	tbl, err := cat.RenameTable(ctx, table.Identifier{ns, from}, table.Identifier{ns, to})
	if err != nil {
		// A 409 means the destination is taken; the rename endpoint does
		// not map it, so it arrives as a plain REST error.
		if isConflictStatus(err) {
			return nil, tableExists(dst, redact(err, c.tokens(ctx)...))
		}
		return nil, c.restError(ctx, "rename table", src, err)
	}
	return newTable(c, dst, tbl)
}

// isConflictStatus reports whether err is the REST server's 409 answer
// that the target already exists, on an endpoint iceberg-go does not map.
func isConflictStatus(err error) bool {
	return strings.Contains(err.Error(), "AlreadyExistsException")
}
