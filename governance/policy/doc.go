// Package policy is gate two's policy model: which rows and which column
// values a caller may see of a table it may open.
//
// Policies follow Apache Ranger's hive service model, so that the same
// policies serve SQE and Spark / Kyuubi: a row-filter policy (policyType
// 2) names a database (an Iceberg namespace) and a table and carries
// filter expressions per user, group or role; a data-mask policy
// (policyType 1) names a database, table and column and carries a mask
// type per principal; tag policies (the linked tag service) name a tag
// instead of a resource and apply to every column carrying that tag. An
// access policy (policyType 0) whose deny item names the caller on a
// column restricts it: the column is absent for that caller. DENY SELECT
// (column) writes one such policy per column (column_deny.go).
//
// Data moves like this: a Store keeps the policies (the governance SQLite
// database, or Ranger Admin's query service) and hands out Snapshots; the
// Enforcer compiles a snapshot once into a ranger.Evaluator and, when the
// binder resolves a table, turns the caller's identity, the table's name
// and its column tags into a planner.SecuredRelation: the columns it may
// see, the row filters to AND in a barrier above the scan, and a mask
// expression per masked column. Everything fails closed: a store that
// cannot answer admits no row, a mask that cannot be built nulls its
// column, a filter that cannot be parsed admits no row. Explain makes the
// same evaluation and describes it for SHOW ACCESS: per column the mask
// and the deciding policy (named back from the evaluator's policy id, with
// the tag a tag policy applied through), each row filter's policy, and
// why no row is admitted when the evaluation failed closed.
package policy
