package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"

	"github.com/apache/iceberg-go"
	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
)

// The embedded catalog loads and commits tables itself rather than through
// iceberg-go's SQL catalog, for two reasons. Parsing a table's metadata
// file is the dominant cost of a small write once a table has hundreds of
// snapshots, and the SQL catalog parses it again on every load and inside
// every commit; metadata files are immutable, so one parse per location is
// enough (metadataCache). And a transaction block that wrote several
// tables must make them visible together: the pointer swaps of all its
// tables go into one SQLite transaction (commitGroup), which the SQL
// catalog's one-table CommitTable cannot do.
//
// The rows are iceberg-go's own (table iceberg_tables, schema version 1),
// so a catalog file stays readable by any SQL-catalog implementation.

// tableIO is the table.CatalogIO that the embedded catalog's tables commit
// through: iceberg-go's Transaction.Commit calls CommitTable.
type tableIO struct{ c *embeddedCatalog }

var _ table.CatalogIO = tableIO{}

// LoadTable loads the table's current metadata, without gate one: it
// serves commits the caller has authorized.
func (io tableIO) LoadTable(ctx context.Context, ident table.Identifier) (*table.Table, error) {
	if len(ident) != 2 {
		return nil, fmt.Errorf("load table %v: want namespace and name", ident)
	}
	return io.c.reloadTable(ctx, Ident{Catalog: io.c.name, Namespace: ident[0], Table: ident[1]})
}

// CommitTable checks reqs against the table's current metadata, applies
// updates, writes the new metadata file, flushes the local files the
// commit created (syncCommit) and moves the catalog's pointer to it,
// unless ctx carries a commitGroup: then the move waits for the
// group's commit. A pointer that moved since the table was read is
// table.ErrCommitFailed, which iceberg-go and SQE retry.
func (io tableIO) CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	current, err := io.LoadTable(ctx, ident)
	if err != nil {
		return nil, "", err
	}
	for _, r := range reqs {
		if err := r.Validate(current.Metadata()); err != nil {
			return nil, "", err
		}
	}
	updated, err := table.UpdateTableMetadata(current.Metadata(), updates, current.MetadataLocation())
	if err != nil {
		return nil, "", err
	}
	if updated.Equals(current.Metadata()) {
		return current.Metadata(), current.MetadataLocation(), nil
	}
	newLoc, err := nextMetadataLocation(current.MetadataLocation(), updated)
	if err != nil {
		return nil, "", fmt.Errorf("commit %v: %w", ident, err)
	}
	if err := writeMetadataFile(ctx, io.c.ioProps(updated), updated, newLoc, io.c.snapshots, io.c.sync); err != nil {
		return nil, "", fmt.Errorf("commit %v: write metadata: %w", ident, err)
	}
	if err := io.c.syncCommit(ctx, current.Metadata(), updated, newLoc); err != nil {
		return nil, "", fmt.Errorf("commit %v: %w", ident, err)
	}
	swap := pointerSwap{ns: ident[0], name: ident[1], from: current.MetadataLocation(), to: newLoc}
	if g := commitGroupFrom(ctx); g != nil {
		g.add(swap, updated)
		return updated, newLoc, nil
	}
	if err := io.c.swapPointers(ctx, []pointerSwap{swap}); err != nil {
		if noReplayFrom(ctx) && errors.Is(err, table.ErrCommitFailed) {
			// Not ErrCommitFailed, which iceberg-go would replay.
			return nil, "", fmt.Errorf("%w: %s", errMovedUnderRewrite, err.Error())
		}
		return nil, "", err
	}
	io.c.metadata.put(newLoc, updated)
	return updated, newLoc, nil
}

// ioProps are the properties a table's metadata file is written with:
// the table's, overridden by the catalog's, so that a table property can
// never redirect the server's writes or their credentials.
func (c *embeddedCatalog) ioProps(meta table.Metadata) iceberg.Properties {
	props := maps.Clone(meta.Properties())
	if props == nil {
		props = iceberg.Properties{}
	}
	maps.Copy(props, c.props)
	return props
}

// pointerSwap moves one table's metadata pointer from one file to the next.
type pointerSwap struct {
	ns, name string
	from, to string
}

// swapPointers moves every pointer in one SQLite transaction, only if each
// still points where the commit read it: otherwise nothing moves and the
// error wraps table.ErrCommitFailed.
func (c *embeddedCatalog) swapPointers(ctx context.Context, swaps []pointerSwap) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("commit: begin catalog transaction: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, s := range swaps {
		res, err := tx.ExecContext(ctx, `UPDATE iceberg_tables
			SET metadata_location = ?, previous_metadata_location = ?, iceberg_type = 'TABLE'
			WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?
			  AND metadata_location = ? AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)`,
			s.to, s.from, c.name, s.ns, s.name, s.from)
		if err != nil {
			return fmt.Errorf("commit %s.%s: update catalog: %w", s.ns, s.name, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("commit %s.%s: update catalog: %w", s.ns, s.name, err)
		}
		if n == 0 {
			return fmt.Errorf("%w: table %s.%s metadata-location moved underneath us", table.ErrCommitFailed, s.ns, s.name)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: catalog transaction: %w", err)
	}
	return nil
}

const readMetadataLocation = `SELECT metadata_location FROM iceberg_tables
	WHERE catalog_name = ? AND table_namespace = ? AND table_name = ?
	  AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)`

// metadataLocation reads where the catalog points for a table: "" with
// sql.ErrNoRows when the table is absent.
func (c *embeddedCatalog) metadataLocation(ctx context.Context, id Ident) (string, error) {
	var loc sql.NullString
	err := c.location.QueryRowContext(ctx, c.name, id.Namespace, id.Table).Scan(&loc)
	if err != nil {
		return "", err
	}
	if !loc.Valid || loc.String == "" {
		return "", fmt.Errorf("table %s has no metadata location: %w", id, sql.ErrNoRows)
	}
	return loc.String, nil
}

// tableLocation is where the catalog points for one table.
type tableLocation struct{ name, loc string }

// metadataLocations reads where the catalog points for every table of ns,
// by name.
func (c *embeddedCatalog) metadataLocations(ctx context.Context, ns string) ([]tableLocation, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT table_name, metadata_location FROM iceberg_tables
		WHERE catalog_name = ? AND table_namespace = ?
		  AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)
		  AND metadata_location IS NOT NULL AND metadata_location != ''
		ORDER BY table_name`, c.name, ns)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s.%s: %w", c.name, ns, err)
	}
	defer rows.Close()
	var out []tableLocation
	for rows.Next() {
		var l tableLocation
		if err := rows.Scan(&l.name, &l.loc); err != nil {
			return nil, fmt.Errorf("list tables of %s.%s: %w", c.name, ns, err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tables of %s.%s: %w", c.name, ns, err)
	}
	return out, nil
}

// openTable builds the table at loc, parsing its metadata file only when
// the cache does not hold it.
func (c *embeddedCatalog) openTable(ctx context.Context, id Ident, loc string) (*table.Table, error) {
	ident := table.Identifier{id.Namespace, id.Table}
	fsF := icebergio.LoadFSFunc(c.props, loc)
	if meta, ok := c.metadata.get(loc); ok {
		return table.New(ident, meta, loc, fsF, tableIO{c}), nil
	}
	tbl, err := table.NewFromLocation(ctx, ident, loc, fsF, tableIO{c})
	if err != nil {
		return nil, err
	}
	c.metadata.put(loc, tbl.Metadata())
	return tbl, nil
}

// isNoRows reports a catalog lookup that found nothing.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
