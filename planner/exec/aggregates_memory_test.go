package exec_test

import (
	"context"
	"errors"
	"testing"

	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestAggregateStateIsCharged checks that the aggregates that keep rows
// or per-group state (array_agg, json_agg, ORDER BY and DISTINCT inside a
// call, WITHIN GROUP, the statistics, grouping sets) charge it to the
// query's memory budget: they finish under an ample budget, release
// everything on Close, and fail with 53200 under a small one.
func TestAggregateStateIsCharged(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tests := []struct {
		name, sql string
		rows      int64
	}{
		{"array_agg", "SELECT array_agg(s) FROM t", 1},
		{"json_agg", "SELECT json_agg(s) FROM t", 1},
		{"ordered string_agg", "SELECT string_agg(s, ',' ORDER BY s DESC) FROM t", 1},
		{"count distinct", "SELECT count(DISTINCT s) FROM t", 1},
		{"percentile_disc", "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY s) FROM t", 1},
		{"stddev per group", "SELECT s, stddev(id) FROM t GROUP BY s", 20_000},
		{"rollup", "SELECT s, id % 2, count(*) FROM t GROUP BY ROLLUP (s, id % 2)", 40_001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			ample := exec.NewMemoryBudget(1 << 30)
			rows, err := runBudgeted(t, ctx, tbl, ample, tt.sql)
			if err != nil {
				t.Fatalf("with 1 GiB: %v", err)
			}
			if rows != tt.rows {
				t.Errorf("with 1 GiB: %d rows, want %d", rows, tt.rows)
			}
			if ample.Peak() == 0 {
				t.Error("with 1 GiB: nothing was charged")
			}
			if ample.Used() != 0 {
				t.Errorf("with 1 GiB: %d bytes still reserved after Close", ample.Used())
			}
			tiny := exec.NewMemoryBudget(64 << 10)
			_, err = runBudgeted(t, ctx, tbl, tiny, tt.sql)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.OutOfMemory {
				t.Fatalf("with 64 KiB: err = %v, want 53200", err)
			}
			if tiny.Used() != 0 {
				t.Errorf("with 64 KiB: %d bytes still reserved after Close", tiny.Used())
			}
		})
	}
}
