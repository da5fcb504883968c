// Package pgerror defines the one error type that reaches a PostgreSQL
// client: an Error carrying a SQLSTATE code, a message in PostgreSQL's
// wording, and optional detail, hint and cursor position.
//
// Every layer that can refuse a request (auth, sql, planner, storage
// adapters, pgwire) creates its user-facing errors here, at the point
// where the reason is known, so the code is never guessed later. pgwire
// turns an Error into an ErrorResponse; any other error that reaches it is
// an internal error (XX000) whose text is logged, not sent.
package pgerror
