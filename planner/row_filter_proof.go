package planner

import (
	"context"

	"github.com/apache/iceberg-go"
)

// RowFilterProver is a Table that can prove, from its files' statistics
// alone, that a filter admits every row a scan reads (storage's
// AdmitsEveryRow). Such a row filter is kept in the plan, marked proven:
// it is shown by EXPLAIN but neither evaluated nor a reason to read the
// columns it names. A tenant filter over a table partitioned by tenant,
// or one excluding values no file holds, then costs a query nothing.
type RowFilterProver interface {
	Table
	// AdmitsEveryRow is false whenever it cannot be sure.
	AdmitsEveryRow(ctx context.Context, filter iceberg.BooleanExpression) bool
}

// proveRowFilter reports whether scan's table proves that pred, a policy
// row filter over scan, admits every row. Only a predicate translated
// whole into an Iceberg expression is judged; the translation keeps SQL's
// meaning for what it accepts (comparisons with constants, IS [NOT]
// NULL, AND), and the prover treats NULLs as doubt.
func proveRowFilter(ctx context.Context, scan *Scan, pred Expr) bool {
	prover, ok := scan.Table.(RowFilterProver)
	if !ok || !pred.Leakproof() {
		return false
	}
	ie := toIceberg(pred, scan)
	if ie == nil {
		return false
	}
	return prover.AdmitsEveryRow(ctx, ie)
}
