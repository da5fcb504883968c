// Package remote runs a secured statement on another engine (Trino, or
// PostgreSQL) and streams its answer back as Arrow batches of the plan's
// own column types, so that the session encodes it for the client exactly
// as it encodes a local result.
//
// The statement it sends was written by planner/sqlwrite from a plan that
// gate one and gate two had already secured: nothing here sees the user's
// text, and nothing here decides what a caller may read. An engine is
// reached with its own service identity, which may read every table, so
// what it is sent must already be the caller's view.
//
// Values arrive as text (PostgreSQL's text format, Trino's JSON) and are
// read with the same input functions as a literal of the column's type
// (types.ParseText), then appended as a constant is; a value the column's
// type does not accept fails the statement rather than being guessed.
//
// An error from the engine is returned with its SQLSTATE (Trino's error
// names are mapped to one) and a message that names the engine and the
// error's kind, never the statement or the values it read. An engine that
// cannot be reached answers a connection exception (class 08), which
// lets sqe.execution = 'auto' run the statement locally instead.
package remote
