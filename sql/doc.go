// Package sql is SQE's statement layer: it parses what a client sends,
// dispatches each statement, and wires the planner to storage and
// governance for one session.
//
// A query string arrives from pgwire at Session.Parse, which runs
// pg_query (PostgreSQL's own grammar) and splits it into Statements. Each
// Statement goes to Session.Execute: session statements (SET, SHOW,
// BEGIN...) are answered here; a SELECT is bound by the planner against a
// per-session Catalog that resolves tables through storage as the caller
// (gate one) and a Security hook from governance (gate two), optimized,
// built into exec operators, and returned as a Result that pgwire pulls
// batch by batch. Each query gets its own exec.MemoryBudget of the
// engine's MemoryLimit, and reads its batches under the caller's context
// bounded by statement_timeout, so a query too large fails with 53200 and
// a cancelled or timed-out one stops with 57014.
//
// With an Auditor configured (governance/audit), each statement is
// recorded when it ends, with its duration, row count and SQLSTATE, and
// each GRANT, REVOKE, DENY and role statement with its result.
//
// Engine holds what sessions share (catalogs, governance); a Session holds
// one client's identity and settings and is used by one goroutine at a
// time.
package sql
