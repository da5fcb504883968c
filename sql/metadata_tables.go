package sql

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// A table's Iceberg metadata reads as tables named as Trino names them:
// "orders$snapshots", "orders$history", "orders$refs", "orders$manifests",
// "orders$files" and "orders$partitions" (the package doc lists their
// columns). Such a name always means the metadata table: the table it
// describes is resolved as the caller (gate one), and a caller who may
// not open it is told that the metadata table does not exist, whether
// the table is missing or only refused.
//
// Gate two applies through the table described, not through the
// metadata table's own name: its rows are computed from the caller's
// secured relation of the base table (metadataViewOf), and the session's
// Security gives the metadata table itself an open relation
// (sessionSecurity). That open relation is keyed by the Go type, which
// only resolveMetadataTable makes, never by a name, so no policy written
// for a table called "orders$files" applies to, or unlocks, anything:
// what a caller sees of orders' metadata is decided by orders' policies
// alone.

// metadataKind is the part of a metadata table's name after the '$'.
type metadataKind string

const (
	metaSnapshots  metadataKind = "snapshots"
	metaHistory    metadataKind = "history"
	metaRefs       metadataKind = "refs"
	metaManifests  metadataKind = "manifests"
	metaFiles      metadataKind = "files"
	metaPartitions metadataKind = "partitions"
)

// metadataColumns are the columns of a metadata table of kind, and false
// for a kind there is none of.
func metadataColumns(kind metadataKind) ([]planner.TableColumn, bool) {
	col := func(name string, t types.T) planner.TableColumn {
		return planner.TableColumn{Name: name, Type: t, Nullable: true}
	}
	int8Array, _ := types.ArrayOf(types.Int8)
	switch kind {
	case metaSnapshots:
		return []planner.TableColumn{
			col("committed_at", types.TimestampTZ), col("snapshot_id", types.Int8), col("parent_id", types.Int8),
			col("operation", types.Text), col("manifest_list", types.Text), col("summary", types.JSONB),
		}, true
	case metaHistory:
		return []planner.TableColumn{
			col("made_current_at", types.TimestampTZ), col("snapshot_id", types.Int8), col("parent_id", types.Int8),
			col("is_current_ancestor", types.Bool),
		}, true
	case metaRefs:
		return []planner.TableColumn{
			col("name", types.Text), col("type", types.Text), col("snapshot_id", types.Int8),
			col("max_reference_age_in_ms", types.Int8), col("min_snapshots_to_keep", types.Int4),
			col("max_snapshot_age_in_ms", types.Int8),
		}, true
	case metaManifests:
		return []planner.TableColumn{
			col("path", types.Text), col("length", types.Int8), col("partition_spec_id", types.Int4),
			col("added_snapshot_id", types.Int8),
			col("added_data_files_count", types.Int4), col("added_rows_count", types.Int8),
			col("existing_data_files_count", types.Int4), col("existing_rows_count", types.Int8),
			col("deleted_data_files_count", types.Int4), col("deleted_rows_count", types.Int8),
			col("partition_summaries", types.JSONB),
		}, true
	case metaFiles:
		return []planner.TableColumn{
			col("content", types.Int4), col("file_path", types.Text), col("file_format", types.Text),
			col("spec_id", types.Int4), col("partition", types.JSONB), col("record_count", types.Int8),
			col("file_size_in_bytes", types.Int8), col("column_sizes", types.JSONB), col("value_counts", types.JSONB),
			col("null_value_counts", types.JSONB), col("nan_value_counts", types.JSONB),
			col("lower_bounds", types.JSONB), col("upper_bounds", types.JSONB), col("key_metadata", types.Bytea),
			col("split_offsets", int8Array), col("equality_ids", types.Int4Array), col("sort_order_id", types.Int4),
			col("readable_metrics", types.JSONB),
		}, true
	case metaPartitions:
		return []planner.TableColumn{
			col("partition", types.JSONB), col("record_count", types.Int8), col("file_count", types.Int8),
			col("total_size", types.Int8), col("data", types.JSONB),
		}, true
	}
	return nil, false
}

// splitMetadataTableName splits "orders$files" into the table's name and
// the metadata table's kind; ok is false for any other name.
func splitMetadataTableName(name string) (base string, kind metadataKind, ok bool) {
	i := strings.LastIndexByte(name, '$')
	if i <= 0 {
		return "", "", false
	}
	kind = metadataKind(name[i+1:])
	if _, known := metadataColumns(kind); !known {
		return "", "", false
	}
	return name[:i], kind, true
}

// resolveMetadataTable resolves name, "<table>$<kind>", to the metadata
// table of kind of the table base, which must be a table the caller may
// open (not a view or a catalog relation).
func (c *sessionCatalog) resolveMetadataTable(ctx context.Context, name planner.TableName, base string, kind metadataKind) (planner.Table, *planner.View, error) {
	missing := pgerror.New(pgerror.UndefinedTable, "relation \"%s\" does not exist", displayTableName(name))
	baseName := name
	baseName.Name = base
	t, v, err := c.ResolveRelation(ctx, baseName)
	if err != nil {
		switch pgerror.Code(err) {
		case pgerror.UndefinedTable, pgerror.InsufficientPrivilege:
			// A refused table is as absent as a missing one: the
			// metadata table does not tell that it exists.
			return nil, nil, missing
		}
		return nil, nil, err
	}
	a, ok := t.(*tableAdapter)
	if v != nil || !ok {
		return nil, nil, missing
	}
	rel, err := c.s.security.Secure(ctx, a)
	if err != nil {
		return nil, nil, fmt.Errorf("secure %s: %w", displayTableName(baseName), err)
	}
	cols, _ := metadataColumns(kind)
	return &metadataTable{base: a, kind: kind, cols: cols, view: metadataViewOf(rel)}, nil, nil
}

// metadataViewOf is what a caller who sees a table as rel may learn from
// its metadata. Restricted columns are not named. A masked column's
// statistics and partition values are its raw values, so they are not
// shown (a tag mask is a mask here too). Under a row filter no statistic,
// partition value or row count is shown at all: the bounds, counts and
// partition values of a file describe its hidden rows as much as the
// others, as pg_stats withholds every statistic of such a table.
func metadataViewOf(rel *planner.SecuredRelation) storage.MetadataView {
	v := storage.MetadataView{Named: map[int]bool{}, Described: map[int]bool{}}
	if rel == nil {
		return v
	}
	v.RowCounts = len(rel.RowFilters) == 0
	for _, i := range rel.Visible {
		v.Named[i] = true
		if _, masked := rel.Masks[i]; !masked && v.RowCounts {
			v.Described[i] = true
		}
	}
	return v
}

// metadataTable is one metadata table of a table, as the caller may see
// it.
type metadataTable struct {
	base *tableAdapter
	kind metadataKind
	cols []planner.TableColumn
	view storage.MetadataView
}

func (m *metadataTable) QualifiedName() planner.TableName {
	n := m.base.QualifiedName()
	n.Name += "$" + string(m.kind)
	return n
}

func (m *metadataTable) OID() uint32 {
	id := m.base.t.Ident()
	id.Table += "$" + string(m.kind)
	return TableOID(id)
}

func (m *metadataTable) Columns() []planner.TableColumn { return m.cols }
func (m *metadataTable) RowEstimate() int64             { return -1 }

// Scan lists the metadata as one batch; filter is left to the plan.
func (m *metadataTable) Scan(ctx context.Context, columns []int, _ iceberg.BooleanExpression) (planner.RecordStream, error) {
	rows, err := m.rows(ctx)
	if err != nil {
		return nil, err
	}
	b, err := pgcatalog.BuildBatch(m.cols, columns, rows)
	if err != nil {
		return nil, err
	}
	return &pgcatalog.OneBatch{Batch: b}, nil
}

// rows lists the metadata, each row its values by column name.
func (m *metadataTable) rows(ctx context.Context) ([]map[string]any, error) {
	t, v := m.base.t, m.view
	var out []map[string]any
	switch m.kind {
	case metaSnapshots:
		for _, s := range t.SnapshotRows(v) {
			summary, err := jsonb(s.Summary)
			if err != nil {
				return nil, err
			}
			out = append(out, map[string]any{
				"committed_at": s.CommittedAt, "snapshot_id": s.SnapshotID, "parent_id": deref(s.ParentID),
				"operation": s.Operation, "manifest_list": s.ManifestList, "summary": summary,
			})
		}
	case metaHistory:
		for _, h := range t.HistoryRows() {
			out = append(out, map[string]any{
				"made_current_at": h.MadeCurrentAt, "snapshot_id": h.SnapshotID, "parent_id": deref(h.ParentID),
				"is_current_ancestor": h.IsCurrentAncestor,
			})
		}
	case metaRefs:
		for _, r := range t.RefRows() {
			out = append(out, map[string]any{
				"name": r.Name, "type": r.Type, "snapshot_id": r.SnapshotID,
				"max_reference_age_in_ms": deref(r.MaxReferenceAgeMs), "min_snapshots_to_keep": deref(r.MinSnapshotsToKeep),
				"max_snapshot_age_in_ms": deref(r.MaxSnapshotAgeMs),
			})
		}
	case metaManifests:
		mans, err := t.ManifestRows(ctx, v)
		if err != nil {
			return nil, err
		}
		for _, r := range mans {
			sums := make([]map[string]any, 0, len(r.PartitionSummaries))
			for _, p := range r.PartitionSummaries {
				sums = append(sums, map[string]any{"field": p.Field, "contains_null": p.ContainsNull,
					"contains_nan": p.ContainsNaN, "lower_bound": p.LowerBound, "upper_bound": p.UpperBound})
			}
			summaries, err := jsonb(sums)
			if err != nil {
				return nil, err
			}
			out = append(out, map[string]any{
				"path": r.Path, "length": r.Length, "partition_spec_id": r.PartitionSpecID, "added_snapshot_id": r.AddedSnapshotID,
				"added_data_files_count": r.AddedDataFilesCount, "added_rows_count": deref(r.AddedRowsCount),
				"existing_data_files_count": r.ExistingDataFilesCount, "existing_rows_count": deref(r.ExistingRowsCount),
				"deleted_data_files_count": r.DeletedDataFilesCount, "deleted_rows_count": deref(r.DeletedRowsCount),
				"partition_summaries": summaries,
			})
		}
	case metaFiles:
		files, err := t.FileRows(ctx, v)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			row, err := fileRow(f, v.RowCounts)
			if err != nil {
				return nil, err
			}
			out = append(out, row)
		}
	case metaPartitions:
		parts, err := t.PartitionRows(ctx, v)
		if err != nil {
			return nil, err
		}
		for _, p := range parts {
			part, err := partitionJSON(p.Partition)
			if err != nil {
				return nil, err
			}
			data := map[string]any{}
			for _, c := range p.Columns {
				data[c.Name] = map[string]any{"min": c.Min, "max": c.Max, "null_count": c.NullCount, "nan_count": c.NaNCount}
			}
			dataJSON, err := jsonb(data)
			if err != nil {
				return nil, err
			}
			out = append(out, map[string]any{
				"partition": part, "record_count": deref(p.RecordCount), "file_count": p.FileCount,
				"total_size": p.TotalSize, "data": dataJSON,
			})
		}
	}
	return out, nil
}

// fileRow is one $files row. The maps of metrics are keyed by column name
// and hold only the metrics the listing shows; without row counts the
// maps of counts are NULL.
func fileRow(f storage.FileRow, rowCounts bool) (map[string]any, error) {
	part, err := partitionJSON(f.Partition)
	if err != nil {
		return nil, err
	}
	sizes, values, nulls, nans := map[string]any{}, map[string]any{}, map[string]any{}, map[string]any{}
	lower, upper, readable := map[string]any{}, map[string]any{}, map[string]any{}
	put := func(m map[string]any, k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	for _, c := range f.Columns {
		put(sizes, c.Name, deref(c.ColumnSize), c.ColumnSize != nil)
		put(values, c.Name, deref(c.ValueCount), c.ValueCount != nil)
		put(nulls, c.Name, deref(c.NullCount), c.NullCount != nil)
		put(nans, c.Name, deref(c.NaNCount), c.NaNCount != nil)
		put(lower, c.Name, deref(c.LowerBound), c.LowerBound != nil)
		put(upper, c.Name, deref(c.UpperBound), c.UpperBound != nil)
		readable[c.Name] = map[string]any{
			"column_size": c.ColumnSize, "value_count": c.ValueCount, "null_value_count": c.NullCount,
			"nan_value_count": c.NaNCount, "lower_bound": c.LowerBound, "upper_bound": c.UpperBound,
		}
	}
	row := map[string]any{
		"content": f.Content, "file_path": deref(f.FilePath), "file_format": f.FileFormat, "spec_id": f.SpecID,
		"partition": part, "record_count": deref(f.RecordCount), "file_size_in_bytes": f.FileSizeInBytes,
		"sort_order_id": deref(f.SortOrderID),
	}
	if f.KeyMetadata != nil {
		row["key_metadata"] = f.KeyMetadata
	}
	if f.SplitOffsets != nil {
		row["split_offsets"] = f.SplitOffsets
	}
	if f.EqualityIDs != nil {
		row["equality_ids"] = f.EqualityIDs
	}
	metrics := map[string]map[string]any{"column_sizes": sizes, "lower_bounds": lower, "upper_bounds": upper, "readable_metrics": readable}
	if rowCounts {
		metrics["value_counts"], metrics["null_value_counts"], metrics["nan_value_counts"] = values, nulls, nans
	}
	for col, m := range metrics {
		if row[col], err = jsonb(m); err != nil {
			return nil, err
		}
	}
	return row, nil
}

// partitionJSON is a partition as a JSON object keyed by partition field
// name ({} for an unpartitioned table).
func partitionJSON(pv []storage.PartitionValue) (string, error) {
	m := map[string]any{}
	for _, p := range pv {
		m[p.Field] = p.Value
	}
	return jsonb(m)
}

// jsonb is v as jsonb text, in PostgreSQL's normal form.
func jsonb(v any) (string, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return "", pgerror.Wrap(err, pgerror.InternalError, "encode metadata as json")
	}
	return types.NormalizeJSONB(string(raw))
}

// deref is *p, or nil (NULL) for a nil pointer.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// sessionSecurity is the session's gate two: inner's, except that a
// metadata table, whose rows are already what the caller may see of its
// table, is open.
type sessionSecurity struct{ inner planner.Security }

// versionedSessionSecurity is sessionSecurity over a VersionedSecurity.
type versionedSessionSecurity struct {
	sessionSecurity
	versioned planner.VersionedSecurity
}

// withMetadataTables wraps inner, keeping it versioned if it is.
func withMetadataTables(inner planner.Security) planner.Security {
	s := sessionSecurity{inner: inner}
	if v, ok := inner.(planner.VersionedSecurity); ok {
		return versionedSessionSecurity{sessionSecurity: s, versioned: v}
	}
	return s
}

func (s sessionSecurity) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	if m, ok := t.(*metadataTable); ok {
		return planner.OpenRelation{}.Secure(ctx, m)
	}
	return s.inner.Secure(ctx, t)
}

func (s versionedSessionSecurity) PoliciesVersion(ctx context.Context) (int64, bool, error) {
	return s.versioned.PoliciesVersion(ctx)
}
