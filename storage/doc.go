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
// pruned by partition and column statistics before any row is read.
//
// Writes go the other way. Append checks every batch against the table
// schema (iceberg-go accepts NULLs in required columns and mismatched
// types), writes Parquet data files once, and then commits them as one
// snapshot. Commits to a table are serialised per catalog, and a commit that
// loses a race with another process is retried on the reloaded table,
// because the SQL catalog reports that conflict as a plain error that
// iceberg-go's own retry does not recognise. Stage writes the files without
// committing them (a transaction block's writes); CommitStaged commits them
// later as one snapshot, Discard removes them, and a Table made WithStaged
// scans them after its snapshot's files.
//
// Errors that a client may see carry a SQLSTATE (package pgerror) and wrap
// one of the package's sentinel errors, so callers can test them with
// errors.Is.
package storage
