package planner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// countingTable is a TPC-H table whose files count its rows and judge
// row filters (proves is AdmitsEveryRow's answer).
type countingTable struct {
	*statsTable
	proves bool
}

func (c *countingTable) ExactRowCount(context.Context, iceberg.BooleanExpression) (int64, bool) {
	return c.rows, true
}

func (c *countingTable) AdmitsEveryRow(context.Context, iceberg.BooleanExpression) bool {
	return c.proves
}

type countingCatalog struct{ proves bool }

func (c countingCatalog) ResolveTable(ctx context.Context, n planner.TableName) (planner.Table, error) {
	t, err := tpchCatalog{}.ResolveTable(ctx, n)
	if err != nil {
		return nil, err
	}
	return &countingTable{statsTable: t.(*statsTable), proves: c.proves}, nil
}

// maskedOrdersOnly masks o_orderpriority of orders, with no row filter.
type maskedOrdersOnly struct{}

func (maskedOrdersOnly) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := ordersPolicy{}.Secure(ctx, t)
	if err == nil {
		rel.RowFilters = nil
	}
	return rel, err
}

// countedPlan binds sql against cat and optimizes it with workers
// workers (1: serial).
func countedPlan(t *testing.T, cat planner.Catalog, sec planner.Security, sql string, workers int) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	p, err := planner.NewBinder(context.Background(), cat, sec, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	opts := planner.ParallelOptions{}
	if workers > 1 {
		opts = planner.ParallelOptions{Workers: workers, Mergeable: func(*planner.AggCall) bool { return true }}
	}
	return planner.Optimize(p, opts).Root
}

// TestCountRowsFromFiles: which counts the optimizer answers from the
// files' record counts (a RowCount), with the filter the files must
// honour, and how EXPLAIN shows them.
func TestCountRowsFromFiles(t *testing.T) {
	const orderdate = "GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01)"
	tests := []struct {
		name    string
		sql     string
		sec     planner.Security
		counted int    // RowCount nodes
		filter  string // of the first, "" for none
		explain string // when not "", the serial plan
	}{
		{name: "count(*)", sql: "SELECT count(*) FROM orders", counted: 1, explain: `
Project count#7
  RowCount {cat tpch orders} from file record counts
    Aggregate groups=[] aggs=[count(*)]
      Scan {cat tpch orders} cols=[]`},
		{name: "count(1) and count of a constant", sql: "SELECT count(1), count('x'), count(*) FROM orders", counted: 1},
		{name: "HAVING over the count", sql: "SELECT count(*) FROM orders HAVING count(*) > 2", counted: 1},
		{name: "through a derived table of columns", sql: "SELECT count(*) FROM (SELECT o_orderkey, o_custkey FROM orders) s", counted: 1},
		{name: "two counts joined", sql: "SELECT * FROM (SELECT count(*) FROM orders) a, (SELECT count(*) FROM customer) b", counted: 2},
		{name: "in a scalar subquery", sql: "SELECT c_name, (SELECT count(*) FROM orders) FROM customer", counted: 1},
		{name: "in an IN subquery", sql: "SELECT c_name FROM customer WHERE c_custkey IN (SELECT count(*) FROM orders)", counted: 1},
		{name: "a masked table", sql: "SELECT count(*) FROM orders", sec: maskedOrdersOnly{}, counted: 1},
		// EXPLAIN shows it as the plan of an unproven filter (see
		// TestCountUnderRowFilterExplainsAsScan).
		{name: "a proven row filter", sql: "SELECT count(*) FROM orders", sec: ordersPolicy{}, counted: 1, filter: orderdate},

		{name: "a WHERE clause", sql: "SELECT count(*) FROM orders WHERE o_custkey = 7"},
		{name: "a WHERE clause that is always true", sql: "SELECT count(*) FROM orders WHERE true"},
		{name: "count of a column", sql: "SELECT count(o_custkey) FROM orders"},
		{name: "count of NULL", sql: "SELECT count(NULL) FROM orders"},
		{name: "count(DISTINCT 1)", sql: "SELECT count(DISTINCT 1) FROM orders"},
		{name: "a FILTER clause", sql: "SELECT count(*) FILTER (WHERE o_custkey = 1) FROM orders"},
		{name: "GROUP BY", sql: "SELECT o_custkey, count(*) FROM orders GROUP BY 1"},
		{name: "GROUP BY ()", sql: "SELECT count(*) FROM orders GROUP BY GROUPING SETS ((), ())"},
		{name: "another aggregate beside", sql: "SELECT count(*), max(o_custkey) FROM orders"},
		{name: "a projection that computes", sql: "SELECT count(*) FROM (SELECT o_totalprice / 0 FROM orders) s"},
		{name: "a LIMIT below", sql: "SELECT count(*) FROM (SELECT * FROM orders LIMIT 5) s"},
		{name: "DISTINCT below", sql: "SELECT count(*) FROM (SELECT DISTINCT o_custkey FROM orders) s"},
		{name: "a join below", sql: "SELECT count(*) FROM orders, customer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sec := tt.sec
			if sec == nil {
				sec = planner.OpenRelation{}
			}
			for _, workers := range []int{1, 2} {
				root := countedPlan(t, countingCatalog{proves: true}, sec, tt.sql, workers)
				if err := planner.CheckPlan(root); err != nil {
					t.Fatalf("%d workers: %v\n%s", workers, err, planner.Explain(root))
				}
				counts := planner.RowCounts(root)
				if len(counts) != tt.counted {
					t.Fatalf("%d workers: %d counts from the files, want %d\n%s", workers, len(counts), tt.counted, planner.DumpTree(root))
				}
				if len(counts) == 0 {
					continue
				}
				tbl, filter, ok := counts[0].Source()
				if !ok || tbl == nil {
					t.Fatalf("%d workers: the count has no source", workers)
				}
				if got := stringOrEmpty(filter); got != tt.filter {
					t.Errorf("%d workers: count filter %q, want %q", workers, got, tt.filter)
				}
				if workers == 1 && tt.explain != "" {
					if got := planner.Explain(root); got != strings.TrimPrefix(tt.explain, "\n")+"\n" {
						t.Errorf("plan:\n%s\nwant:%s", got, tt.explain)
					}
				}
			}
			// A table that cannot count its rows is scanned.
			if n := len(planner.RowCounts(countedPlan(t, tpchCatalog{}, sec, tt.sql, 1))); n != 0 {
				t.Errorf("%d counts over tables that cannot count", n)
			}
		})
	}
}

func stringOrEmpty(e iceberg.BooleanExpression) string {
	if e == nil {
		return ""
	}
	return e.String()
}

// TestCountUnderRowFilterExplainsAsScan: a count under a row filter is
// taken from the files only when they proved the filter, and EXPLAIN,
// with costs or not, shows the same plan whether they did or not: it
// would otherwise tell the caller whether the table holds rows the
// filter hides.
func TestCountUnderRowFilterExplainsAsScan(t *testing.T) {
	for _, tc := range []struct {
		sql string
		sec planner.Security
	}{
		{"SELECT count(*) FROM orders", ordersPolicy{}},
		{"SELECT count(*), count(1) FROM orders", policies{"orders": {"o_custkey <> 3"}}},
		{"SELECT (SELECT count(*) FROM orders) FROM customer", ordersPolicy{}},
	} {
		for _, workers := range []int{1, 2} {
			proven := countedPlan(t, countingCatalog{proves: true}, tc.sec, tc.sql, workers)
			unproven := countedPlan(t, countingCatalog{proves: false}, tc.sec, tc.sql, workers)
			if len(planner.RowCounts(unproven)) != 0 {
				t.Errorf("%s: counted from the files under an unproven row filter", tc.sql)
			}
			if len(planner.RowCounts(proven)) != 1 {
				t.Errorf("%s: not counted from the files under a proven row filter", tc.sql)
			}
			for _, explain := range []func(planner.Node) string{planner.Explain, planner.ExplainWithCosts} {
				if a, b := explain(proven), explain(unproven); a != b {
					t.Errorf("%s (%d workers): EXPLAIN tells a proven filter:\n%s\nfrom an unproven one:\n%s", tc.sql, workers, a, b)
				}
			}
		}
	}
}
