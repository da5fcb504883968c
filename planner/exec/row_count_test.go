package exec_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
)

// countedTable is a memTable that counts its rows from "file record
// counts": rows, exact unless the files carry deletes.
type countedTable struct {
	*memTable
	rows  int64
	exact bool
	// filters records the filter of each count asked for.
	filters []iceberg.BooleanExpression
}

func (c *countedTable) ExactRowCount(_ context.Context, filter iceberg.BooleanExpression) (int64, bool) {
	c.filters = append(c.filters, filter)
	return c.rows, c.exact
}

type countedCatalog struct{ t *countedTable }

func (c countedCatalog) ResolveTable(ctx context.Context, n planner.TableName) (planner.Table, error) {
	if n.Name == "t" {
		return c.t, nil
	}
	return memCatalog{c.t.memTable}.ResolveTable(ctx, n)
}

// runCounted runs sql over tbl under sec with workers workers, the plan
// instrumented for EXPLAIN ANALYZE when analyze is set.
func runCounted(t *testing.T, tbl *countedTable, sec planner.Security, sql string, workers int, analyze bool) []string {
	t.Helper()
	ctx := context.Background()
	if analyze {
		ctx = exec.WithInstrumentation(ctx, exec.NewInstrumentation())
	}
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planner.NewBinder(ctx, countedCatalog{tbl}, sec, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatal(err)
	}
	p = planner.Optimize(p, exec.ParallelOptions(workers, 0, 0))
	if err := planner.CheckPlan(p.Root); err != nil {
		t.Fatal(err)
	}
	op, err := exec.Build(ctx, p.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			return rows
		}
		for r := range int(b.NumRows()) {
			vals := make([]string, b.NumCols())
			for c := range vals {
				vals[c] = b.Column(c).ValueStr(r)
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
}

// TestCountFromFileRecordCounts: an ungrouped count of rows over a whole
// table is answered from the table's record counts without a scan, under
// a row filter only when the files proved it; anything else, and files
// that cannot count exactly, are scanned. The answers are the scan's.
func TestCountFromFileRecordCounts(t *testing.T) {
	const (
		fromFiles = "files" // counted from the files, no scan
		scanned   = "scan"  // the files asked, then a scan
		notAsked  = "plan"  // the plan scans, the files are not asked
	)
	proven := rowPolicy{filter: "id <> 99"}
	tests := []struct {
		name    string
		sql     string
		sec     planner.Security
		proven  bool // the files prove the row filter
		exact   bool // the files count exactly
		analyze bool
		want    string
		how     string
		filter  string // the filter the files were asked to honour
	}{
		{name: "count(*)", sql: "SELECT count(*) FROM t", exact: true, want: "5", how: fromFiles},
		{name: "count(*) and count(1)", sql: "SELECT count(*), count(1) FROM t", exact: true, want: "5|5", how: fromFiles},
		{name: "in a derived table", sql: "SELECT c + 1 FROM (SELECT count(*) AS c FROM t) s", exact: true, want: "6", how: fromFiles},
		{name: "files with deletes", sql: "SELECT count(*) FROM t", want: "5", how: scanned},
		{name: "a proven row filter", sql: "SELECT count(*) FROM t", sec: proven, proven: true, exact: true, want: "5", how: fromFiles,
			filter: "NotEqual(term=Reference(name='id'), literal=99)"},
		{name: "a proven row filter, files with deletes", sql: "SELECT count(*) FROM t", sec: proven, proven: true, want: "5", how: scanned,
			filter: "NotEqual(term=Reference(name='id'), literal=99)"},
		{name: "an unproven row filter", sql: "SELECT count(*) FROM t", sec: rowPolicy{filter: "id <> 4"}, exact: true, want: "4", how: notAsked},
		{name: "a WHERE clause", sql: "SELECT count(*) FROM t WHERE id > 2", exact: true, want: "3", how: notAsked},
		{name: "count of a column skips NULLs", sql: "SELECT count(region) FROM t", exact: true, want: "4", how: notAsked},
		{name: "grouped", sql: "SELECT count(*) FROM t GROUP BY region ORDER BY 1", exact: true, want: "1,1,1,2", how: notAsked},
		{name: "EXPLAIN ANALYZE, no row filter", sql: "SELECT count(*) FROM t", exact: true, analyze: true, want: "5", how: fromFiles},
		{name: "EXPLAIN ANALYZE runs a row-filtered count", sql: "SELECT count(*) FROM t", sec: proven, proven: true, exact: true, analyze: true, want: "5", how: notAsked},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%d workers", tt.name, workers), func(t *testing.T) {
				tbl := &countedTable{memTable: newTestTable(t), rows: 5, exact: tt.exact}
				tbl.admitsEveryRow = tt.proven
				tbl.batchMorsels = true
				sec := tt.sec
				if sec == nil {
					sec = planner.OpenRelation{}
				}
				rows := runCounted(t, tbl, sec, tt.sql, workers, tt.analyze)
				if got := strings.Join(rows, ","); got != tt.want {
					t.Errorf("answer %q, want %q", got, tt.want)
				}
				asked, scans := len(tbl.filters) > 0, len(tbl.scanColumns) > 0
				how := map[[2]bool]string{{true, false}: fromFiles, {true, true}: scanned, {false, true}: notAsked}[[2]bool{asked, scans}]
				if how != tt.how {
					t.Errorf("answered by %q (files asked %v, scans %d), want %q", how, asked, len(tbl.scanColumns), tt.how)
				}
				if asked {
					var got []string
					for _, f := range tbl.filters {
						got = append(got, fmt.Sprint(f))
					}
					want := "<nil>"
					if tt.filter != "" {
						want = tt.filter
					}
					if !slices.Equal(got, []string{want}) {
						t.Errorf("files asked with filters %q, want once with %q", got, want)
					}
				}
			})
		}
	}
}
