package exec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// newWideTable is a table of rows (id int8, s text) in batches of 1024,
// with s distinct per row; t and u are two such tables.
func newWideTable(t *testing.T, name string, rows int) *memTable {
	cols := []planner.TableColumn{{Name: "id", Type: types.Int8}, {Name: "s", Type: types.Text}}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	m := &memTable{name: name, cols: cols}
	for start := 0; start < rows; start += 1024 {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := start; i < min(start+1024, rows); i++ {
			b.Field(0).(*array.Int64Builder).Append(int64(i))
			b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("row %08d of table %s", i, name))
		}
		m.batches = append(m.batches, b.NewRecordBatch())
		b.Release()
	}
	t.Cleanup(func() {
		for _, b := range m.batches {
			b.Release()
		}
	})
	return m
}

// runBudgeted plans sql over t (and u) and reads it to the end under ctx
// with budget, returning the rows read.
func runBudgeted(t *testing.T, ctx context.Context, tbl *memTable, budget *exec.MemoryBudget, sql string) (int64, error) {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	p, err := planner.NewBinder(ctx, memCatalog{tbl}, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	ctx = exec.WithMemoryBudget(ctx, budget)
	op, err := exec.Build(ctx, planner.Optimize(p, planner.ParallelOptions{}).Root)
	if err != nil {
		t.Fatalf("build %q: %v", sql, err)
	}
	defer op.Close()
	var rows int64
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return rows, err
		}
		if b == nil {
			return rows, nil
		}
		rows += b.NumRows()
		b.Release()
	}
}

// TestMemoryLimitFailsStatefulOperators: past the budget every stateful
// operator fails with 53200 when the query has no spill area; with one,
// sorts, grouped aggregates, joins and set operations spill and return
// the rows of the ample run, while the others (a window partition larger
// than the budget among them) still fail.
func TestMemoryLimitFailsStatefulOperators(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tbl.regions = newWideTable(t, "u", 20_000)
	tests := []struct {
		name, sql string
		// context is the memory context the error must name.
		context string
		rows    int64 // rows with an ample budget
		// spills: with a spill area the query completes.
		spills bool
	}{
		{"hash join build", "SELECT t.id FROM t JOIN u ON t.s = u.s", "HashJoin", 0, true},
		{"hash aggregate groups", "SELECT s, count(*) FROM t GROUP BY s", "HashAggregate", 20_000, true},
		{"hash aggregate over a filter's selection", "SELECT s, count(*) FROM t WHERE id % 4 <> 0 GROUP BY s", "HashAggregate", 15_000, true},
		{"distinct", "SELECT DISTINCT s FROM t", "HashAggregate", 20_000, true},
		{"string_agg state", "SELECT string_agg(s, ',') FROM t", "HashAggregate", 1, false},
		{"sort buffer", "SELECT id, s FROM t ORDER BY s DESC", "Sort", 20_000, true},
		{"window partition", "SELECT id, row_number() OVER (ORDER BY s) FROM t", "WindowAgg", 20_000, false},
		{"except", "SELECT s FROM t EXCEPT SELECT s FROM u", "SetOp", 20_000, true},
		{"recursive work table", "WITH RECURSIVE r(n) AS (SELECT id FROM t UNION ALL SELECT n + 20000 FROM r WHERE n < 60000) SELECT count(*) FROM r", "RecursiveUnion", 1, false},
		{"array subquery", "SELECT cardinality(ARRAY(SELECT s FROM u))", "SubqueryResult", 1, false},
		{"materialized WITH query", "WITH c AS MATERIALIZED (SELECT id, s FROM t) SELECT max(s) FROM c", "CTE", 1, true},
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
			if !strings.Contains(tt.context, "Subquery") && ample.Used() != 0 {
				t.Errorf("with 1 GiB: %d bytes still reserved after Close", ample.Used())
			}

			const limit = 64 << 10
			tiny := exec.NewMemoryBudget(limit)
			_, err = runBudgeted(t, ctx, tbl, tiny, tt.sql)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.OutOfMemory {
				t.Fatalf("with 64 KiB: err = %v, want 53200", err)
			}
			if pe.Message != "out of memory" {
				t.Errorf("message = %q", pe.Message)
			}
			if want := fmt.Sprintf("in memory context %q", tt.context); !strings.Contains(pe.Detail, want) {
				t.Errorf("detail = %q, want it to contain %s", pe.Detail, want)
			}
			if !strings.Contains(pe.Detail, "memory_limit 65536 bytes") {
				t.Errorf("detail = %q, want the limit", pe.Detail)
			}
			if tiny.Peak() > limit {
				t.Errorf("peak %d passed the limit %d", tiny.Peak(), limit)
			}
			if !strings.Contains(tt.context, "Subquery") && tiny.Used() != 0 {
				t.Errorf("with 64 KiB: %d bytes still reserved after Close", tiny.Used())
			}

			area := exec.NewSpillDir(t.TempDir()).NewArea()
			spilling := exec.NewMemoryBudget(limit)
			rows, err = runBudgeted(t, exec.WithSpillArea(ctx, area), tbl, spilling, tt.sql)
			switch {
			case tt.spills && (err != nil || rows != tt.rows):
				t.Errorf("with 64 KiB and a spill area: %d rows, %v; want %d rows", rows, err, tt.rows)
			case tt.spills && area.Path() == "":
				t.Error("with 64 KiB and a spill area: nothing spilled")
			case !tt.spills && pgerror.Code(err) != pgerror.OutOfMemory:
				t.Errorf("with 64 KiB and a spill area: %v, want 53200", err)
			}
			if !strings.Contains(tt.context, "Subquery") && spilling.Used() != 0 {
				t.Errorf("with a spill area: %d bytes still reserved after Close", spilling.Used())
			}
			if err := area.Close(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCancelStopsLongOperators(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tbl.regions = newWideTable(t, "u", 20_000)
	tests := []struct{ name, sql string }{
		// 400 million candidate pairs, none kept.
		{"nested-loop join", "SELECT count(*) FROM t JOIN u ON t.id + u.id < 0"},
		{"cross join into an aggregate", "SELECT t.s, count(*) FROM t CROSS JOIN u GROUP BY t.s"},
		{"cross join into a sort", "SELECT t.id FROM t CROSS JOIN u ORDER BY u.s"},
		{"generate_series", "SELECT count(*) FROM generate_series(1, 90000000) AS g"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			budget := exec.NewMemoryBudget(0)
			start := time.Now()
			_, err := runBudgeted(t, ctx, tbl, budget, tt.sql)
			elapsed := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want the context's deadline", err)
			}
			if got := pgerror.Code(err); got != pgerror.QueryCanceled {
				t.Errorf("SQLSTATE %s, want 57014", got)
			}
			if elapsed > 3*time.Second {
				t.Errorf("stopped %s after a 100ms deadline", elapsed.Round(time.Millisecond))
			}
			if budget.Used() != 0 {
				t.Errorf("%d bytes still reserved after Close", budget.Used())
			}
		})
	}
}

// TestParallelAggregateSpills: the parts of a parallel aggregate past the
// budget spill the rows of groups they have no room for, and the merged
// aggregate folds them into its groups or spills them again: the query
// returns the groups of the serial run with an ample budget, within the
// budget, and once closed leaves no file and no reservation, whether it
// succeeded, failed or was cancelled.
func TestParallelAggregateSpills(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tbl.batchMorsels = true
	tests := []struct {
		name, sql string
		// cancelAfterFirst cancels the query once it returned a batch.
		cancelAfterFirst bool
		want             string // SQLSTATE, "" for the ample run's rows
	}{
		{name: "a group per row", sql: "SELECT s, count(*), sum(id), min(id), max(length(s)) FROM t GROUP BY s"},
		{name: "groups of several rows", sql: "SELECT id % 7000 AS g, count(*), sum(id), max(s) FROM t GROUP BY g"},
		{name: "error", sql: "SELECT s, sum(1 / (id - 15000)) FROM t GROUP BY s", want: pgerror.DivisionByZero},
		{name: "cancel", sql: "SELECT s, count(*) FROM t GROUP BY s", cancelAfterFirst: true, want: pgerror.QueryCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := optimizeWorkers(t, tbl, tt.sql, 4)
			if !strings.Contains(planner.Explain(root), "partial aggregates merged") {
				t.Fatalf("the plan is not a parallel aggregate:\n%s", planner.Explain(root))
			}
			var want []string
			if tt.want == "" {
				var err error
				want, err = collectRows(context.Background(), optimizeWorkers(t, tbl, tt.sql, 1), exec.NewMemoryBudget(0), nil, false)
				if err != nil {
					t.Fatal(err)
				}
			}
			const limit = 1 << 20
			budget := exec.NewMemoryBudget(limit)
			dir := t.TempDir()
			area := exec.NewSpillDir(dir).NewArea()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var onFirst func()
			if tt.cancelAfterFirst {
				onFirst = cancel
			}
			got, err := collectRows(exec.WithSpillArea(ctx, area), root, budget, onFirst, true)
			checkRowsOrCode(t, got, want, err, tt.want)
			checkSpilledWithin(t, area, budget, limit)
		})
	}
}

// checkRowsOrCode demands of a parallel run's rows and error: SQLSTATE
// code, or, when code is "", no error and the serial run's rows, their
// order aside.
func checkRowsOrCode(t *testing.T, got, want []string, err error, code string) {
	t.Helper()
	switch {
	case code != "" && pgerror.Code(err) != code:
		t.Fatalf("err = %v, want %s", err, code)
	case code == "" && err != nil:
		t.Fatal(err)
	case code == "":
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%d rows differ from the serial run's %d", len(got), len(want))
		}
	}
}

// collectRows builds root under budget, reads it to the end (calling
// onFirst, when given, after the first batch) and closes it, returning
// its rows as text; withArea keeps ctx's spill area.
func collectRows(ctx context.Context, root planner.Node, budget *exec.MemoryBudget, onFirst func(), withArea bool) ([]string, error) {
	if !withArea {
		ctx = exec.WithSpillArea(ctx, nil)
	}
	ctx = exec.WithMemoryBudget(ctx, budget)
	op, err := exec.Build(ctx, root)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil || b == nil {
			return rows, err
		}
		for r := 0; r < int(b.NumRows()); r++ {
			var vals []string
			for _, c := range b.Columns() {
				vals = append(vals, c.ValueStr(r))
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
		if onFirst != nil {
			onFirst()
			onFirst = nil
		}
	}
}

// checkSpilledWithin fails t unless the query that ran under budget
// spilled into area, kept within limit, and left no file and no
// reservation once closed; it closes the area.
func checkSpilledWithin(t *testing.T, area *exec.SpillArea, budget *exec.MemoryBudget, limit int64) {
	t.Helper()
	if area.Path() == "" {
		t.Error("nothing spilled")
	} else if left, err := os.ReadDir(area.Path()); err != nil || len(left) != 0 {
		t.Errorf("files left once closed: %d (%v)", len(left), err)
	}
	if budget.Peak() > limit {
		t.Errorf("peak %d passed the limit %d", budget.Peak(), limit)
	}
	if budget.Used() != 0 {
		t.Errorf("%d bytes still reserved after Close", budget.Used())
	}
	if err := area.Close(); err != nil {
		t.Error(err)
	}
}
