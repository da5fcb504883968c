// Package planner turns a parsed statement into a plan that SQE can run:
// the binder resolves names and types (table references through the
// catalog as the caller, then through the security hook), the optimizer
// rewrites the logical plan with small ordered rules, and planner/exec
// runs it as streaming Arrow operators.
//
// Data moves one way: pg_query AST → Bind → logical Node tree → Optimize →
// exec.Build → batches. The planner defines the interfaces it needs from
// the outside world (Catalog to resolve a table as the caller, Security to
// turn a table into the relation the caller may see) and never imports
// governance or storage; package sql wires implementations in per session.
//
// Optimize is the optimizer's one entry point; the binder never
// optimizes. It applies named batches of rules, in order (optimize.go):
// "subqueries" optimizes the plan of each subquery used as an expression
// on its own; "joins" factors ORs, decorrelates subqueries ([NOT]
// EXISTS and IN as semi and anti joins, a scalar subquery aggregating the
// rows equalities with the outer row select as a left join with its
// aggregate grouped by them), pushes filters through joins, merges them
// into join conditions and orders the joins; "scans" records the predicates Iceberg can prune by on each scan
// and narrows scans to the columns read; "counts" answers count(*) of a
// whole table from its files' record counts (RowCount, under no row
// filter or one the files proved); "parallelism" comes last and wraps
// large pipelines in Gathers. Every rule is a pure function of its
// input: it returns new nodes where it changes something and shares the
// subtrees it leaves alone.
//
// Gate two is applied in one place: secureRelation builds, for a scan in
// a query and for a DELETE, UPDATE or MERGE target alike, the barrier
// filter holding the caller's row filters directly above the leaf and the
// masking projection above it, and records on the leaf a Guard saying
// what it built. CheckPlan is the final check, which package sql runs on
// every plan before execution: a guarded leaf must still have its barrier
// (holding the row filters alone) and its masking projection above it,
// nothing that is not leakproof may be evaluated or pushed below a
// barrier, and a masked column's stored value may be read only by its
// barrier, its mask and a DML statement's new row images. A plan that
// fails is refused with XX000. A TABLESAMPLE's Sample sits above the
// secured relation, so it draws only from rows the caller may see, and no
// rule moves a filter or a limit below it (plan_sample.go).
//
// Every plan column has a ColumnID that is unique within a plan.
// Expressions refer to columns by ID, so a rule can narrow a scan or move a
// filter without renumbering the expressions above it; exec maps IDs to
// batch positions once, when it builds an operator.
//
// The binder fails closed: a parse-tree node it does not handle is refused
// with 0A000 naming the node, never skipped, because a silently ignored
// node in a path that drives security rewrites would be a bypass.
package planner
