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
// Batches between operators carry exactly the columns of the plan node
// that produced them, in order; an evaluator maps a planner.ColumnID to
// its position once, at build time.
package exec
