package exec_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// A memTable splits into one morsel per row, so that even the test tables'
// five rows are read by several workers at once; with batchMorsels, one
// per batch.

func (m *memTable) ScanMorsels(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (planner.Morsels, error) {
	st, err := m.Scan(ctx, columns, filter)
	if err != nil {
		return nil, err
	}
	var rows []arrow.RecordBatch
	for _, b := range st.(*memStream).batches {
		if m.batchMorsels {
			rows = append(rows, b)
			continue
		}
		for r := range b.NumRows() {
			rows = append(rows, b.NewSlice(r, r+1))
		}
	}
	return &memMorsels{rows: rows}, nil
}

type memMorsels struct{ rows []arrow.RecordBatch }

func (m *memMorsels) Len() int { return len(m.rows) }
func (m *memMorsels) Open(_ context.Context, i int) (planner.RecordStream, error) {
	m.rows[i].Retain()
	return &memStream{batches: []arrow.RecordBatch{m.rows[i]}}, nil
}
func (m *memMorsels) Close() error {
	for _, b := range m.rows {
		b.Release()
	}
	m.rows = nil
	return nil
}

var _ planner.MorselTable = (*memTable)(nil)

// TestQueriesInParallel runs every query case with 4 workers and demands
// the serial plan's answer: the same rows in the same order, or the same
// error.
func TestQueriesInParallel(t *testing.T) {
	gathered, merged, probed, anyOrder := 0, 0, 0, 0
	for _, tc := range allCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			if tree, err := pg_query.Parse(tc.sql); err == nil && len(tree.Stmts) == 1 {
				if p, err := planner.NewBinder(context.Background(), memCatalog{newTestTable(t)}, planner.OpenRelation{}, tc.sql).
					BindSelect(tree.Stmts[0].Stmt.GetSelectStmt()); err == nil {
					root := planner.Optimize(p, exec.ParallelOptions(4, 0, 0)).Root
					plan := planner.Explain(root)
					if gathersJoin(root) {
						probed++
					}
					if strings.Contains(plan, "Gather") {
						gathered++
					}
					if strings.Contains(plan, "partial aggregates merged") {
						merged++
					}
					if strings.Contains(plan, "in any order") {
						anyOrder++
					}
				}
			}
			before := runtime.NumGoroutine()
			_, serial, serr := runQueryWorkers(t, newTestTable(t), tc.sql, 1)
			_, par, perr := runQueryWorkers(t, newTestTable(t), tc.sql, 4)
			if code(serr) != code(perr) {
				t.Fatalf("line %d: %s\nserial error %v, parallel error %v", tc.line, tc.sql, serr, perr)
			}
			if strings.Join(serial, "\n") != strings.Join(par, "\n") {
				t.Errorf("line %d: %s\nserial:\n%s\nparallel:\n%s", tc.line, tc.sql, strings.Join(serial, "\n"), strings.Join(par, "\n"))
			}
			checkNoLeak(t, before)
		})
	}
	// Most cases read t; many aggregate it.
	t.Logf("%d plans gather, %d merge partial aggregates (%d in any order), %d probe joins in workers", gathered, merged, anyOrder, probed)
	if gathered < 200 || merged < 15 || probed < 20 || anyOrder < 1 {
		t.Errorf("only %d plans gather, %d merge partial aggregates (%d in any order) and %d probe joins in workers", gathered, merged, anyOrder, probed)
	}
}

// TestAggregateSelectionInWorkers: parallel aggregates over filters that
// keep most of each batch (one batch a morsel) read the filter's
// selection in place, and answer as the serial plan does.
func TestAggregateSelectionInWorkers(t *testing.T) {
	for _, sql := range []string{
		"SELECT region, sum(100 / (qty - 1)), count(*) FROM t WHERE qty > 1 GROUP BY region",
		"SELECT qty % 2, count(*), sum(amount), avg(price), min(region) FROM t WHERE id <> 4 GROUP BY 1",
		"SELECT region || ' and a suffix longer than the packed keys', sum(qty) FROM t WHERE id <> 2 GROUP BY 1",
		"SELECT count(*), sum(amount * 2), avg(amount) FROM t WHERE id <> 2",
	} {
		_, serial, err := runQueryWorkers(t, newTestTable(t), sql, 1)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		tbl := newTestTable(t)
		tbl.batchMorsels = true
		_, par, err := runQueryWorkers(t, tbl, sql, 2)
		if err != nil {
			t.Fatalf("%s in workers: %v", sql, err)
		}
		if strings.Join(serial, "\n") != strings.Join(par, "\n") {
			t.Errorf("%s\nserial:\n%s\nin workers:\n%s", sql, strings.Join(serial, "\n"), strings.Join(par, "\n"))
		}
	}
}

// TestSharedBuildsStartTogether: the builds a Gather's workers share are
// started together when the first is needed; the answer is the serial
// plan's, an error of a build the workers reach later is the query's,
// and no build outlives the query.
func TestSharedBuildsStartTogether(t *testing.T) {
	for _, tc := range []struct{ sql, code string }{
		{"SELECT t.id, u.name, v.k FROM t JOIN u ON t.region = u.region JOIN (VALUES (1, 'a'), (3, 'b')) v(i, k) ON v.i = t.id ORDER BY t.id", ""},
		{"SELECT t.id FROM t JOIN u ON t.region = u.region JOIN (SELECT i, 10 / (i - 3) AS k FROM (VALUES (1), (3)) v(i)) w ON w.i = t.id", pgerror.DivisionByZero},
	} {
		before := runtime.NumGoroutine()
		_, serial, serr := runQueryWorkers(t, newTestTable(t), tc.sql, 1)
		_, par, perr := runQueryWorkers(t, newTestTable(t), tc.sql, 4)
		if code(serr) != tc.code || code(perr) != tc.code {
			t.Fatalf("%s: serial error %v, parallel error %v, want %q", tc.sql, serr, perr, tc.code)
		}
		if strings.Join(serial, "\n") != strings.Join(par, "\n") {
			t.Errorf("%s\nserial:\n%s\nparallel:\n%s", tc.sql, strings.Join(serial, "\n"), strings.Join(par, "\n"))
		}
		checkNoLeak(t, before)
	}
}

// gathersJoin reports whether some Gather of the plan runs a join's probe
// side in its workers.
func gathersJoin(n planner.Node) bool {
	if g, ok := n.(*planner.Gather); ok {
		for in := g.Input; in != nil; {
			switch x := in.(type) {
			case *planner.Join:
				return true
			case *planner.Scan:
				in = nil
			default:
				in = x.Inputs()[0]
			}
		}
	}
	for _, in := range n.Inputs() {
		if gathersJoin(in) {
			return true
		}
	}
	return false
}

func code(err error) string {
	if err == nil {
		return ""
	}
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return "other: " + err.Error()
}

// checkNoLeak fails when goroutines started by a query outlive it.
func checkNoLeak(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before the query, %d after:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestParallelPlanShowsGather(t *testing.T) {
	tests := []struct{ sql, want string }{
		{"SELECT id FROM t WHERE qty > 2", "Gather workers=4\n"},
		{"SELECT region, count(*), sum(amount), max(price) FROM t GROUP BY region",
			"Gather workers=4 (partial aggregates merged)\n    Aggregate groups=[region"},
		// string_agg's result depends on the order of its rows: the
		// aggregate stays serial, over a parallel scan.
		{"SELECT string_agg(region, ',') FROM t", "Aggregate groups=[] aggs=[string_agg"},
	}
	for _, tc := range tests {
		plan := explainWorkers(t, newTestTable(t), tc.sql, 4)
		if !strings.Contains(plan, tc.want) {
			t.Errorf("%s:\n%s\nwant it to contain %q", tc.sql, plan, tc.want)
		}
		if strings.Contains(tc.want, "string_agg") && !strings.Contains(plan, "    Gather workers=4") {
			t.Errorf("%s: no gather under the serial aggregate:\n%s", tc.sql, plan)
		}
		if serial := explainWorkers(t, newTestTable(t), tc.sql, 1); strings.Contains(serial, "Gather") {
			t.Errorf("%s: one worker still gathers:\n%s", tc.sql, serial)
		}
	}
}

func allCases(t *testing.T) []queryCase {
	var cases []queryCase
	for _, f := range queryFiles(t) {
		cases = append(cases, readCases(t, f)...)
	}
	if len(cases) == 0 {
		t.Fatal("no query cases")
	}
	return cases
}

// explainWorkers is the plan runQueryWorkers would run.
func explainWorkers(t *testing.T, tbl *memTable, sql string, workers int) string {
	t.Helper()
	return planner.Explain(optimizeWorkers(t, tbl, sql, workers))
}

// optimizeWorkers binds sql over tbl and optimizes it for workers.
func optimizeWorkers(t *testing.T, tbl *memTable, sql string, workers int) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewBinder(context.Background(), memCatalog{tbl}, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatal(err)
	}
	return planner.Optimize(p, exec.ParallelOptions(workers, 0, 0)).Root
}

// TestParallelCancel cancels queries part-way: Next reports the
// cancellation and Close leaves no worker behind.
func TestParallelCancel(t *testing.T) {
	for _, sql := range []string{
		"SELECT id, amount * 2 FROM t WHERE id > 0",
		"SELECT region, count(*) FROM t GROUP BY region",
	} {
		before := runtime.NumGoroutine()
		tree, err := pg_query.Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.NewBinder(context.Background(), memCatalog{newTestTable(t)}, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
		if err != nil {
			t.Fatal(err)
		}
		budget := exec.NewMemoryBudget(0)
		ctx, cancel := context.WithCancel(exec.WithMemoryBudget(context.Background(), budget))
		op, err := exec.Build(ctx, planner.Optimize(p, exec.ParallelOptions(4, 0, 0)).Root)
		if err != nil {
			t.Fatal(err)
		}
		cancel()
		if _, err := op.Next(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: Next after cancel = %v", sql, err)
		}
		op.Close()
		checkNoLeak(t, before)
		if used := budget.Used(); used != 0 {
			t.Errorf("%s: %d bytes still reserved after Close", sql, used)
		}
	}
}
