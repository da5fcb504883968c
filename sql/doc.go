// Package sql is SQE's statement layer: it parses what a client sends,
// dispatches each statement, and wires the planner to storage and
// governance for one session.
//
// A query string arrives from pgwire at Session.Parse, which runs
// pg_query (PostgreSQL's own grammar) and splits it into Statements. Each
// Statement goes to Session.Execute: session statements (SET, SHOW,
// BEGIN...) are answered here; a SELECT is bound by the planner against a
// per-session Catalog that resolves tables through storage as the caller
// (gate one) and a Security hook from governance (gate two), optimized
// (Session.optimize, for every statement's plan), checked
// (planner.CheckPlan, in newRowsResult, where every plan starts to run),
// built into exec operators, and returned as a Result that pgwire pulls
// batch by batch. Each query gets its own exec.MemoryBudget of the
// engine's MemoryLimit and its own exec.SpillArea in the engine's Spill
// directory (removed when its result closes), and reads its batches under
// the caller's context bounded by statement_timeout, so a query too large
// spills its sorts and aggregates or fails with 53200, and a cancelled or
// timed-out one stops with 57014.
//
// Prepared statements, the extended protocol's (Session.Prepare, Bind) and
// SQL's (PREPARE, EXECUTE, DEALLOCATE: prepare_stmts.go), share one
// namespace per session (PreparedStatements) and keep only a parse tree:
// each execution binds the statement again as the caller, so a policy
// that changed since it was prepared applies.
//
// Statements PostgreSQL has no grammar for are read by sql/extgrammar
// first (Parse splits a query at its semicolons and offers each piece):
// gate one's GRANT / REVOKE / DENY, roles, SHOW GRANTS and CHECK ACCESS go
// to the configured AccessControl (access_statements.go); gate two's
// CREATE / DROP / SHOW POLICIES, the GRANT ... ROWS WHERE / MASKED WITH
// forms, DENY / REVOKE SELECT (columns) and SET / UNSET / SHOW TAGS to the
// policy store (policy_statements.go, column_deny.go, tag_statements.go);
// SHOW ACCESS asks both gates
// (show_access.go); ALTER TABLE ... SET SORT ORDER sets a table's Iceberg
// sort order, which INSERT, CREATE TABLE AS, COPY FROM and
// rewrite_data_files sort their rows by (sort_order.go). Column tags live on the table property
// sqe.column-tags, keyed by field id (column_tags.go), and follow data
// into CREATE TABLE AS and INSERT ... SELECT (column_tags_carry.go).
//
// A table's Iceberg metadata reads as Trino's metadata tables
// (metadata_tables.go), "orders$snapshots" (committed_at, snapshot_id,
// parent_id, operation, manifest_list, summary jsonb), "$history"
// (made_current_at, snapshot_id, parent_id, is_current_ancestor),
// "$refs" (name, type, snapshot_id, max_reference_age_in_ms,
// min_snapshots_to_keep, max_snapshot_age_in_ms), "$manifests" (path,
// length, partition_spec_id, added_snapshot_id, added/existing/deleted
// data files and rows counts, partition_summaries jsonb), "$files"
// (content, file_path, file_format, spec_id, partition, record_count,
// file_size_in_bytes, column_sizes, value_counts, null_value_counts,
// nan_value_counts, lower_bounds, upper_bounds, key_metadata,
// split_offsets, equality_ids, sort_order_id, readable_metrics) and
// "$partitions" (partition, record_count, file_count, total_size, data),
// maps as jsonb keyed by column name. The table is resolved as the caller
// (a refused or missing table: 42P01 for the metadata table), and what
// its metadata shows follows the caller's secured relation of the table:
// restricted columns are not named, masked columns have no statistics or
// partition values, and a row filter withholds every statistic, partition
// value and row count. The metadata table itself is open to gate two
// (sessionSecurity), by Go type rather than by name, and read-only.
//
// With an Auditor configured (governance/audit), each statement is
// recorded when it ends, with its duration, row count and SQLSTATE, and
// each GRANT, REVOKE, DENY, role, policy and tag statement with its result.
//
// Engine holds what sessions share (catalogs, governance); a Session holds
// one client's identity and settings and is used by one goroutine at a
// time.
package sql
