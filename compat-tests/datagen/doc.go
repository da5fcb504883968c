// Package datagen makes the eight TPC-H tables (region, nation, supplier,
// customer, part, partsupp, orders, lineitem) at any scale factor, without
// reading anything from outside, so that SQE, PostgreSQL and DuckDB can be
// measured on the same rows with the benchmark's standard queries.
//
// Every row is drawn from its own pseudo-random stream, seeded from a fixed
// per-table seed and the row's position. A table therefore comes out the
// same byte for byte on every run, and rows that depend on each other are
// recomputed rather than looked up: an order and its line items share one
// stream (the order's total and status follow from its lines), a part's
// retail price is a formula of its key, and a line item's supplier is one
// of the four that partsupp lists for its part. Nothing is held in memory
// beyond the batch being built, so scale factor 1 (six million line items)
// streams in bounded space.
//
// Generate builds Arrow record batches of a table and hands them to a
// callback. LoadSQE appends them to SQE's Iceberg catalog (one commit per
// few hundred thousand rows, so scans see several data files); LoadPostgres
// creates the same tables in PostgreSQL, fills them with COPY, adds the
// primary keys and analyzes them. Queries returns the 22 TPC-H queries this
// package ships (queries/*.sql) with the specification's validation
// parameters.
//
// Values follow the TPC-H specification's domains and distributions
// (clause 4.2.3), except the free-text comments, which are cut from a
// word pool built here rather than from the specification's grammar.
package datagen
