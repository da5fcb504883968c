// Package exec runs a logical plan as a tree of streaming, vectorized
// operators over Arrow record batches.
//
// Build turns a planner.Node into an Operator. The root is pulled one batch
// at a time (Next); each operator pulls from its input only what it needs,
// so scan, filter, project and limit hold one batch at a time and memory
// is bounded by operator state (the hash table of an aggregate, the rows
// a sort or a window must see), never by the size of the table. Expressions are
// compiled once per operator into evaluators that work on whole arrays:
// the per-batch cost is one call per expression node, and the per-row
// work is a tight loop over Arrow buffers without allocation.
//
// A planner.RowCount is answered from the table's file record counts in
// one batch; the plan it stands for is built and run only when the files
// cannot count exactly.
//
// Batches between operators carry exactly the columns of the plan node
// that produced them, in order; an evaluator maps a planner.ColumnID to
// its position once, at build time. Each column's Arrow type is its
// types.T's: a numeric of precision 18 or less is a decimal64, a wider
// one a decimal128 (decimal64.go says which kernels read which).
//
// Operator state is bounded by the query's MemoryBudget, which the caller
// puts in the context given to Build (WithMemoryBudget). Each operator
// that keeps rows past one batch holds a reservation on it, grows it
// before keeping more (measured Arrow buffers, estimated map and slice
// overheads) and gives it back on Close; a reservation that would pass the
// limit fails the query with SQLSTATE 53200 rather than letting the
// server grow until it is killed. When the context also carries a
// SpillArea (WithSpillArea), sorts, grouped hash aggregates (parallel
// ones too), hash joins, INTERSECT / EXCEPT and windows spill to disk
// instead (spill.go says what still fails).
//
// Cancellation rides on the context given to Next. Every loop that can
// run long without returning a batch (building a hash table, consuming an
// aggregate's or a sort's input, pairing rows in a join, generating a
// series, sorting) looks at ctx.Err() at least once per input batch or
// every 64k rows, and returns its error, which callers report as 57014.
package exec
