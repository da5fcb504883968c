// Package metrics is SQE's Prometheus instrumentation: one Metrics value
// owns its own registry (never the client library's global one) and
// offers plain methods that the server's packages reach through their own
// narrow hooks (pgwire.Observer, the engine's statement auditor, a timed
// storage catalog, the policy stores' cache callbacks). Only this package
// and the wiring in cmd/sqe import the Prometheus client.
//
// Metrics, all prefixed sqe_:
//
//   - connections (gauge), connections_opened_total,
//     connections_refused_total{reason}: client sessions past login, and
//     the connections refused before one, by the SQLSTATE they were sent
//     (too_many_connections, authentication_failed, ...).
//   - queries_total{outcome,sqlstate_class} and
//     query_duration_seconds{outcome}: every statement a session ran, ok
//     or error with the class (first two characters) of its SQLSTATE.
//   - rows_returned_total, bytes_returned_total: DataRows and protocol
//     bytes sent to clients.
//   - errors_sent_total{sqlstate_class} and
//     rate_limit_refusals_total{limit}: every ErrorResponse sent, and
//     those meaning a limit refused the client (53400 a query rate limit,
//     53300 a connection limit), derived from the SQLSTATE as it leaves.
//   - policy_cache_hits_total{store}, policy_cache_misses_total{store}.
//   - catalog_call_duration_seconds{catalog,operation,outcome}.
//   - remote_statements_total{engine,outcome}, remote_bytes_total{engine}:
//     SELECTs sent to a remote engine (sqe.execution) and their answers.
//   - the Go runtime's and the process's standard collectors.
package metrics
