// Package sqllogictest runs sqllogictest files (the record format of
// SQLite's sqllogictest, as DataFusion writes it) against a server that
// speaks the PostgreSQL wire protocol, and reports which records pass.
//
// It exists to measure SQE against the Postgres-compatibility files of
// Apache DataFusion: every expected value in them is what a real
// PostgreSQL answers, rendered the way DataFusion's Postgres runner prints
// it. Parse reads a file into Records; Render turns a PostgreSQL text
// value into that runner's rendering, and Match compares a result with a
// record's expected block (honouring rowsort and valuesort). Run executes
// the records of each file on its own connection with the file's schema
// first on search_path, like DataFusion's runner, and collects a Report.
//
// SQE cannot yet create or load tables over the wire. The setup shim
// covers that: PlanShim first sends every file's table-setup records
// (CREATE TABLE, COPY FROM, INSERT ... VALUES, DROP TABLE) to a scratch
// server; for each table SQE refuses with 0A000 or 42601 it builds the
// table from the records themselves (the CREATE TABLE parsed with
// pg_query, the COPY'd CSV or the INSERTed VALUES turned into Arrow
// batches), and Apply writes those tables through the storage API into
// the real server's data directory before that server starts. Run then
// marks the shimmed records as set up through storage, never as passes,
// so the report stays honest about what SQE itself did.
package sqllogictest
