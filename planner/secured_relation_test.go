package planner_test

import (
	"context"
	"slices"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
)

// boundStatement binds one SELECT, UPDATE, DELETE or MERGE against the
// TPC-H tables and returns the plan it runs (Matches for a DML
// statement), not optimized.
func boundStatement(t *testing.T, sql string, sec planner.Security) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	ctx := context.Background()
	b := planner.NewBinder(ctx, tpchCatalog{}, sec, sql)
	target := func(rv *pg_query.RangeVar) planner.Table {
		tbl, err := tpchCatalog{}.ResolveTable(ctx, planner.TableName{Name: rv.Relname})
		if err != nil {
			t.Fatal(err)
		}
		return tbl
	}
	switch x := tree.Stmts[0].Stmt.Node.(type) {
	case *pg_query.Node_SelectStmt:
		p, err := b.BindSelect(x.SelectStmt)
		if err != nil {
			t.Fatalf("bind %q: %v", sql, err)
		}
		return p.Root
	case *pg_query.Node_UpdateStmt:
		p, err := b.BindUpdate(x.UpdateStmt, target(x.UpdateStmt.Relation), nil)
		if err != nil {
			t.Fatalf("bind %q: %v", sql, err)
		}
		return p.Matches
	case *pg_query.Node_DeleteStmt:
		p, err := b.BindDelete(x.DeleteStmt, target(x.DeleteStmt.Relation))
		if err != nil {
			t.Fatalf("bind %q: %v", sql, err)
		}
		return p.Matches
	case *pg_query.Node_MergeStmt:
		p, err := b.BindMerge(x.MergeStmt, target(x.MergeStmt.Relation), nil)
		if err != nil {
			t.Fatalf("bind %q: %v", sql, err)
		}
		return p.Matches
	}
	t.Fatalf("%q: not a statement the test binds", sql)
	return nil
}

// maskedOrders masks o_orderpriority of orders, without a row filter.
type maskedOrders struct{}

func (maskedOrders) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := ordersPolicy{}.Secure(ctx, t)
	if err == nil {
		rel.RowFilters = nil
	}
	return rel, err
}

// TestSecuredRelationGuards checks what the binder records on the leaf of
// every secured relation, read or written: the row filters' predicate,
// the columns whose stored values are hidden, and for UPDATE and MERGE
// the columns carrying the new row images.
func TestSecuredRelationGuards(t *testing.T) {
	rowFilter := policies{"orders": {"o_orderdate > date '1995-01-01'"}}
	tests := []struct {
		name      string
		sql       string
		sec       planner.Security
		policy    bool
		hidden    []string
		writeBack int
	}{
		{name: "open table: no guard", sql: "SELECT * FROM orders", sec: planner.OpenRelation{}},
		{name: "row filter", sql: "SELECT * FROM orders", sec: rowFilter, policy: true},
		{name: "mask", sql: "SELECT * FROM orders", sec: maskedOrders{}, hidden: []string{"o_orderpriority"}},
		{name: "row filter and mask", sql: "SELECT * FROM orders", sec: ordersPolicy{}, policy: true, hidden: []string{"o_orderpriority"}},
		{name: "delete target", sql: "DELETE FROM orders WHERE o_custkey = 1", sec: ordersPolicy{}, policy: true, hidden: []string{"o_orderpriority"}},
		{name: "update target", sql: "UPDATE orders SET o_custkey = 2", sec: ordersPolicy{}, policy: true, hidden: []string{"o_orderpriority"}, writeBack: 6},
		{name: "merge target", sql: "MERGE INTO orders USING customer ON o_custkey = c_custkey WHEN MATCHED THEN DELETE", sec: maskedOrders{}, hidden: []string{"o_orderpriority"}, writeBack: 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := boundStatement(t, tt.sql, tt.sec)
			var guards []*planner.Guard
			names := map[planner.ColumnID]string{}
			var visit func(planner.Node)
			visit = func(n planner.Node) {
				switch x := n.(type) {
				case *planner.Scan:
					if x.Table.QualifiedName().Name == "orders" {
						guards = append(guards, x.Guard)
					}
					for _, c := range x.Cols {
						names[c.ID] = c.Name
					}
				case *planner.WorkTable:
					guards = append(guards, x.Guard)
					for _, c := range x.Cols {
						names[c.ID] = c.Name
					}
				}
				for _, in := range n.Inputs() {
					visit(in)
				}
			}
			visit(root)
			if len(guards) != 1 {
				t.Fatalf("%d leaves of orders, want 1:\n%s", len(guards), planner.Explain(root))
			}
			g := guards[0]
			if !tt.policy && tt.hidden == nil {
				if g != nil {
					t.Fatalf("guard %+v on an open table", g)
				}
				return
			}
			if g == nil {
				t.Fatal("no guard")
			}
			if got := g.Policy != nil; got != tt.policy {
				t.Errorf("policy recorded: %v, want %v", got, tt.policy)
			}
			var hidden []string
			for _, id := range g.Hidden {
				hidden = append(hidden, names[id])
			}
			if !slices.Equal(hidden, tt.hidden) {
				t.Errorf("hidden %v, want %v", hidden, tt.hidden)
			}
			if len(g.WriteBack) != tt.writeBack {
				t.Errorf("%d write-back columns, want %d", len(g.WriteBack), tt.writeBack)
			}
		})
	}
}
