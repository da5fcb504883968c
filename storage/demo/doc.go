// Package demo loads the example tables that `sqe serve --demo` offers a
// newcomer: acdemo.orders, the three-row table the access-control examples
// are written against, and acdemo.sales, a generated table large enough to
// exercise the engine.
//
// Load goes through an ordinary storage.Catalog with the caller's
// principal, so gate one sees every step. It is idempotent: a table that
// already holds data is left as it is. The sales rows come from a
// fixed-seed generator and are produced batch by batch while they are
// written, a few hundred thousand rows per commit, so the whole table is
// never in memory and lands in several data files.
package demo
