package exec_test

import (
	"context"
	"testing"

	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestTopNSortMemoryIsBoundedByTheLimit: ORDER BY ... LIMIT keeps only
// what the limit can return, so a budget far below the input's size is
// enough, where the same sort without a limit runs out of it.
func TestTopNSortMemoryIsBoundedByTheLimit(t *testing.T) {
	tbl := newWideTable(t, "t", 200_000)
	ctx := context.Background()
	const limit = 2 << 20 // the table's id and s columns take several MiB

	budget := exec.NewMemoryBudget(limit)
	rows, err := runBudgeted(t, ctx, tbl, budget, "SELECT id, s FROM t ORDER BY s DESC LIMIT 10 OFFSET 5")
	if err != nil || rows != 10 {
		t.Fatalf("top-N sort: %d rows, %v; want 10 rows", rows, err)
	}
	if budget.Used() != 0 {
		t.Errorf("top-N sort left %d bytes charged", budget.Used())
	}
	if budget.Peak() > limit {
		t.Errorf("peak %d above the limit %d", budget.Peak(), limit)
	}

	full := exec.NewMemoryBudget(limit)
	if _, err := runBudgeted(t, ctx, tbl, full, "SELECT id, s FROM t ORDER BY s DESC"); pgerror.Code(err) != pgerror.OutOfMemory {
		t.Fatalf("full sort under the same budget: %v, want 53200", err)
	}
}
