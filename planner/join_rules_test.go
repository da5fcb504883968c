package planner_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// statsTable is a table with a row estimate and no rows: enough to plan.
type statsTable struct {
	name string
	rows int64
	cols []planner.TableColumn
}

func (t *statsTable) QualifiedName() planner.TableName {
	return planner.TableName{Catalog: "cat", Schema: "tpch", Name: t.name}
}
func (t *statsTable) OID() uint32                    { return 30000 + uint32(len(t.name)) }
func (t *statsTable) Columns() []planner.TableColumn { return t.cols }
func (t *statsTable) RowEstimate() int64             { return t.rows }
func (t *statsTable) Scan(context.Context, []int, iceberg.BooleanExpression) (planner.RecordStream, error) {
	return nil, errors.New("statsTable cannot be read")
}

// tpchTables are the TPC-H tables at scale factor 1, with the columns the
// tests use. A column's type follows its name: *key bigint, *date date,
// money columns numeric(15,2), ship priorities and available
// quantities integer, the rest text.
var tpchTables = map[string]struct {
	rows int64
	cols string
}{
	"region":   {5, "r_regionkey r_name"},
	"nation":   {25, "n_nationkey n_name n_regionkey"},
	"supplier": {10_000, "s_suppkey s_name s_nationkey s_acctbal"},
	"customer": {150_000, "c_custkey c_name c_address c_nationkey c_phone c_acctbal c_mktsegment c_comment"},
	"part":     {200_000, "p_partkey p_name p_type"},
	"orders":   {1_500_000, "o_orderkey o_custkey o_orderdate o_orderpriority o_totalprice o_shippriority"},
	"partsupp": {800_000, "ps_partkey ps_suppkey ps_availqty"},
	"lineitem": {6_000_000, "l_orderkey l_partkey l_suppkey l_quantity l_extendedprice l_discount l_returnflag l_shipdate l_commitdate l_receiptdate l_shipmode"},
}

func columnType(name string) types.T {
	switch {
	case strings.HasSuffix(name, "key"):
		return types.Int8
	case strings.HasSuffix(name, "date"):
		return types.Date
	case strings.HasSuffix(name, "acctbal"), strings.HasSuffix(name, "price"), strings.HasSuffix(name, "quantity"), strings.HasSuffix(name, "discount"):
		return types.Numeric(15, 2)
	case strings.HasSuffix(name, "shippriority"), strings.HasSuffix(name, "availqty"):
		return types.Int4
	}
	return types.Text
}

type tpchCatalog struct{}

func (tpchCatalog) ResolveTable(_ context.Context, n planner.TableName) (planner.Table, error) {
	spec, ok := tpchTables[n.Name]
	if !ok {
		return nil, errors.New("no table " + n.Name)
	}
	t := &statsTable{name: n.Name, rows: spec.rows}
	for _, c := range strings.Fields(spec.cols) {
		t.cols = append(t.cols, planner.TableColumn{Name: c, Type: columnType(c)})
	}
	return t, nil
}

// policies applies row filters to the tables named in it, as a
// governance policy would.
type policies map[string][]string

func (p policies) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil {
		return nil, err
	}
	rel.RowFilters = p[t.QualifiedName().Name]
	return rel, nil
}

// explainCase is one case of a golden file:
//
//	query <name>
//	[policy <table> <row filter>]...
//	<sql, one or more lines>
//	----
//	<optimized plan, as Explain prints it>
type explainCase struct {
	name   string
	policy policies
	sql    string
	want   string
}

func readExplainCases(t *testing.T, path string) []explainCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []explainCase
	var cur *explainCase
	inPlan := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "query "):
			if cur != nil {
				cases = append(cases, *cur)
			}
			cur = &explainCase{name: strings.TrimPrefix(line, "query "), policy: policies{}}
			inPlan = false
		case cur == nil || strings.HasPrefix(line, "#"):
		case line == "----":
			inPlan = true
		case inPlan:
			if line != "" {
				cur.want += line + "\n"
			}
		case strings.HasPrefix(line, "policy "):
			fields := strings.SplitN(line, " ", 3)
			cur.policy[fields[1]] = append(cur.policy[fields[1]], fields[2])
		case strings.TrimSpace(line) != "":
			cur.sql = strings.TrimSpace(cur.sql + "\n" + line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		cases = append(cases, *cur)
	}
	return cases
}

func writeExplainCases(t *testing.T, path string, cases []explainCase) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Optimized plans of joins over the TPC-H tables at scale factor 1.\n")
	b.WriteString("# Regenerate with: go test ./planner -run " + strings.Split(t.Name(), "/")[0] + " -update\n")
	for _, c := range cases {
		b.WriteString("\nquery " + c.name + "\n")
		for _, table := range slices.Sorted(maps.Keys(c.policy)) {
			for _, f := range c.policy[table] {
				b.WriteString("policy " + table + " " + f + "\n")
			}
		}
		b.WriteString(c.sql + "\n----\n" + c.want)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// optimizedPlan binds and optimizes sql against the TPC-H tables.
func optimizedPlan(t *testing.T, sql string, sec planner.Security) planner.Node {
	t.Helper()
	return optimizedPlanIn(t, tpchCatalog{}, sec, sql)
}

// optimizedPlanIn binds and optimizes sql against cat's tables.
func optimizedPlanIn(t *testing.T, cat planner.Catalog, sec planner.Security, sql string) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	p, err := planner.NewBinder(context.Background(), cat, sec, sql).BindSelect(sel)
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	return planner.Optimize(p, planner.ParallelOptions{}).Root
}

func TestJoinPlans(t *testing.T) {
	runExplainCases(t, "testdata/join_plans.txt", func(t *testing.T, c explainCase) string {
		return planner.Explain(optimizedPlan(t, c.sql, c.policy))
	})
}

// runExplainCases checks each case of the file at path: render gives its
// plan's text, which must be the case's; with -update the file is written
// again from what render gave.
func runExplainCases(t *testing.T, path string, render func(t *testing.T, c explainCase) string) {
	t.Helper()
	cases := readExplainCases(t, path)
	if len(cases) == 0 {
		t.Fatal("no cases in " + path)
	}
	for i := range cases {
		c := &cases[i]
		t.Run(c.name, func(t *testing.T) {
			got := render(t, *c)
			if *update {
				c.want = got
				return
			}
			if got != c.want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.sql, got, c.want)
			}
		})
	}
	if *update {
		writeExplainCases(t, path, cases)
	}
}

// TestBarriersSurviveJoinRules checks the security invariant of the join
// rules on plans with row policies: every secured table keeps its barrier
// filter, with the policy's predicate alone, directly over its scan, so
// no user expression (leakproof or not) is evaluated below it.
func TestBarriersSurviveJoinRules(t *testing.T) {
	tests := []struct {
		sql      string
		barriers int
	}{
		{"SELECT c_name FROM customer, orders WHERE c_custkey = o_custkey AND o_totalprice / 0 > 1", 1},
		{"SELECT count(*) FROM orders a, orders b, customer WHERE a.o_orderkey = b.o_orderkey AND b.o_custkey = c_custkey AND length(a.o_orderpriority) / 0 > 1", 2},
		{"SELECT count(*) FROM customer LEFT JOIN orders ON c_custkey = o_custkey AND o_totalprice / 0 > 1 WHERE o_orderdate > date '1995-01-01'", 1},
		{"SELECT count(*) FROM customer RIGHT JOIN orders ON c_custkey = o_custkey AND c_acctbal / 0 > 1 WHERE o_totalprice / 0 > 1", 1},
		{"SELECT count(*) FROM customer JOIN (SELECT * FROM orders WHERE o_totalprice / 0 > 1) o ON c_custkey = o.o_custkey", 1},
	}
	sec := policies{"orders": {"o_orderpriority = '1-URGENT'"}}
	for _, tt := range tests {
		root := optimizedPlan(t, tt.sql, sec)
		n := 0
		var check func(planner.Node)
		check = func(node planner.Node) {
			if f, ok := node.(*planner.Filter); ok && f.Barrier {
				n++
				if _, ok := f.Input.(*planner.Scan); !ok {
					t.Errorf("%s: barrier filter over %T, want a scan:\n%s", tt.sql, f.Input, planner.Explain(root))
				}
				if got := f.Pred.String(); !strings.HasPrefix(got, "(o_orderpriority#") || strings.Contains(got, "AND") {
					t.Errorf("%s: barrier predicate changed to %s", tt.sql, got)
				}
			}
			for _, in := range node.Inputs() {
				check(in)
			}
		}
		check(root)
		if n != tt.barriers {
			t.Errorf("%s: %d barrier filters, want %d:\n%s", tt.sql, n, tt.barriers, planner.Explain(root))
		}
	}
}

func TestNarrowPlans(t *testing.T) {
	runExplainCases(t, "testdata/narrow_plans.txt", func(t *testing.T, c explainCase) string {
		return planner.Explain(optimizedPlan(t, c.sql, c.policy))
	})
}
