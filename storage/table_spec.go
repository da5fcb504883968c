package storage

import (
	"fmt"
	"maps"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// newTableSpec is what every catalog creates a table from: the Iceberg
// schema with fresh field ids, the caller's properties with the
// per-column ones keyed by those ids (and those FieldIDProperties derives
// from them) and the storage-managed ones (format version, the one delete
// mode), the partition spec and the sort order.
func newTableSpec(id Ident, schema *arrow.Schema, opts CreateTableOptions) (*iceberg.Schema, []catalog.CreateTableOpt, error) {
	if schema == nil || schema.NumFields() == 0 {
		return nil, nil, pgerror.New(pgerror.FeatureNotSupported, "table %q must have at least one column", id.Table)
	}
	sc, err := table.ArrowSchemaToIcebergWithFreshIDs(schema, false)
	if err != nil {
		return nil, nil, pgerror.Wrap(fmt.Errorf("create table %s: %w", id, err),
			pgerror.FeatureNotSupported, "unsupported column type in table %q", id.Table)
	}
	props := iceberg.Properties{}
	maps.Copy(props, opts.Properties)
	if err := addColumnProperties(props, sc, opts.ColumnProperties); err != nil {
		return nil, nil, err
	}
	if opts.FieldIDProperties != nil {
		ids := map[string]int{}
		for _, f := range sc.Fields() {
			ids[f.Name] = f.ID
		}
		more, err := opts.FieldIDProperties(ids)
		if err != nil {
			return nil, nil, fmt.Errorf("create table %s: %w", id, err)
		}
		maps.Copy(props, more)
	}
	props[propFormatVersion] = formatVersion
	props[propDeleteMode] = deleteMode
	createOpts := []catalog.CreateTableOpt{catalog.WithProperties(props)}
	if len(opts.Partitioning) > 0 {
		spec, err := partitionSpec(opts.Partitioning, sc)
		if err != nil {
			return nil, nil, err
		}
		createOpts = append(createOpts, catalog.WithPartitionSpec(spec))
	}
	if len(opts.SortOrder) > 0 {
		order, err := icebergSortOrder(table.InitialSortOrderID, opts.SortOrder, sc)
		if err != nil {
			return nil, nil, err
		}
		createOpts = append(createOpts, catalog.WithSortOrder(order))
	}
	return sc, createOpts, nil
}
