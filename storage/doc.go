// Package storage is SQE's door to Apache Iceberg. It names tables, opens
// catalogs, scans tables into Arrow record streams and appends Arrow data
// as Iceberg commits; it knows nothing of SQL, plans or the wire protocol.
//
// A request enters through a Catalog with the caller's Principal in its
// context. The catalog asks its Authorizer (gate one) before every listing,
// load, create or write, and fails closed when the context carries no
// principal. LoadTable returns a Table: a snapshot of the table's metadata
// with its schema already converted to Arrow, each field carrying its
// Iceberg field id. Scan turns that snapshot into a RecordStream, pushing
// the column selection, filter and limit into iceberg-go so that files are
// pruned by partition and column statistics before any row is read; the
// row groups of a file are pruned the same way by the statistics in its
// Parquet footer (rowGroupCache). Files are written in row groups of
// iceberg-go's default (write.parquet.row-group-limit, 1,048,576 rows):
// smaller groups let a lookup skip more of a file but cost every scan
// (a 16,384-row default made streaming a 1M-row table 1.7x slower), so a
// table that is mostly looked up sets the property lower.
//
// A column whose values are not ordered prunes nothing by statistics;
// a table that looks such a column up asks for Parquet bloom filters on
// it (write.parquet.bloom-filter-enabled.column.<name>), and an equality
// or IN list then skips the row groups whose filters hold none of its
// values (row_group_bloom.go), files of one row group included.
//
// SQE's writer also writes Parquet page indexes (each page's bounds and
// first row); iceberg-go's has no setting for them. SQE's reader does
// not use them yet. arrow-go (v18.9) reads both indexes
// (metadata.PageIndexReader) and its column readers can SeekToRow by the
// offset index, but it has no row selection: reading only the pages an
// equality can match would be, per page range and column, a SeekToRow
// and a NextBatch, and each SeekToRow opens a new page reader that,
// unless ReaderProperties.BufferedStreamEnabled is set, reads the whole
// column chunk again (only decoding is saved, and the chunk is read once
// per range); nor does it match a predicate to the column index, which
// the caller would do per page. On an unsorted column a page spans the
// row group's range, so page skipping would help only clustered columns,
// which row-group statistics already narrow to one group.
//
// iceberg-go plans a scan (snapshots, manifests, pruning); SQE decodes
// the Parquet data files itself (parquet_read.go) when there are no
// deletes to apply and no row filter to evaluate (ScanRequest.PruneOnly,
// as the SQL layer asks): it opens the file through the table's file IO,
// reads only the task's row groups and the requested columns, mapped by
// Parquet field id to the table schema (a column added later reads as
// NULL, a promoted type is cast once per chunk), and hands each column
// chunk out in pieces of 65,536 rows. Pages are read one at a time into
// the page reader's buffer (not the whole chunk into a fresh one), and
// each scan decodes into buffers it takes back once the operators release
// a piece (storage/bufferpool), so a scan keeps touching the same memory. Files with deletes, without field
// ids, or of other formats, and filtered scans, are read by iceberg-go.
// A ChunkCache, bounded by bytes and shared by the catalogs that are
// given it, keeps the decoded chunks (file, field id, row group) and the
// files' footers, so that a warm query decodes nothing it decoded before.
// A chunk it keeps is copied as it is decoded into one slab outside Go's
// heap (chunk_copy.go, storage/offheap), where the collector neither
// marks it nor lets it raise the heap's goal.
//
// Writes go the other way. Append checks every batch against the table
// schema (iceberg-go accepts NULLs in required columns and mismatched
// types), writes Parquet data files once, and then commits them as one
// snapshot. iceberg-go writes the files, except for an unpartitioned
// table with a decimal of precision 18 or less or with a sort order:
// SQE writes its files itself (parquet_write.go), with iceberg-go's
// settings but such decimals stored as INT32 or INT64, which read with
// a plain copy where 16-byte values need a byte swap each (and a scan
// asking for 64-bit decimals, as the SQL layer's do, takes the INT64
// values as they are: decimal64.go), and a sorted
// table's rows in the order the SQL layer sorted them (Table.SortOrder;
// iceberg-go would sort each batch again). RewriteDataFiles sorts a
// sorted table's rows with the RowSorter it is given. Commits to a
// table are serialised per catalog, and a commit that loses a race with
// another process is retried on the reloaded table. Appends and
// rewrites outside a transaction block write their files without the
// commit lock and then wait in the table's line: changes that arrive
// while a commit is in flight are committed together in the next
// snapshot, each acknowledged once that snapshot is durable (group
// commit, group_commit.go). BeginRewrite reads the files a DELETE,
// UPDATE or MERGE may change and commits "remove these, add those"
// (copy-on-write; never delete files); rewrites take turns, each reading
// the table as the changes queued ahead of it leave it. The rows a
// rewrite of one file adds go into that file's replacement, so a one-row
// UPDATE leaves as many files as it found. When another process only
// appended meanwhile, the rewrite is committed on the newer table,
// otherwise it fails with a RerunConflict for the statement to be run
// again. Stage and BeginStagedRewrite write a transaction block's
// changes without committing them; CommitStagedTables commits them at
// COMMIT, Discard removes them, and a Table made WithStaged reads them.
//
// Planning a scan reads the snapshot's manifest list and every manifest;
// a table built by many small commits has one manifest per commit. Each
// catalog therefore caches plans per snapshot (planCache), keyed by all
// that the plan is computed from, and plans a snapshot that only
// appended to a cached one from the new manifests alone. A filtered scan
// of an unpartitioned table is planned from the snapshot's unfiltered
// plan, so that point lookups, each with its own literal, share one plan.
// ExactRowCount answers count(*) from the record counts the manifests
// keep per data file (exact, as SQE writes copy-on-write; a table with
// delete files is left to a scan), and the cache keeps each snapshot's
// count beside its plan.
//
// The embedded catalog (SQLite) loads and commits tables itself rather
// than through iceberg-go's SQL catalog: it parses each metadata file
// once (metadataCache), and it can move several tables' metadata
// pointers in one SQLite transaction, which makes a block's writes to
// several tables atomic (commitGroup). The REST catalog commits table by
// table, so a block may write only one of its tables. Its idempotent
// reads (GET of the configuration, listings and table metadata) are
// retried with bounded, jittered backoff when the server does not answer
// or answers a transient 5xx (retryTransport); a commit is sent once,
// since one whose answer was lost may have taken effect.
//
// An acknowledged commit survives an operating-system crash. Before the
// embedded catalog moves a pointer, it fsyncs every file of a local
// warehouse that the new metadata refers to and the commit created (the
// metadata file, each new snapshot's manifest list, the manifests it
// added and the data files they add) and the directories that gained
// them; a failed fsync fails the commit (58030) with nothing moved.
// Object stores are durable once a write returns. EmbeddedOptions
// SkipFsync turns this off, at the risk of losing commits in a crash.
//
// ANALYZE's statistics (Table.Analyze) are an Iceberg statistics file per
// snapshot: a Puffin file of theta sketches (package theta) with the
// column counts as blob properties, registered in the metadata's
// statistics list. Table.Statistics reads them from the metadata alone,
// for the current snapshot or, after a write, the newest before it.
//
// Errors that a client may see carry a SQLSTATE (package pgerror) and wrap
// one of the package's sentinel errors, so callers can test them with
// errors.Is.
package storage
