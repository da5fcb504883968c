// Package trino is a remote engine (package sql/remote) that runs a
// written statement on Trino through Trino's client REST protocol.
//
// The statement is POSTed to /v1/statement as the engine's service user,
// and its answer is read by following nextUri, one page per request, only
// as fast as the stream is read: a batch never waits for a page it does
// not need, so memory stays flat however many rows the answer has. The
// protocol is spoken directly over net/http, not through a database/sql
// driver, so that the result columns' Trino types are read and checked
// against the plan's, each value is read from its JSON text exactly (an
// integer beyond 2^53 stays exact), and a statement given up on is
// cancelled on Trino with a DELETE of its nextUri.
//
// The session is sent with the time zone UTC, so that a timestamp comes
// back as stored, and with the PARAMETRIC_DATETIME client capability:
// without it Trino rounds timestamp(6) values to milliseconds.
//
// Trino's error message can quote the statement and the values it read,
// so it is never kept: an error names the engine and Trino's error name
// only, with a SQLSTATE mapped from the name (errors.go). Failing to
// reach Trino is a connection exception (class 08).
package trino
