package planner

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// costTable is a table with a known row count for the estimates.
type costTable struct{ rows int64 }

func (costTable) QualifiedName() TableName {
	return TableName{Catalog: "c", Schema: "s", Name: "orders"}
}
func (costTable) OID() uint32 { return 1 }
func (costTable) Columns() []TableColumn {
	return []TableColumn{
		{Name: "id", Type: types.Int8}, {Name: "region", Type: types.Text}, {Name: "ssn", Type: types.Text},
		{Name: "amount", Type: types.Numeric(12, 2)}, {Name: "order_date", Type: types.Date},
	}
}
func (t costTable) RowEstimate() int64 { return t.rows }
func (costTable) Scan(context.Context, []int, iceberg.BooleanExpression) (RecordStream, error) {
	return nil, nil
}

func TestExplainWithCosts(t *testing.T) {
	scanOf := func(rows int64) *Scan {
		s := &Scan{Table: costTable{rows: rows}}
		for i, c := range s.Table.Columns() {
			s.TableColumns = append(s.TableColumns, i)
			s.Cols = append(s.Cols, Column{ID: ColumnID(i + 1), Name: c.Name, Type: c.Type})
		}
		return s
	}
	eq, _ := functions.LookupOperator("=")
	idIs := func() Expr {
		return &BinOp{Op: eq, L: &ColRef{ID: 1, Name: "id", Typ: types.Int8}, R: &Const{Typ: types.Int8, Value: int64(2)}, Typ: types.Bool}
	}
	tests := []struct {
		name string
		plan func() Node
		want []string // one cost annotation per plan line, outermost first
	}{
		{
			// Widths as PostgreSQL's for acdemo.orders: 8 + 32 + 32 + 16 + 4.
			name: "scan with the snapshot's row count",
			plan: func() Node { return scanOf(3) },
			want: []string{"(cost=0.00..1.03 rows=3 width=92)"},
		},
		{
			name: "unknown row count",
			plan: func() Node { return scanOf(-1) },
			want: []string{"(cost=0.00..22.00 rows=1000 width=92)"},
		},
		{
			name: "equality filter and limit",
			plan: func() Node {
				s := scanOf(100000)
				return &Limit{Input: &Filter{Input: s, Pred: idIs()}, Count: 10}
			},
			want: []string{
				"(cost=0.00..47.48 rows=10 width=92)",
				"(cost=0.00..2374.00 rows=500 width=92)",
				"(cost=0.00..2124.00 rows=100000 width=92)",
			},
		},
		{
			name: "count(*)",
			plan: func() Node {
				agg, _ := functions.LookupAggregate("count")
				return &Aggregate{Input: scanOf(3), Aggs: []*AggCall{{Func: agg, Out: Column{ID: 9, Name: "count", Type: types.Int8}}}}
			},
			want: []string{"(cost=1.04..1.05 rows=1 width=8)", "(cost=0.00..1.03 rows=3 width=92)"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lines := strings.Split(strings.TrimRight(ExplainWithCosts(tc.plan()), "\n"), "\n")
			if len(lines) != len(tc.want) {
				t.Fatalf("plan has %d lines, want %d:\n%s", len(lines), len(tc.want), strings.Join(lines, "\n"))
			}
			for i, l := range lines {
				if !strings.HasSuffix(l, "  "+tc.want[i]) {
					t.Errorf("line %d = %q, want it to end with %q", i, l, tc.want[i])
				}
			}
		})
	}
	// Without costs the plan is printed as before.
	if got := Explain(scanOf(3)); strings.Contains(got, "cost=") {
		t.Errorf("Explain prints costs: %q", got)
	}
}
