// Command bench measures SQE end to end, over the PostgreSQL wire protocol,
// and sets the numbers beside PostgreSQL 15 serving the same rows.
//
// It builds the sqe binary and prepares two data directories: one with the
// demo (acdemo.sales at one million rows, made by `sqe serve --demo`) and
// one whose sales table is four times larger, written through the storage
// API with the demo's own generator. Each directory is then served by a
// fresh `sqe serve` process, and a pgx client (simple query protocol) runs
// the same queries against it: a warm-up, then several timed runs whose
// median is kept. After each size the server's peak resident set (VmHWM)
// is read from /proc, which shows whether memory follows the table's size
// (materialising) or stays flat (streaming). Every `sqe serve` the program
// starts runs with the default statement and session timeouts lifted, so
// a long query, idle connections or a soak are measured rather than cut.
//
// For the comparison a throw-away PostgreSQL cluster is initialised in a
// temporary directory, started on a free loopback port with trust
// authentication, and loaded by streaming `SELECT *` out of SQE straight
// into COPY, so both engines answer over identical rows. Every process the
// program starts is stopped by its pid before it returns, on success, on
// error and on interrupt, and the temporary directory is removed.
//
// The result is one table on stdout. Any failed query, or a query whose
// answer differs between SQE and PostgreSQL, makes the exit status
// non-zero.
//
// A second part runs the 22 TPC-H queries (package datagen) at one or
// more scale factors (-tpch-sf 1,10: one table each, then how each
// query's time grew with the data). The data is generated once per scale
// factor into a cache directory and reused: an SQE data directory written
// through the storage API, and a DuckDB database file. Each engine runs
// alone: SQE served from the cached directory, each query on a freshly
// started server so that its first run is cold (nothing cached by an
// earlier query) and the runs after it warm; a fresh PostgreSQL cluster
// loaded from the same generator with COPY and measured with
// max_parallel_workers_per_gather 0 and then 2; and DuckDB with two
// threads, by a program in its own module (duckdb/) so that SQE's module
// never depends on it, which prints its timings as JSON. DuckDB runs twice:
// on its own database file (native) and on views over read_parquet of the
// very Parquet files SQE wrote, listed from the tables' current snapshots
// in the data directory's Iceberg metadata (tpch_parquet.go). The table
// shows SQE cold and warm, PostgreSQL with 0 and 2 workers, both DuckDB
// configurations and the ratios the issue sets targets for (SQE cold /
// DuckDB on the Parquet files, SQE warm / DuckDB native, PostgreSQL with 2
// workers / SQE warm). A query SQE cannot run is shown with its SQLSTATE
// and message and the run goes on; an SQE answer that differs from
// PostgreSQL's, or a DuckDB row count that does, is reported, and the
// former fails the run. With -tpch-profile DIR, each query SQE ran is
// then repeated for -tpch-profile-seconds while its CPU profile is taken
// from the server's /debug/pprof/ (on for these servers, fetched with an
// administrator's token), and the allocation profile of its server's life
// follows, one pair of files per query (tpch_profile.go). Flag -suite
// chooses the parts.
//
// A third part (-suite policy, policy_suite.go) measures gate two's
// overhead: one table of -policy-rows generated rows (ten million by
// default), read by a user no policy applies to and by a user with one
// row filter that keeps every row and two column masks, taking turns on
// the same server; it prints each query's time for both and their ratio.
//
// -suite copy (never part of "all") measures loading instead: it writes
// -copy-rows lineitem-like rows (default one million) to a text file and
// loads it with psql's \copy (COPY ... FROM STDIN) into an empty SQE table
// and into PostgreSQL 15, printing rows per second for each (copy_suite.go).
//
// -suite load (load_suite.go) runs pgbench with custom scripts
// (testdata/load_read.sql: a point lookup, an aggregate and two catalog
// queries of the kind BI tools send; testdata/load_write.sql: an INSERT
// and an UPDATE of another table), -load-clients clients for
// -load-duration each, in each pgbench protocol of -load-protocols, against
// SQE and then against PostgreSQL 15 holding the same tables. It prints
// transactions, failures, tps and the p50 / p99 latency read from
// pgbench's per-transaction log, and fails on any failed transaction or
// when the tables do not hold exactly one INSERT and one UPDATE per
// counted write transaction. pgbench logs in to SQE with a token as its
// password. -suite conns (load_conns.go) opens -load-conns idle
// connections and reports memory per connection and the latency of a
// fresh login with SELECT 1 while they are open; both are part of "all".
// -suite latency (latency_suite.go, part of "all") times the small
// statements dashboards, BI tools and ORMs send, with one pgx client, on
// PostgreSQL 15 and then on SQE holding the same tables, each server
// alone: SELECT 1 (simple protocol) and a prepared one-row lookup by id;
// over a catalog of 200 tables of 20 columns (integers, text, numeric,
// dates, timestamps, booleans) in five schemas, created on both through
// pgwire, every query of compat-tests/testdata/bi (Grafana, Metabase,
// Superset; over each tool's protocol, with its example parameters;
// one listed in known_failures.txt runs on PostgreSQL only, and the
// output says so), the queries SQLAlchemy 2.0's Inspector sends for
// get_columns and get_pk_constraint of s1.t1 (latency_statements.go,
// as captured from its PostgreSQL dialect) and both for all 200 tables
// as one figure (-latency-sweeps runs), pgjdbc's getColumns(null, "s%",
// "%", "%") and the queries psql 15 sends for \d s1.t1, read from
// `psql -E` against the PostgreSQL the suite starts; the table OID a
// client sends back as a literal is the one each server returned. Then
// SELECT * FROM t WHERE id = $1 with random ids on a table of
// -latency-rows rows (one million by default; a primary key on
// PostgreSQL, Parquet row groups of 16,384 rows on SQE) and a single-row
// INSERT. Each statement runs -latency-runs times (200 by default)
// after a warm-up; the table shows each server's p50 and p99 and SQE's
// p50 over PostgreSQL's. Every answer is checked: each query must
// return as many rows on both servers (EXPLAIN only some rows on each,
// and SQLAlchemy's domain list only the rows outside PostgreSQL's
// information_schema, whose built-in domains SQE has not), and
// afterwards the INSERTed table must hold exactly one row per INSERT;
// anything else fails the suite, naming the statement.
// -suite soak (load_soak.go, `make soak`) holds a server at a steady
// rate-limited load for -soak-duration and samples its RSS, Go heap and
// goroutines (/metrics), while compacting and expiring the written tables
// every -soak-maintenance (soak_maintenance.go).
// -suite maintenance (maintenance_suite.go, `make soak-maintenance`)
// runs single-row INSERTs for -maint-duration with the server's
// automatic maintenance on, and samples the table's data files,
// manifests and metadata files and a fixed SELECT's latency every
// -maint-interval.
package main
