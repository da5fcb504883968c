package exec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// panickyMorselTable is the test table whose morsel number at panics when
// a worker opens it: a stand-in for a bug in code a parallel worker runs.
type panickyMorselTable struct {
	*memTable
	at int
}

func (p panickyMorselTable) ScanMorsels(ctx context.Context, columns []int, filter iceberg.BooleanExpression) (planner.Morsels, error) {
	m, err := p.memTable.ScanMorsels(ctx, columns, filter)
	if err != nil {
		return nil, err
	}
	return panickyMorsels{Morsels: m, at: p.at}, nil
}

type panickyMorsels struct {
	planner.Morsels
	at int
}

func (m panickyMorsels) Open(ctx context.Context, i int) (planner.RecordStream, error) {
	if i == m.at {
		panic("morsel reader bug")
	}
	return m.Morsels.Open(ctx, i)
}

type panickyCatalog struct{ t panickyMorselTable }

func (c panickyCatalog) ResolveTable(ctx context.Context, n planner.TableName) (planner.Table, error) {
	if n.Name == "t" {
		return c.t, nil
	}
	return memCatalog{c.t.memTable}.ResolveTable(ctx, n)
}

// TestWorkerPanicFailsOnlyTheQuery panics in a parallel worker of a
// Gather (plain and with partial aggregates): the query fails with XX000
// naming the panic in its logged cause, every worker goroutine ends, and
// the process lives on.
func TestWorkerPanicFailsOnlyTheQuery(t *testing.T) {
	queries := []string{
		"SELECT id, amount * 2 FROM t WHERE qty IS NOT NULL",
		"SELECT region, sum(amount), count(*) FROM t GROUP BY region",
	}
	for _, q := range queries {
		for _, at := range []int{0, 2, 4} {
			t.Run(fmt.Sprintf("%s/morsel %d", q, at), func(t *testing.T) {
				before := runtime.NumGoroutine()
				cat := panickyCatalog{panickyMorselTable{memTable: newTestTable(t), at: at}}
				err := runParallel(t, cat, q, 4)
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != pgerror.InternalError {
					t.Fatalf("morsel %d: got %v, want XX000", at, err)
				}
				if !strings.Contains(errors.Unwrap(pe).Error(), "morsel reader bug") {
					t.Fatalf("the cause does not name the panic: %v", errors.Unwrap(pe))
				}
				deadline := time.Now().Add(5 * time.Second)
				for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
					time.Sleep(5 * time.Millisecond)
				}
				if n := runtime.NumGoroutine() - before; n > 0 {
					t.Fatalf("%d goroutines left behind", n)
				}
			})
		}
	}
}

// runParallel binds sql over cat, plans it with workers workers (it must
// contain a Gather) and drains it, returning the error it ends with.
func runParallel(t *testing.T, cat planner.Catalog, sql string, workers int) error {
	t.Helper()
	ctx := context.Background()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewBinder(ctx, cat, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatal(err)
	}
	p = planner.Optimize(p, exec.ParallelOptions(workers, 0, 0))
	if !strings.Contains(planner.Explain(p.Root), "Gather") {
		t.Fatalf("no Gather in the plan:\n%s", planner.Explain(p.Root))
	}
	op, err := exec.Build(ctx, p.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	for {
		b, err := op.Next(ctx)
		if err != nil || b == nil {
			return err
		}
		b.Release()
	}
}

// TestWorkerPanicUnderASpillingSort: a sort that has spilled the rows of
// a parallel scan fails with XX000 when a worker panics, gives its memory
// back, and its query's spill area is removed when the query ends.
func TestWorkerPanicUnderASpillingSort(t *testing.T) {
	tbl := newWideTable(t, "t", 20_000)
	tbl.batchMorsels = true
	cat := panickyCatalog{panickyMorselTable{memTable: tbl, at: 15}}
	const sql = "SELECT id, s FROM t ORDER BY s DESC"
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewBinder(context.Background(), cat, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatal(err)
	}
	// Room for the Gather's window of batches beside the sort's quarter
	// of the budget it leaves free.
	budget := exec.NewMemoryBudget(1 << 20)
	area := exec.NewSpillDir(t.TempDir()).NewArea()
	ctx := exec.WithSpillArea(exec.WithMemoryBudget(context.Background(), budget), area)
	op, err := exec.Build(ctx, planner.Optimize(p, exec.ParallelOptions(2, 0, 0)).Root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = op.Next(ctx)
	op.Close()
	if pgerror.Code(err) != pgerror.InternalError {
		var pe *pgerror.Error
		errors.As(err, &pe)
		t.Fatalf("err = %v (%s), want XX000", err, pe.Detail)
	}
	path := area.Path()
	if path == "" {
		t.Fatal("the sort did not spill before the panic")
	}
	if budget.Used() != 0 {
		t.Errorf("%d bytes still reserved after Close", budget.Used())
	}
	if err := area.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("spill area still there: %v", err)
	}
}
