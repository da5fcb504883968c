package planner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// ordersPolicy secures orders with a row filter on o_orderdate and a mask
// on o_orderpriority, as gate two's enforcer would.
type ordersPolicy struct{}

func (ordersPolicy) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := planner.OpenRelation{}.Secure(ctx, t)
	if err != nil || t.QualifiedName().Name != "orders" {
		return rel, err
	}
	rel.RowFilters = []string{"o_orderdate > date '1995-01-01'"}
	for i, c := range t.Columns() {
		if c.Name == "o_orderpriority" {
			rel.Masks = map[int]string{i: "upper(o_orderpriority)"}
		}
	}
	return rel, nil
}

// TestMaskingProjectionPlans checks the rules around a masking
// projection: a mask nothing reads is not computed, a user predicate on
// an unmasked column reaches the scan, and one on a masked column stays
// above the mask.
func TestMaskingProjectionPlans(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want string
	}{
		{
			name: "no column read: no mask, only the policy's column scanned",
			sql:  "SELECT count(*) FROM orders",
			want: `
Project count#8
  Aggregate groups=[] aggs=[count(*)]
    Project
      BarrierFilter (o_orderdate#3 > 9131::date)
        Scan {cat tpch orders} cols=[o_orderdate] pushed=GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01)`,
		},
		{
			name: "unmasked column filtered: pushed below the mask into the scan",
			sql:  "SELECT o_orderkey FROM orders WHERE o_custkey = 7",
			want: `
Project o_orderkey#1
  Filter (o_custkey#2 = 7::bigint)
    Project o_orderkey#1, o_custkey#2
      BarrierFilter (o_orderdate#3 > 9131::date)
        Scan {cat tpch orders} cols=[o_orderkey o_custkey o_orderdate] pushed=And(left=Equal(term=Reference(name='o_custkey'), literal=7), right=GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01))`,
		},
		{
			name: "masked column filtered: the predicate reads the mask and is not pushed",
			sql:  "SELECT o_orderkey FROM orders WHERE o_orderpriority = '1-URGENT'",
			want: `
Project o_orderkey#1
  Filter (o_orderpriority#7 = 1-URGENT::text)
    Project o_orderkey#1, upper(o_orderpriority#4)
      BarrierFilter (o_orderdate#3 > 9131::date)
        Scan {cat tpch orders} cols=[o_orderkey o_orderdate o_orderpriority] pushed=GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01)`,
		},
		{
			name: "set operation: whole rows compared, every column kept and masked",
			sql:  "SELECT * FROM orders UNION SELECT * FROM orders",
			want: `
Aggregate groups=[o_orderkey#39, o_custkey#40, o_orderdate#41, o_orderpriority#42, o_totalprice#43, o_shippriority#44] aggs=[]
  Append
    Project o_orderkey#8, o_custkey#9, o_orderdate#10, o_orderpriority#11, CAST(o_totalprice#12 AS numeric), o_shippriority#13
      Project o_orderkey#1, o_custkey#2, o_orderdate#3, o_orderpriority#7, o_totalprice#5, o_shippriority#6
        Project o_orderkey#1, o_custkey#2, o_orderdate#3, upper(o_orderpriority#4), o_totalprice#5, o_shippriority#6
          BarrierFilter (o_orderdate#3 > 9131::date)
            Scan {cat tpch orders} cols=[o_orderkey o_custkey o_orderdate o_orderpriority o_totalprice o_shippriority] pushed=GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01)
    Project o_orderkey#21, o_custkey#22, o_orderdate#23, o_orderpriority#24, CAST(o_totalprice#25 AS numeric), o_shippriority#26
      Project o_orderkey#14, o_custkey#15, o_orderdate#16, o_orderpriority#20, o_totalprice#18, o_shippriority#19
        Project o_orderkey#14, o_custkey#15, o_orderdate#16, upper(o_orderpriority#17), o_totalprice#18, o_shippriority#19
          BarrierFilter (o_orderdate#16 > 9131::date)
            Scan {cat tpch orders} cols=[o_orderkey o_custkey o_orderdate o_orderpriority o_totalprice o_shippriority] pushed=GreaterThan(term=Reference(name='o_orderdate'), literal=1995-01-01)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := trimLines(planner.Explain(optimizedPlan(t, tt.sql, ordersPolicy{})))
			if want := trimLines(tt.want); got != want {
				t.Errorf("%s\ngot:\n%s\nwant:\n%s", tt.sql, got, want)
			}
		})
	}
}

// trimLines drops the blank lines around a plan and the spaces ending its
// lines (a projection of no columns prints as "Project ").
func trimLines(plan string) string {
	lines := strings.Split(strings.TrimSpace(plan), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
