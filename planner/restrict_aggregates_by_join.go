package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// restrictAggregatesByJoin narrows the input of a grouped aggregate that
// an inner join, or a left join keeping the other side, equates on a
// group key with a column of a small filtered input on the other side:
// only the groups whose key that input holds can be joined, so the
// aggregate reads only their rows, through a semi join with that input.
//
// A correlated scalar subquery over a large table, run as a join with
// the aggregate grouped by its correlation (TPC-H Q17's average quantity
// per part, Q2's least cost per part, Q20's sum per part and supplier),
// otherwise aggregates every group of the large table, 200,000 parts in
// Q17, where the query asks about the 200 parts its filters keep.
//
// The answer does not change: a group the semi join drops has a key no
// row of the other side holds (its rows' keys come from that input, or
// are NULL from an outer join, which equals nothing), and the groups kept
// keep all their rows. The input is a whole leaf of the other side's
// joins, barrier filters and masks included, evaluated a second time, so
// it must give the same rows twice: no volatile function.
func restrictAggregatesByJoin(n Node) Node {
	n = mapInputs(n, restrictAggregatesByJoin)
	j, ok := n.(*Join)
	if !ok || j.On == nil || j.Kind != InnerJoin && j.Kind != LeftJoin {
		return n
	}
	if a := restrictAggregate(j.Right, j.Left, j.On); a != nil {
		c := *j
		c.Right = a
		return &c
	}
	if j.Kind == InnerJoin {
		if a := restrictAggregate(j.Left, j.Right, j.On); a != nil {
			c := *j
			c.Left = a
			return &c
		}
	}
	return n
}

// The restricting input must be estimated restrictRowsRatio times fewer
// rows than the aggregate's input (the groups kept are then few), and
// costing restrictCostRatio times less (it is computed a second time:
// Q2's parts filtered by a LIKE cost more to read again than the 160,000
// rows they would spare the aggregate).
const (
	restrictRowsRatio = 4
	restrictCostRatio = 4
)

// restrictAggregate is g, when it is a grouped aggregate, with its input
// semi-joined to the input of other that on equates with one of its
// group keys; nil when none qualifies.
func restrictAggregate(g, other Node, on Expr) Node {
	a, ok := g.(*Aggregate)
	if !ok || a.Sets != nil || len(a.Groups) == 0 {
		return nil
	}
	in := estimatePlan(a.Input, map[Node]planEstimate{})
	eq, _ := functions.LookupOperator("=")
	for _, c := range SplitConjuncts(on) {
		b, ok := c.(*BinOp)
		if !ok || b.Op.Name != "=" {
			continue
		}
		l, okL := b.L.(*ColRef)
		r, okR := b.R.(*ColRef)
		if !okL || !okR {
			continue
		}
		for _, pair := range [][2]*ColRef{{l, r}, {r, l}} {
			key := groupKeyColumn(a, pair[0].ID)
			if key == nil || !arrow.TypeEqual(key.Typ.Arrow(), pair[1].Typ.Arrow()) {
				continue
			}
			leaf := producingInput(other, pair[1].ID)
			if leaf == nil || volatileIn(leaf) {
				continue
			}
			est := estimatePlan(leaf, map[Node]planEstimate{})
			if est.rows >= baseRows(leaf) || est.rows*restrictRowsRatio > in.rows || est.total*restrictCostRatio > in.total {
				continue
			}
			semi := &Join{Left: a.Input, Right: leaf, Kind: SemiJoin,
				On: &BinOp{Op: eq, L: key, R: pair[1], Typ: types.Bool}}
			out := *a
			out.Input = semi
			return &out
		}
	}
	return nil
}

// groupKeyColumn is the input column a's group output id is, when that
// group is a plain column.
func groupKeyColumn(a *Aggregate, id ColumnID) *ColRef {
	for i, c := range a.GroupCols {
		if c.ID == id {
			ref, _ := a.Groups[i].(*ColRef)
			return ref
		}
	}
	return nil
}

// producingInput is the input of n's joins (a node that is no join, or a
// semi or anti join, whole: its right side only narrows its left) that
// outputs column id; nil when none does.
func producingInput(n Node, id ColumnID) Node {
	for {
		j, ok := n.(*Join)
		if !ok || j.Kind.Existence() {
			if columnSet(n.Columns())[id] {
				return n
			}
			return nil
		}
		if columnSet(j.Left.Columns())[id] {
			n = j.Left
		} else {
			n = j.Right
		}
	}
}

// volatileIn reports whether some expression of n's plan calls a
// volatile function.
func volatileIn(n Node) bool {
	found := false
	walk(n, func(m Node) {
		exprs, _ := nodeExprs(m)
		for _, e := range exprs {
			found = found || anyExpr(e, func(e Expr) bool {
				f, ok := e.(*Func)
				return ok && volatileFunc(f.Name)
			})
		}
	})
	return found
}
