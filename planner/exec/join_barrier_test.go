package exec_test

import (
	"context"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
)

// rowPolicy hides the rows of table t that filter rejects, as a
// governance row filter does.
type rowPolicy struct{ filter string }

func (p rowPolicy) Secure(ctx context.Context, tbl planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, tbl)
	if err != nil {
		return nil, err
	}
	if tbl.QualifiedName().Name == "t" {
		rel.RowFilters = []string{p.filter}
	}
	return rel, nil
}

// TestLeakproofJoinFiltersStayAboveBarrier runs joins whose WHERE clause
// holds an expression that fails on a row the policy hides (id 4): had
// the optimizer pushed it below the barrier filter, or run it before the
// barrier, the query would fail with division by zero, revealing that the
// hidden row exists.
func TestLeakproofJoinFiltersStayAboveBarrier(t *testing.T) {
	tests := []struct {
		sql  string
		want []string
	}{
		{"SELECT t.id, u.name FROM t, u WHERE t.region = u.region AND 1 / (t.id - 4) < 10 ORDER BY t.id",
			[]string{"1|Europe", "2|United States", "3|Europe"}},
		{"SELECT t.id FROM u JOIN t ON t.region = u.region OR t.region IS NULL WHERE 1 / (t.id - 4) < 10 ORDER BY t.id",
			[]string{"1", "2", "3"}},
		{"SELECT t.id, u.name FROM u LEFT JOIN t ON t.region = u.region AND 1 / (t.id - 4) < 10 ORDER BY u.name",
			[]string{"1|Europe", "3|Europe", "NULL|Latin America", "NULL|Nowhere", "2|United States"}},
		{"SELECT count(*) FROM t a, t b, u WHERE a.id = b.id AND b.region = u.region AND 1 / (a.id - 4) + 1 / (b.id - 4) < 10",
			[]string{"3"}},
	}
	for _, tt := range tests {
		tbl := newTestTable(t)
		rows, err := runSecured(t, tbl, rowPolicy{filter: "id <> 4"}, tt.sql)
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", tt.sql, strings.Join(rows, "\n"), strings.Join(tt.want, "\n"))
		}
		for _, pushed := range tbl.scans {
			if pushed == nil || !strings.Contains(pushed.String(), "NotEqual") {
				t.Errorf("%s: the policy was not pushed into the scan of t: %v", tt.sql, pushed)
			}
		}
	}
}

// runSecured binds sql under sec, optimizes and runs it, returning rows
// as "a|b" with NULL for nulls.
func runSecured(t *testing.T, tbl *memTable, sec planner.Security, sql string) ([]string, error) {
	t.Helper()
	return runSecuredWorkers(t, tbl, sec, sql, 1)
}

// runSecuredWorkers is runSecured with the plan's pipelines run by
// workers goroutines (1: the serial plan).
func runSecuredWorkers(t *testing.T, tbl *memTable, sec planner.Security, sql string, workers int) ([]string, error) {
	t.Helper()
	ctx := context.Background()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	p, err := planner.NewBinder(ctx, memCatalog{tbl}, sec, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		return nil, err
	}
	p = planner.Optimize(p, exec.ParallelOptions(workers, 0, 0))
	op, err := exec.Build(ctx, p.Root)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b == nil {
			return rows, nil
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				if b.Column(c).IsNull(r) {
					vals[c] = "NULL"
				} else {
					vals[c] = b.Column(c).ValueStr(r)
				}
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
}
