package planner_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/planner"
)

// A statsTable splits into morsels as far as planning goes.
func (t *statsTable) ScanMorsels(context.Context, []int, iceberg.BooleanExpression) (planner.Morsels, error) {
	return nil, errors.New("statsTable cannot be read")
}

// TestJoinsProbedInParallel: the workers of a Gather probe the joins of
// their pipeline, except RIGHT and FULL joins and joins whose build side
// is estimated past the bound a query's memory budget sets (a shared
// build cannot spill).
func TestJoinsProbedInParallel(t *testing.T) {
	q9 := `select n_name, sum(l_extendedprice) from part, supplier, lineitem, partsupp, orders, nation
		where s_suppkey = l_suppkey and ps_suppkey = l_suppkey and ps_partkey = l_partkey
		and p_partkey = l_partkey and o_orderkey = l_orderkey and s_nationkey = n_nationkey
		and p_name like '%green%' group by n_name`
	tests := []struct {
		name     string
		sql      string
		maxBuild int64
		// probed are the tables whose build sides the workers probe, from
		// the plan's top join down; serial those joined outside the
		// workers.
		probed, serial []string
	}{
		{"star join, no bound", q9, 0, []string{"orders", "partsupp", "nation", "supplier", "part"}, nil},
		{"star join, large builds stay serial", q9, 20 << 20, []string{"nation", "supplier", "part"}, []string{"orders", "partsupp"}},
		{"left join", "select count(*) from lineitem left join orders on o_orderkey = l_orderkey", 0, []string{"orders"}, nil},
		{"full join stays serial", "select count(*) from lineitem full join orders on o_orderkey = l_orderkey", 0, nil, []string{"orders"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := optimizedParallelPlan(t, tt.sql, planner.ParallelOptions{Workers: 2, MinRows: 1000, MaxSharedBuildBytes: tt.maxBuild})
			probed, serial := buildSides(root, false)
			if strings.Join(probed, " ") != strings.Join(tt.probed, " ") || strings.Join(serial, " ") != strings.Join(tt.serial, " ") {
				t.Errorf("probed in workers %v, serial %v; want %v and %v\n%s", probed, serial, tt.probed, tt.serial, planner.Explain(root))
			}
		})
	}
}

func optimizedParallelPlan(t *testing.T, sql string, o planner.ParallelOptions) planner.Node {
	t.Helper()
	p := optimizedPlan(t, sql, planner.OpenRelation{})
	return planner.Optimize(&planner.Plan{Root: p}, o).Root
}

// buildSides lists the tables read by the build side of each join of n,
// as probed by a Gather's workers or not.
func buildSides(n planner.Node, inWorkers bool) (probed, serial []string) {
	switch x := n.(type) {
	case *planner.Gather:
		return buildSides(x.Input, true)
	case *planner.Join:
		tables := scannedTables(x.Right)
		if inWorkers {
			probed = append(probed, tables...)
		} else {
			serial = append(serial, tables...)
		}
		p, s := buildSides(x.Left, inWorkers)
		probed, serial = append(probed, p...), append(serial, s...)
		p, s = buildSides(x.Right, false)
		return append(probed, p...), append(serial, s...)
	}
	for _, in := range n.Inputs() {
		p, s := buildSides(in, inWorkers)
		probed, serial = append(probed, p...), append(serial, s...)
	}
	return probed, serial
}

func scannedTables(n planner.Node) []string {
	if s, ok := n.(*planner.Scan); ok {
		return []string{s.Table.QualifiedName().Name}
	}
	var out []string
	for _, in := range n.Inputs() {
		out = append(out, scannedTables(in)...)
	}
	return out
}

// TestAnyOrderGathers: a parallel aggregate read only as the right input
// of a semi or anti join (through filters and projections) returns its
// groups in any order; one whose rows a client, a sort or a join's output
// order may observe keeps the serial order.
func TestAnyOrderGathers(t *testing.T) {
	o := planner.ParallelOptions{Workers: 2, MinRows: 1000, Mergeable: func(*planner.AggCall) bool { return true }}
	tests := []struct {
		name, sql string
		// anyOrder and ordered count the plan's merged aggregates each way.
		anyOrder, ordered int
	}{
		{"IN over a grouping (TPC-H Q18)", `select o_orderkey from orders where o_orderkey in
			(select l_orderkey from lineitem group by l_orderkey having sum(l_quantity) > 300)`, 1, 0},
		{"NOT EXISTS over a grouping", `select o_orderkey from orders where not exists
			(select 1 from (select l_orderkey, sum(l_quantity) as q from lineitem group by l_orderkey) s
			where s.l_orderkey = o_orderkey and q > 300)`, 1, 0},
		{"the client reads the groups", `select l_orderkey, sum(l_quantity) from lineitem group by l_orderkey`, 0, 1},
		{"an inner join of the groups", `select o_orderdate, q from orders join
			(select l_orderkey, sum(l_quantity) as q from lineitem group by l_orderkey) s on s.l_orderkey = o_orderkey`, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := planner.Explain(optimizedParallelPlan(t, tt.sql, o))
			anyOrder := strings.Count(plan, "(partial aggregates merged, in any order)")
			ordered := strings.Count(plan, "(partial aggregates merged)")
			if anyOrder != tt.anyOrder || ordered != tt.ordered {
				t.Errorf("%d merged aggregates in any order and %d ordered, want %d and %d\n%s", anyOrder, ordered, tt.anyOrder, tt.ordered, plan)
			}
		})
	}
}
