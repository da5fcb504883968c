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
