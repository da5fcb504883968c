package exec_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestExistenceProbedInWorkers runs semi and anti joins that hash their
// left input while 4 workers read their right one: with ample memory,
// with a build past the budget (it goes to disk partitions and the join
// reads the workers' rows as one input), with an error raised in a
// worker, and cancelled after the first batch. Each answers as the serial
// join does or fails with the error's SQLSTATE, and leaves no worker,
// file or reservation behind.
func TestExistenceProbedInWorkers(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tbl.batchMorsels = true
	semi := "SELECT id, s FROM t WHERE EXISTS (SELECT 1 FROM t t2 WHERE t2.id = t.id + 1 AND t2.s <> t.s)"
	anti := "SELECT id, s FROM t WHERE NOT EXISTS (SELECT 1 FROM t t2 WHERE t2.id = t.id * 2 AND t2.id % 3 <> 0)"
	tests := []struct {
		name, sql string
		limit     int64
		// cancelAfterFirst cancels the query once it returned a batch.
		cancelAfterFirst bool
		want             string // SQLSTATE, "" for the serial run's rows
	}{
		{name: "semi", sql: semi},
		{name: "anti", sql: anti},
		{name: "semi past the budget", sql: semi, limit: 1 << 20},
		{name: "anti past the budget", sql: anti, limit: 1 << 20},
		{name: "error in a worker", sql: "SELECT id FROM t WHERE EXISTS (SELECT 1 FROM t t2 WHERE t2.id = t.id AND 1 / (t2.id - 15000) > 0)",
			want: pgerror.DivisionByZero},
		{name: "cancel", sql: semi, cancelAfterFirst: true, want: pgerror.QueryCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := optimizeWorkers(t, tbl, tt.sql, 1)
			joins := existenceJoins(root, nil)
			if len(joins) != 1 {
				t.Fatalf("%d semi or anti joins with a hash key:\n%s", len(joins), planner.Explain(root))
			}
			var want []string
			if tt.want == "" {
				var err error
				if want, err = collectRows(context.Background(), root, exec.NewMemoryBudget(0), nil, false); err != nil {
					t.Fatal(err)
				}
			}
			j := joins[0]
			scan := pipelineScan(j.Right)
			if scan == nil {
				t.Fatalf("the join's right input is not a scan's pipeline:\n%s", planner.Explain(root))
			}
			j.HashLeft = true
			j.Right = &planner.Gather{Input: j.Right, Workers: 4, Scan: scan}

			before := runtime.NumGoroutine()
			budget := exec.NewMemoryBudget(tt.limit)
			area := exec.NewSpillDir(t.TempDir()).NewArea()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var onFirst func()
			if tt.cancelAfterFirst {
				onFirst = cancel
			}
			got, err := collectRows(exec.WithSpillArea(ctx, area), root, budget, onFirst, true)
			checkRowsOrCode(t, got, want, err, tt.want)
			if tt.want == "" && len(want) < 5_000 {
				t.Errorf("only %d rows: the case tests little", len(want))
			}
			checkNoLeak(t, before)
			if tt.limit > 0 {
				checkSpilledWithin(t, area, budget, tt.limit)
			} else if budget.Used() != 0 {
				t.Errorf("%d bytes still reserved after Close", budget.Used())
			}
		})
	}
}
