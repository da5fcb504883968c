package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// masks replaces columns by mask expressions (table → column → mask), as
// a governance column mask would.
type masks map[string]map[string]string

func (m masks) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil {
		return nil, err
	}
	rel.Masks = map[int]string{}
	for i, c := range t.Columns() {
		if expr, ok := m[t.QualifiedName().Name][c.Name]; ok {
			rel.Masks[i] = expr
		}
	}
	return rel, nil
}

// viewCatalog is the TPC-H catalog with views (name → query; the view's
// columns are named o1, o2, ...).
type viewCatalog struct {
	tpchCatalog
	views map[string]string
}

func (c viewCatalog) ResolveRelation(ctx context.Context, n planner.TableName) (planner.Table, *planner.View, error) {
	query, ok := c.views[n.Name]
	if !ok {
		t, err := c.ResolveTable(ctx, n)
		return t, nil, err
	}
	tree, err := pg_query.Parse(query)
	if err != nil {
		return nil, nil, err
	}
	v := &planner.View{Name: planner.TableName{Catalog: "cat", Schema: "tpch", Name: n.Name}, OID: 40000, Query: query}
	for i := range tree.Stmts[0].Stmt.GetSelectStmt().TargetList {
		v.Columns = append(v.Columns, fmt.Sprintf("o%d", i+1))
	}
	return nil, v, nil
}

// boundLineage binds sql as a SELECT (without optimizing it) and returns
// the lineage of its plan.
func boundLineage(t *testing.T, sql string, cat planner.Catalog, sec planner.Security) *planner.Lineage {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	p, err := planner.NewBinder(context.Background(), cat, sec, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	return planner.ColumnLineage(p.Root)
}

// lineageString renders each output column's sources as "table.column"
// separated by spaces ("-" for none), columns separated by " | ".
func lineageString(l *planner.Lineage) string {
	cols := make([]string, len(l.Columns))
	for i, srcs := range l.Columns {
		var names []string
		for _, s := range srcs {
			names = append(names, s.Table.QualifiedName().Name+"."+s.Table.Columns()[s.Column].Name)
		}
		cols[i] = strings.Join(names, " ")
		if len(names) == 0 {
			cols[i] = "-"
		}
	}
	return strings.Join(cols, " | ")
}

func tableNames(l *planner.Lineage) string {
	var names []string
	for _, t := range l.Tables {
		names = append(names, t.QualifiedName().Name)
	}
	return strings.Join(names, " ")
}

func TestColumnLineage(t *testing.T) {
	tests := []struct {
		name   string
		sql    string
		sec    planner.Security
		views  map[string]string
		want   string
		tables string // the scanned tables
	}{
		{name: "filter sort and limit pass columns through",
			sql:  "SELECT o_orderkey, o_custkey FROM orders WHERE o_totalprice > 0 ORDER BY o_orderdate LIMIT 5",
			want: "orders.o_orderkey | orders.o_custkey", tables: "orders"},
		{name: "computed values derive from every column read",
			sql:  "SELECT upper(o_orderpriority), o_orderpriority || c_name, 1 FROM orders JOIN customer ON o_custkey = c_custkey",
			want: "orders.o_orderpriority | orders.o_orderpriority customer.c_name | -", tables: "orders customer"},
		{name: "a case derives from its conditions too",
			sql:  "SELECT CASE WHEN o_totalprice > 100 THEN o_orderpriority ELSE 'low' END FROM orders",
			want: "orders.o_orderpriority orders.o_totalprice", tables: "orders"},
		{name: "aggregates derive from what they read",
			sql: "SELECT o_custkey, max(o_orderpriority), string_agg(o_orderpriority, ',' ORDER BY o_orderdate), count(*), " +
				"count(*) FILTER (WHERE o_totalprice > 0) FROM orders GROUP BY o_custkey",
			want: "orders.o_custkey | orders.o_orderpriority | orders.o_orderdate orders.o_orderpriority | - | orders.o_totalprice", tables: "orders"},
		{name: "grouping sets",
			sql:  "SELECT o_custkey, o_orderpriority, count(*) FROM orders GROUP BY ROLLUP (o_custkey, o_orderpriority)",
			want: "orders.o_custkey | orders.o_orderpriority | -", tables: "orders"},
		{name: "union by position",
			sql:  "SELECT o_orderkey, o_orderpriority FROM orders UNION SELECT c_custkey, c_name FROM customer",
			want: "orders.o_orderkey customer.c_custkey | orders.o_orderpriority customer.c_name", tables: "orders customer"},
		{name: "union all by position",
			sql:  "SELECT o_orderpriority FROM orders UNION ALL SELECT c_name FROM customer UNION ALL SELECT 'x'",
			want: "orders.o_orderpriority customer.c_name", tables: "orders customer"},
		{name: "except by position",
			sql:  "SELECT o_orderpriority FROM orders EXCEPT SELECT c_name FROM customer",
			want: "orders.o_orderpriority customer.c_name", tables: "orders customer"},
		{name: "intersect by position",
			sql:  "SELECT o_orderpriority FROM orders INTERSECT ALL SELECT c_phone FROM customer",
			want: "orders.o_orderpriority customer.c_phone", tables: "orders customer"},
		{name: "scalar subquery",
			sql:  "SELECT o_orderkey, (SELECT max(c_name) FROM customer) FROM orders",
			want: "orders.o_orderkey | customer.c_name", tables: "orders customer"},
		{name: "correlated subquery reading an outer column",
			sql:  "SELECT (SELECT o.o_orderpriority || c_name FROM customer WHERE c_custkey = o.o_custkey) FROM orders o",
			want: "orders.o_orderpriority customer.c_name", tables: "orders customer"},
		{name: "array subquery",
			sql:  "SELECT ARRAY(SELECT c_phone FROM customer)",
			want: "customer.c_phone", tables: "customer"},
		{name: "in subquery",
			sql:  "SELECT o_orderkey IN (SELECT c_custkey FROM customer) FROM orders",
			want: "orders.o_orderkey customer.c_custkey", tables: "orders customer"},
		{name: "a subquery in WHERE adds no source but its table is scanned",
			sql:  "SELECT o_orderkey FROM orders WHERE EXISTS (SELECT 1 FROM customer WHERE c_custkey = o_custkey)",
			want: "orders.o_orderkey", tables: "orders customer"},
		{name: "window functions derive from their arguments and window",
			sql: "SELECT row_number() OVER (PARTITION BY o_custkey ORDER BY o_orderdate), lag(o_orderpriority) OVER (ORDER BY o_orderkey), " +
				"sum(o_totalprice) OVER () FROM orders",
			want: "orders.o_custkey orders.o_orderdate | orders.o_orderkey orders.o_orderpriority | orders.o_totalprice", tables: "orders"},
		{name: "lateral subquery reading the left row",
			sql:  "SELECT x.p, o.o_orderkey FROM orders o, LATERAL (SELECT o.o_orderpriority || 'x' AS p) x",
			want: "orders.o_orderpriority | orders.o_orderkey", tables: "orders"},
		{name: "set-returning functions",
			sql:  "SELECT unnest(ARRAY[o_orderpriority, 'x']), generate_series(1, o_shippriority) FROM orders",
			want: "orders.o_orderpriority | orders.o_shippriority", tables: "orders"},
		{name: "recursive query reaches its fixed point",
			sql: "WITH RECURSIVE r(a, b, c, n) AS (SELECT o_orderpriority, ''::text, ''::text, 0 FROM orders " +
				"UNION ALL SELECT ''::text, a, b, n + 1 FROM r WHERE n < 2) SELECT c, n FROM r",
			want: "orders.o_orderpriority | -", tables: "orders"},
		{name: "recursive term joining another table",
			sql: "WITH RECURSIVE r(k, p) AS (SELECT o_orderkey, ''::text FROM orders " +
				"UNION ALL SELECT k + 1, c_name FROM r JOIN customer ON c_custkey = k WHERE k < 3) SELECT p, k FROM r",
			want: "customer.c_name | orders.o_orderkey", tables: "orders customer"},
		{name: "a WITH query read twice and in a subquery",
			sql: "WITH w AS (SELECT o_custkey, upper(o_orderpriority) AS p FROM orders) " +
				"SELECT a.p, b.o_custkey, (SELECT max(p) FROM w) FROM w a JOIN w b ON a.o_custkey = b.o_custkey",
			want: "orders.o_orderpriority | orders.o_custkey | orders.o_orderpriority", tables: "orders"},
		{name: "values with a subquery",
			sql:  "SELECT * FROM (VALUES (1, 'a'), (2, (SELECT max(c_name) FROM customer))) v(x, y)",
			want: "- | customer.c_name", tables: "customer"},
		{name: "no table", sql: "SELECT 1, 'a'", want: "- | -", tables: ""},
		{name: "views are expanded to their base scans",
			views: map[string]string{"v": "SELECT o_orderkey, upper(o_orderpriority) FROM orders"},
			sql:   "SELECT o2, o1 FROM v",
			want:  "orders.o_orderpriority | orders.o_orderkey", tables: "orders"},
		{name: "a masked column derives from its stored column, whatever the mask",
			sec:  masks{"customer": {"c_name": "'***'", "c_phone": "left(c_address, 2)"}},
			sql:  "SELECT c_name, c_phone, c_custkey FROM customer",
			want: "customer.c_name | customer.c_address customer.c_phone | customer.c_custkey", tables: "customer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sec := tt.sec
			if sec == nil {
				sec = planner.OpenRelation{}
			}
			var cat planner.Catalog = tpchCatalog{}
			if tt.views != nil {
				cat = viewCatalog{views: tt.views}
			}
			l := boundLineage(t, tt.sql, cat, sec)
			if l.Unknown != "" {
				t.Fatalf("%s: unknown %s", tt.sql, l.Unknown)
			}
			if got := lineageString(l); got != tt.want {
				t.Errorf("%s:\ngot  %s\nwant %s", tt.sql, got, tt.want)
			}
			if got := tableNames(l); got != tt.tables {
				t.Errorf("%s: tables %q, want %q", tt.sql, got, tt.tables)
			}
		})
	}
}

// opaque is a plan node the lineage does not know.
type opaque struct{ in planner.Node }

func (o opaque) Columns() []planner.Column { return o.in.Columns() }
func (o opaque) Inputs() []planner.Node    { return []planner.Node{o.in} }

// opaqueExpr is an expression the lineage does not know.
type opaqueExpr struct{}

func (opaqueExpr) Type() types.T   { return types.Text }
func (opaqueExpr) Leakproof() bool { return true }
func (opaqueExpr) String() string  { return "opaque" }

// TestColumnLineageFailsClosed checks that a node or expression the
// lineage does not know is reported, with the tables below it still
// found, and that Gather passes its input through.
func TestColumnLineageFailsClosed(t *testing.T) {
	const sql = "SELECT o_orderpriority FROM orders JOIN customer ON o_custkey = c_custkey"
	bound := func() planner.Node {
		tree, err := pg_query.Parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		p, err := planner.NewBinder(context.Background(), tpchCatalog{}, planner.OpenRelation{}, sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
		if err != nil {
			t.Fatal(err)
		}
		return p.Root
	}
	tests := []struct {
		name    string
		root    planner.Node
		unknown string
		want    string
	}{
		{name: "gather", root: &planner.Gather{Input: bound(), Workers: 2}, want: "orders.o_orderpriority"},
		{name: "unknown node", root: opaque{bound()}, unknown: "plan node planner_test.opaque"},
		{name: "unknown expression", root: &planner.Project{Input: bound(), Exprs: []planner.Expr{opaqueExpr{}},
			Cols: []planner.Column{{ID: 1000, Name: "x", Type: types.Text}}}, unknown: "expression planner_test.opaqueExpr"},
		{name: "reference to no column", root: &planner.Project{Input: bound(),
			Exprs: []planner.Expr{&planner.ColRef{ID: 999, Name: "y", Typ: types.Text}},
			Cols:  []planner.Column{{ID: 1000, Name: "x", Type: types.Text}}}, unknown: "column #999 read where no node produces it"},
		{name: "work table outside its recursive query", root: &planner.WorkTable{Name: "w",
			Cols: []planner.Column{{ID: 1000, Name: "x", Type: types.Text}}}, unknown: "work table w outside its recursive query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := planner.ColumnLineage(tt.root)
			if l.Unknown != tt.unknown {
				t.Fatalf("unknown %q, want %q", l.Unknown, tt.unknown)
			}
			if tt.want != "" {
				if got := lineageString(l); got != tt.want {
					t.Errorf("got %s, want %s", got, tt.want)
				}
			}
			if _, ok := tt.root.(*planner.WorkTable); !ok {
				if got := tableNames(l); got != "orders customer" {
					t.Errorf("tables %q, want orders customer", got)
				}
			}
		})
	}
}
