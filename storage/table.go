package storage

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// tableHost is what a Table needs from the catalog that loaded it: gate one,
// the per-table commit lock, a fresh copy of the table's metadata and the
// catalog's plan cache.
type tableHost interface {
	authorize(ctx context.Context, a Action, target Ident) error
	lockTable(ctx context.Context, id Ident) (unlock func(), err error)
	reloadTable(ctx context.Context, id Ident) (*table.Table, error)
	// commitLines is where changes to the table queue for group commit,
	// and the key of their line (group_commit.go).
	commitLines(ctx context.Context, id Ident) (*commitLines, string)
	// catalogIO commits metadata updates that iceberg-go's Transaction
	// has no method for (a statistics file), as the catalog's tables do.
	catalogIO(ctx context.Context) (table.CatalogIO, error)
	// commitError turns a commit's failure (other than a conflict, which
	// the caller retries) into the error the client sees.
	commitError(ctx context.Context, id Ident, err error) error
	// commitAttempts is how many times a commit that loses a race with
	// another writer is tried in all, at least 1.
	commitAttempts() int
	// planCache holds the file plans of the catalog's snapshots.
	planCache() *planCache
	// rowGroupCache holds the row-group statistics of the catalog's data
	// files.
	rowGroupCache() *rowGroupCache
	// chunkCache holds decoded column chunks, nil when there is none.
	chunkCache() *ChunkCache
}

// Table is one version of an Iceberg table: its metadata as loaded, with
// the schema already converted to Arrow. It is immutable; Append returns
// the table as of the new snapshot.
type Table struct {
	host   tableHost
	ident  Ident
	tbl    *table.Table
	schema *arrow.Schema
	// staged are uncommitted data files its scans read after the
	// snapshot's, and hidden the paths of the snapshot's files that staged
	// changes removed, which its scans skip (WithStaged); stagedRows is
	// the rows this adds, net of the rows removed.
	staged     []iceberg.DataFile
	hidden     map[string]bool
	stagedRows int64
	// past marks a past version of the table (AtVersion): it only reads.
	past bool
	// branch, when set, is the branch this table is the head of
	// (OnBranch): it reads the branch, and its writes commit to it.
	branch string
}

func newTable(host tableHost, id Ident, tbl *table.Table) (*Table, error) {
	sc, err := table.SchemaToArrowSchema(tbl.Schema(), nil, true, false)
	if err != nil {
		return nil, fmt.Errorf("convert schema of %s: %w", id, err)
	}
	return &Table{host: host, ident: id, tbl: tbl, schema: sc}, nil
}

// newCachedTable is newTable for a table whose metadata the cache holds:
// the Arrow schema is converted once per metadata file.
func newCachedTable(host tableHost, cache *metadataCache, id Ident, tbl *table.Table) (*Table, error) {
	sc, err := cache.currentArrowSchema(tbl.MetadataLocation(), tbl.Metadata())
	if err != nil {
		return nil, fmt.Errorf("convert schema of %s: %w", id, err)
	}
	return &Table{host: host, ident: id, tbl: tbl, schema: sc}, nil
}

// Ident is the table's three-part name.
func (t *Table) Ident() Ident { return t.ident }

// Schema is the table's current schema as Arrow: fields in Iceberg order,
// Nullable = !required, and each field's metadata carrying the Iceberg field
// id under "PARQUET:field_id".
func (t *Table) Schema() *arrow.Schema { return t.schema }

// SnapshotID is the current snapshot's id, 0 when the table has none.
func (t *Table) SnapshotID() int64 {
	if s := t.tbl.CurrentSnapshot(); s != nil {
		return s.SnapshotID
	}
	return 0
}

// SnapshotCount is how many snapshots the table's metadata keeps.
func (t *Table) SnapshotCount() int { return len(t.tbl.Metadata().Snapshots()) }

// Properties returns a copy of the table properties.
func (t *Table) Properties() map[string]string {
	return maps.Clone(map[string]string(t.tbl.Properties()))
}

// RowCountEstimate is the current snapshot's "total-records" summary: 0 for
// a table without snapshots, -1 when the summary does not say. Rows staged
// with WithStaged are added.
func (t *Table) RowCountEstimate() int64 {
	n := t.committedRowEstimate()
	if n < 0 {
		return n
	}
	return n + t.stagedRows
}

func (t *Table) committedRowEstimate() int64 { return t.summaryTotal("total-records") }

// FilesSize is the bytes of the current snapshot's data and delete files
// (its "total-files-size" summary): 0 for a table without snapshots, -1
// when the summary does not say. Staged files are not counted.
func (t *Table) FilesSize() int64 { return t.summaryTotal("total-files-size") }

// summaryTotal reads a running total of the current snapshot's summary.
func (t *Table) summaryTotal(key string) int64 {
	s := t.tbl.CurrentSnapshot()
	if s == nil {
		return 0
	}
	if s.Summary == nil {
		return -1
	}
	n, err := strconv.ParseInt(s.Summary.Properties[key], 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
