package planner_test

import (
	"context"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// TestRulesArePure applies the optimizer's rules one by one to the plans
// of the join, decorrelation and masking cases, and checks after each
// that the tree the rule was given is as it was: a rule returns new nodes
// where it changes something and never edits its input.
func TestRulesArePure(t *testing.T) {
	type query struct {
		sql string
		sec planner.Security
		cat planner.Catalog // nil: tpchCatalog
	}
	var queries []query
	for _, path := range []string{"testdata/join_plans.txt", "testdata/decorrelate_plans.txt", "testdata/scalar_subquery_plans.txt"} {
		for _, c := range readExplainCases(t, path) {
			queries = append(queries, query{sql: c.sql, sec: c.policy})
		}
	}
	for _, sql := range []string{
		"SELECT count(*) FROM orders",
		"SELECT o_orderkey FROM orders WHERE o_custkey = 7",
		"SELECT o_orderkey FROM orders WHERE o_orderpriority = '1-URGENT'",
		"SELECT o_orderkey, (SELECT max(c_name) FROM customer WHERE c_custkey = 3) FROM orders WHERE o_orderdate > date '1996-01-01'",
		"SELECT c_name FROM customer WHERE c_custkey IN (SELECT o_custkey FROM orders WHERE o_totalprice > 10)",
	} {
		queries = append(queries, query{sql: sql, sec: ordersPolicy{}})
	}
	for _, sql := range maskedScalarSubqueries {
		queries = append(queries, query{sql: sql, sec: ordersPolicy{}})
	}
	// Counts answered from the files' record counts, under no policy, a
	// mask, and a row filter the files prove.
	for _, sql := range []string{
		"SELECT count(*) FROM orders",
		"SELECT count(1), count(*) FROM orders HAVING count(*) > 1",
		"SELECT c_name, (SELECT count(*) FROM orders) FROM customer WHERE c_custkey IN (SELECT count(*) FROM orders)",
		"SELECT * FROM (SELECT count(*) FROM orders) a, (SELECT count(*) FROM customer) b",
	} {
		for _, sec := range []planner.Security{planner.OpenRelation{}, maskedOrdersOnly{}, ordersPolicy{}} {
			queries = append(queries, query{sql: sql, sec: sec, cat: countingCatalog{proves: true}})
		}
	}
	for _, q := range queries {
		tree, err := pg_query.Parse(q.sql)
		if err != nil {
			t.Fatalf("parse %q: %v", q.sql, err)
		}
		var cat planner.Catalog = tpchCatalog{}
		if q.cat != nil {
			cat = q.cat
		}
		p, err := planner.NewBinder(context.Background(), cat, q.sec, q.sql).BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
		if err != nil {
			t.Fatalf("bind %q: %v", q.sql, err)
		}
		root := p.Root
		for _, b := range planner.Batches() {
			for _, r := range b.Rules {
				before := planner.DumpTree(root)
				out := r.Apply(root)
				if after := planner.DumpTree(root); after != before {
					t.Errorf("%s/%s edited its input for %s\nbefore:\n%s\nafter:\n%s", b.Name, r.Name, q.sql, before, after)
				}
				root = out
			}
		}
	}
}
