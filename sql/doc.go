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
// With an Auditor configured (governance/audit), each statement is
// recorded when it ends, with its duration, row count and SQLSTATE, and
// each GRANT, REVOKE, DENY, role, policy and tag statement with its result.
//
// Engine holds what sessions share (catalogs, governance); a Session holds
// one client's identity and settings and is used by one goroutine at a
// time.
package sql
