// Command duckdb is the DuckDB side of the TPC-H benchmark. It lives in a
// module of its own so that SQE's module never depends on DuckDB (a cgo
// build of the whole database engine).
//
// It generates the TPC-H tables with package datagen, the same generator
// that fills SQE and PostgreSQL, and appends them to a DuckDB database file
// (built under a temporary name and renamed once complete, so a file that
// exists is a whole database and is reused by the next run). It then runs
// the shipped TPC-H queries with a fixed number of threads, one warm-up and
// several timed runs each, reading every row of every result. With
// -parquet (a JSON object mapping each table to Parquet files, the ones
// SQE wrote) it runs the same queries again in an in-memory database
// whose tables are views over read_parquet of those files. It prints the
// timings as one JSON object on stdout for the bench program to read.
// Progress goes to stderr.
package main
