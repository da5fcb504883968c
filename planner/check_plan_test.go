package planner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// TestCheckPlanPassesBoundPlans checks that the plans the binder and the
// optimizer make pass the final plan check: every golden case, masked
// and filtered reads, subqueries, and DML statements over a secured
// target, bound and optimized.
func TestCheckPlanPassesBoundPlans(t *testing.T) {
	type query struct {
		sql string
		sec planner.Security
	}
	var queries []query
	for _, path := range []string{"testdata/join_plans.txt", "testdata/decorrelate_plans.txt", "testdata/cte_plans.txt"} {
		for _, c := range readExplainCases(t, path) {
			queries = append(queries, query{c.sql, c.policy})
		}
	}
	for _, sql := range []string{
		"SELECT * FROM orders",
		"SELECT count(*) FROM orders",
		"SELECT o_orderkey FROM orders WHERE o_custkey = 7 AND o_totalprice / 0 > 1",
		"SELECT o_orderpriority, count(*) FROM orders WHERE o_orderpriority = '1-URGENT' GROUP BY 1 ORDER BY 1",
		"SELECT * FROM orders UNION SELECT * FROM orders",
		"SELECT o_orderkey, (SELECT max(o_orderpriority) FROM orders o2 WHERE o2.o_custkey = orders.o_custkey) FROM orders",
		"SELECT c_name FROM customer WHERE EXISTS (SELECT 1 FROM orders WHERE o_custkey = c_custkey AND o_orderpriority <> 'x')",
		"SELECT c_name FROM customer WHERE c_custkey NOT IN (SELECT o_custkey FROM orders)",
		"SELECT c_name, x.p FROM customer, LATERAL (SELECT o_orderpriority p FROM orders WHERE o_custkey = c_custkey) x",
		"DELETE FROM orders WHERE o_orderpriority = '1-URGENT'",
		"DELETE FROM orders USING customer WHERE o_custkey = c_custkey AND c_name = 'x'",
		"UPDATE orders SET o_custkey = 2 WHERE o_totalprice / 0 > 1",
		"UPDATE orders SET o_custkey = c_custkey FROM customer WHERE c_name = o_orderpriority",
	} {
		queries = append(queries, query{sql, ordersPolicy{}})
	}
	queries = append(queries, query{"MERGE INTO orders USING customer ON o_custkey = c_custkey " +
		"WHEN MATCHED AND o_orderpriority = 'x' THEN UPDATE SET o_custkey = 1 WHEN NOT MATCHED THEN INSERT (o_orderkey) VALUES (c_custkey)", maskedOrders{}})
	for _, q := range queries {
		bound := boundStatement(t, q.sql, q.sec)
		if err := planner.CheckPlan(bound); err != nil {
			t.Errorf("bound plan of %s: %v\n%s", q.sql, err, planner.Explain(bound))
		}
		optimized := planner.Optimize(&planner.Plan{Root: bound}, planner.ParallelOptions{}).Root
		if err := planner.CheckPlan(optimized); err != nil {
			t.Errorf("optimized plan of %s: %v\n%s", q.sql, err, planner.Explain(optimized))
		}
	}
}

// securedOrders is, built by hand, the secured relation of orders the
// binder builds for a caller under a row filter on o_orderpriority and a
// mask on it: scan, barrier filter, masking projection.
type securedOrders struct {
	key, date, prio, masked planner.Column
	policy                  planner.Expr
	scan                    *planner.Scan
	barrier                 *planner.Filter
	mask                    *planner.Project
}

func newSecuredOrders() *securedOrders {
	o := &securedOrders{
		key:    planner.Column{ID: 1, Name: "o_orderkey", Type: types.Int8},
		date:   planner.Column{ID: 2, Name: "o_orderdate", Type: types.Date},
		prio:   planner.Column{ID: 3, Name: "o_orderpriority", Type: types.Text},
		masked: planner.Column{ID: 4, Name: "o_orderpriority", Type: types.Text},
	}
	o.policy = compare("=", ref(o.prio), &planner.Const{Typ: types.Text, Value: "1-URGENT"})
	o.scan = &planner.Scan{
		Table:        &statsTable{name: "orders", rows: 100, cols: []planner.TableColumn{{Name: "o_orderkey", Type: types.Int8}, {Name: "o_custkey", Type: types.Int8}, {Name: "o_orderdate", Type: types.Date}, {Name: "o_orderpriority", Type: types.Text}}},
		TableColumns: []int{0, 2, 3},
		Cols:         []planner.Column{o.key, o.date, o.prio},
		Guard:        &planner.Guard{Policy: o.policy, Hidden: []planner.ColumnID{o.prio.ID}},
	}
	o.barrier = &planner.Filter{Input: o.scan, Pred: o.policy, Barrier: true}
	o.mask = &planner.Project{Input: o.barrier, Masking: true,
		Exprs: []planner.Expr{ref(o.key), ref(o.date), &planner.Func{Name: "upper", Args: []planner.Expr{ref(o.prio)}, Typ: types.Text}},
		Cols:  []planner.Column{o.key, o.date, o.masked}}
	return o
}

// selectOver is the statement's own part over the relation n: a user
// filter on the masked value and a select list.
func (o *securedOrders) selectOver(n planner.Node) planner.Node {
	f := &planner.Filter{Input: n, Pred: compare("<>", ref(o.masked), &planner.Const{Typ: types.Text, Value: "x"})}
	return &planner.Project{Input: f, Exprs: []planner.Expr{ref(o.key), ref(o.masked)},
		Cols: []planner.Column{{ID: 10, Name: "o_orderkey", Type: types.Int8}, {ID: 11, Name: "o_orderpriority", Type: types.Text}}}
}

// withQuery is n materialized as a WITH query that two CTE Scans read,
// each the columns source, joined.
func (o *securedOrders) withQuery(n planner.Node, source []planner.ColumnID) planner.Node {
	scan := func(first planner.ColumnID) *planner.CTEScan {
		s := &planner.CTEScan{CTE: 30, Name: "w", Source: source}
		for i := range source {
			s.Cols = append(s.Cols, planner.Column{ID: first + planner.ColumnID(i), Name: "c", Type: types.Int8})
		}
		return s
	}
	return &planner.CTE{ID: 30, Name: "w", Def: n,
		Input: &planner.Join{Left: scan(40), Right: scan(50), Kind: planner.InnerJoin}}
}

// countFromFiles is count(*) over n answered from the files' record
// counts of orders, a table that can count.
func (o *securedOrders) countFromFiles(n planner.Node) planner.Node {
	o.scan.Table = &countingTable{statsTable: o.scan.Table.(*statsTable)}
	count, _ := functions.LookupAggregate("count")
	agg := &planner.Aggregate{Input: n, Aggs: []*planner.AggCall{{Func: count, Out: planner.Column{ID: 10, Name: "count", Type: types.Int8}}}}
	return &planner.RowCount{Input: agg}
}

func ref(c planner.Column) *planner.ColRef {
	return &planner.ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
}

func compare(op string, l, r planner.Expr) planner.Expr {
	o, _ := functions.LookupOperator(op)
	return &planner.BinOp{Op: o, L: l, R: r, Typ: types.Bool}
}

// failing is l / 0 > 0, which is not leakproof: it raises an error on a
// row, which could be a row the barrier hides.
func failing(l planner.Expr) planner.Expr {
	div, _ := functions.LookupOperator("/")
	zero := &planner.Const{Typ: types.Int8, Value: int64(0)}
	return compare(">", &planner.BinOp{Op: div, L: l, R: zero, Typ: types.Int8}, zero)
}

// opaqueNode is a node kind the check does not know.
type opaqueNode struct{ in planner.Node }

func (o opaqueNode) Columns() []planner.Column { return o.in.Columns() }
func (o opaqueNode) Inputs() []planner.Node    { return []planner.Node{o.in} }

// TestCheckPlanRefusesBrokenPlans hands the final plan check each kind of
// broken plan, built by hand, and a few sound ones around them: a secured
// scan that lost its barrier or its masking projection, an expression
// that is not leakproof below a barrier, a hidden column's stored value
// read above its mask.
func TestCheckPlanRefusesBrokenPlans(t *testing.T) {
	tests := []struct {
		name string
		plan func(o *securedOrders) planner.Node
		want string // in the error; "" for a sound plan
	}{
		// Sound plans.
		{name: "as the binder builds it", plan: func(o *securedOrders) planner.Node { return o.selectOver(o.mask) }},
		{name: "a leakproof filter between scan and barrier", plan: func(o *securedOrders) planner.Node {
			o.barrier.Input = &planner.Filter{Input: o.scan, Pred: compare("=", ref(o.key), &planner.Const{Typ: types.Int8, Value: int64(7)})}
			return o.selectOver(o.mask)
		}},
		{name: "a user filter on a column the mask passes between barrier and mask", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = &planner.Filter{Input: o.barrier, Pred: failing(ref(o.key))}
			return o.selectOver(o.mask)
		}},
		{name: "the barrier's predicate and a leakproof user predicate prune the scan", plan: func(o *securedOrders) planner.Node {
			o.scan.Pushed = []planner.Expr{compare("=", ref(o.key), &planner.Const{Typ: types.Int8, Value: int64(7)}), o.policy}
			return o.selectOver(o.mask)
		}},
		{name: "a mask without a row filter", plan: func(o *securedOrders) planner.Node {
			o.scan.Guard.Policy = nil
			o.mask.Input = o.scan
			return o.selectOver(o.mask)
		}},

		{name: "a WITH query over the mask read by two references", plan: func(o *securedOrders) planner.Node {
			return o.withQuery(o.mask, []planner.ColumnID{o.key.ID, o.masked.ID})
		}},

		// (a) A secured scan lost its barrier or its masking projection.
		{name: "barrier dropped", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = o.scan
			return o.selectOver(o.mask)
		}},
		{name: "barrier made a plain filter", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.barrier.Barrier = false
			return o.selectOver(o.mask)
		}},
		{name: "a join between scan and barrier", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.barrier.Input = &planner.Join{Left: o.scan, Right: planner.OneRow{}, Kind: planner.InnerJoin}
			return o.selectOver(o.mask)
		}},
		{name: "a secured scan alone", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node { return o.scan }},
		{name: "a user predicate merged into the barrier", want: "holds more than its row filters", plan: func(o *securedOrders) planner.Node {
			o.barrier.Pred = compare("AND", o.policy, failing(ref(o.key)))
			return o.selectOver(o.mask)
		}},
		{name: "masking projection dropped", want: "lost its masking projection", plan: func(o *securedOrders) planner.Node {
			return &planner.Project{Input: o.barrier, Exprs: []planner.Expr{ref(o.key)}, Cols: []planner.Column{{ID: 10, Name: "o_orderkey", Type: types.Int8}}}
		}},
		{name: "masking projection made a plain one", want: "lost its masking projection", plan: func(o *securedOrders) planner.Node {
			o.mask.Masking = false
			return o.selectOver(o.mask)
		}},
		{name: "a mask under the barrier", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = o.scan
			o.barrier.Input = o.mask
			return o.selectOver(o.barrier)
		}},
		{name: "a secured scan in a subquery lost its barrier", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = o.scan
			sq := &planner.Subquery{Kind: planner.ExistsSubquery, Plan: o.mask, Typ: types.Bool}
			return &planner.Filter{Input: &planner.Values{Rows: [][]planner.Expr{{}}}, Pred: sq}
		}},
		{name: "a DML target lost its barrier", want: "target orders lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			w := &planner.WorkTable{Name: "orders", Cols: o.scan.Cols, Guard: &planner.Guard{Policy: o.policy}}
			return &planner.Project{Input: w, Exprs: []planner.Expr{ref(o.key)}, Cols: []planner.Column{{ID: 10, Name: "o_orderkey", Type: types.Int8}}}
		}},

		{name: "a WITH query lost its barrier", want: "lost its barrier filter", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = o.scan
			return o.withQuery(o.mask, []planner.ColumnID{o.key.ID, o.masked.ID})
		}},

		// (b) An expression that is not leakproof below a barrier.
		{name: "a failing filter between scan and barrier", want: "not leakproof is evaluated below the barrier", plan: func(o *securedOrders) planner.Node {
			o.barrier.Input = &planner.Filter{Input: o.scan, Pred: failing(ref(o.key))}
			return o.selectOver(o.mask)
		}},
		{name: "a failing predicate pushed into the scan", want: "not leakproof prunes the scan", plan: func(o *securedOrders) planner.Node {
			o.scan.Pushed = []planner.Expr{failing(ref(o.key))}
			return o.selectOver(o.mask)
		}},

		// (c) A hidden column's stored value read above its mask.
		{name: "a user filter reads the stored value", want: `hidden column "o_orderpriority" of table cat.tpch.orders is read outside its mask (Filter)`, plan: func(o *securedOrders) planner.Node {
			return o.selectOver(&planner.Filter{Input: o.mask, Pred: compare("=", ref(o.prio), &planner.Const{Typ: types.Text, Value: "1-URGENT"})})
		}},
		{name: "the select list reads the stored value", want: "read outside its mask (Project)", plan: func(o *securedOrders) planner.Node {
			return &planner.Project{Input: o.mask, Exprs: []planner.Expr{ref(o.prio)}, Cols: []planner.Column{{ID: 10, Name: "o_orderpriority", Type: types.Text}}}
		}},
		{name: "the plan returns the stored value", want: "returns the stored value of hidden column", plan: func(o *securedOrders) planner.Node {
			o.mask.Exprs = append(o.mask.Exprs, ref(o.prio))
			o.mask.Cols = append(o.mask.Cols, o.prio)
			return o.mask
		}},
		{name: "a sort key reads the stored value", want: "read outside its mask (Sort)", plan: func(o *securedOrders) planner.Node {
			return o.selectOver(&planner.Sort{Input: o.mask, Keys: []planner.SortKey{{Expr: ref(o.prio)}}})
		}},
		{name: "a grouping key reads the stored value", want: "read outside its mask (Aggregate)", plan: func(o *securedOrders) planner.Node {
			return &planner.Aggregate{Input: o.mask, Groups: []planner.Expr{ref(o.prio)}, GroupCols: []planner.Column{{ID: 10, Name: "g", Type: types.Text}}}
		}},
		{name: "a join condition reads the stored value", want: "read outside its mask (Join)", plan: func(o *securedOrders) planner.Node {
			return o.selectOver(&planner.Join{Left: o.mask, Right: planner.OneRow{}, Kind: planner.InnerJoin,
				On: compare("=", ref(o.prio), &planner.Const{Typ: types.Text, Value: "x"})})
		}},
		{name: "a correlated subquery reads the stored value", want: "read outside its mask (Filter)", plan: func(o *securedOrders) planner.Node {
			sq := &planner.Subquery{Kind: planner.ExistsSubquery, Plan: &planner.Values{Rows: [][]planner.Expr{{}}}, Typ: types.Bool, Outer: []planner.Column{o.prio}}
			return o.selectOver(&planner.Filter{Input: o.mask, Pred: sq})
		}},
		{name: "a union reads the stored value", want: "read outside its mask (Append)", plan: func(o *securedOrders) planner.Node {
			o.mask.Exprs = append(o.mask.Exprs, ref(o.prio))
			o.mask.Cols = append(o.mask.Cols, o.prio)
			return &planner.Append{Ins: []planner.Node{o.mask}, Cols: []planner.Column{{ID: 20}, {ID: 21}, {ID: 22}, {ID: 23}}}
		}},
		{name: "a WITH query keeps the stored value", want: "read outside its mask (CTE)", plan: func(o *securedOrders) planner.Node {
			o.mask.Exprs = append(o.mask.Exprs, ref(o.prio))
			o.mask.Cols = append(o.mask.Cols, o.prio)
			return o.withQuery(o.mask, []planner.ColumnID{o.key.ID, o.masked.ID})
		}},
		{name: "a CTE Scan reads the stored value", want: "read outside its mask (CTEScan)", plan: func(o *securedOrders) planner.Node {
			return o.withQuery(o.mask, []planner.ColumnID{o.key.ID, o.prio.ID})
		}},
		{name: "a user filter under the mask reads the stored value", want: "read outside its mask (Filter)", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = &planner.Filter{Input: o.barrier, Pred: compare("=", ref(o.prio), &planner.Const{Typ: types.Text, Value: "2-HIGH"})}
			return o.selectOver(o.mask)
		}},
		{name: "a user predicate on the stored value prunes the scan", want: "prunes by the stored value of a hidden column", plan: func(o *securedOrders) planner.Node {
			o.scan.Pushed = []planner.Expr{compare("=", ref(o.prio), &planner.Const{Typ: types.Text, Value: "2-HIGH"})}
			return o.selectOver(o.mask)
		}},

		// A DML target's stored values go to the new row images only.
		{name: "a DML target's stored value into its new row image", plan: func(o *securedOrders) planner.Node {
			return dmlOver(o, true)
		}},
		{name: "a DML target's stored value into another column", want: "target orders is read outside its mask (Project)", plan: func(o *securedOrders) planner.Node {
			return dmlOver(o, false)
		}},

		// A count from the files' record counts does not run its input:
		// it must stand over a whole table's count, under a row filter
		// only when the files proved it.
		{name: "a count from the files under a proven row filter", plan: func(o *securedOrders) planner.Node {
			o.barrier.Proven = true
			return o.countFromFiles(o.mask)
		}},
		{name: "a count from the files under an unproven row filter", want: "count from file record counts stands over a plan it does not answer", plan: func(o *securedOrders) planner.Node {
			return o.countFromFiles(o.mask)
		}},
		{name: "a count from the files under a user filter", want: "count from file record counts stands over a plan it does not answer", plan: func(o *securedOrders) planner.Node {
			o.barrier.Proven = true
			return o.countFromFiles(&planner.Filter{Input: o.mask, Pred: compare("=", ref(o.key), &planner.Const{Typ: types.Int8, Value: int64(7)})})
		}},
		{name: "a count from the files that lost the barrier", want: "count from file record counts stands over a plan it does not answer", plan: func(o *securedOrders) planner.Node {
			o.mask.Input = o.scan
			return o.countFromFiles(o.mask)
		}},
		{name: "a count from the files of a table that cannot count", want: "count from file record counts stands over a plan it does not answer", plan: func(o *securedOrders) planner.Node {
			o.barrier.Proven = true
			n := o.countFromFiles(o.mask)
			o.scan.Table = o.scan.Table.(*countingTable).statsTable
			return n
		}},

		{name: "a node kind the check does not know", want: "does not know", plan: func(o *securedOrders) planner.Node {
			return o.selectOver(opaqueNode{o.mask})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := tt.plan(newSecuredOrders())
			err := planner.CheckPlan(plan)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("sound plan refused: %v\n%s", err, planner.Explain(plan))
				}
				return
			}
			var pe *pgerror.Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want an XX000 error with %q\n%s", err, tt.want, planner.Explain(plan))
			}
			if pe.Code != pgerror.InternalError || !strings.Contains(pe.Message, tt.want) {
				t.Errorf("got %s %q, want XX000 with %q", pe.Code, pe.Message, tt.want)
			}
			for _, value := range []string{"1-URGENT", "2-HIGH"} {
				if strings.Contains(pe.Message, value) {
					t.Errorf("message %q shows a value", pe.Message)
				}
			}
		})
	}
}

// dmlOver is an UPDATE's Matches over orders as a DML target with the
// masked o_orderpriority: the masking projection passes the stored
// values through, and the top projection reads the stored
// o_orderpriority, into the new row image (a write-back column) or not.
func dmlOver(o *securedOrders, intoImage bool) planner.Node {
	rowID := planner.Column{ID: 5, Name: "?row?", Type: types.Int8}
	w := &planner.WorkTable{Name: "orders", Cols: []planner.Column{o.key, o.date, o.prio, rowID}}
	barrier := &planner.Filter{Input: w, Pred: o.policy, Barrier: true}
	mask := &planner.Project{Input: barrier, Masking: true}
	for _, c := range w.Cols {
		mask.Exprs = append(mask.Exprs, ref(c))
		mask.Cols = append(mask.Cols, c)
	}
	mask.Exprs = append(mask.Exprs, &planner.Func{Name: "upper", Args: []planner.Expr{ref(o.prio)}, Typ: types.Text})
	mask.Cols = append(mask.Cols, o.masked)
	image := planner.Column{ID: 12, Name: "o_orderpriority", Type: types.Text}
	w.Guard = &planner.Guard{Policy: o.policy, Hidden: []planner.ColumnID{o.prio.ID}}
	if intoImage {
		w.Guard.WriteBack = []planner.ColumnID{image.ID}
	}
	return &planner.Project{Input: mask, Exprs: []planner.Expr{ref(rowID), ref(o.prio)},
		Cols: []planner.Column{{ID: 11, Name: "?row?", Type: types.Int8}, image}}
}
