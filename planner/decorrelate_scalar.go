package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
)

// decorrelateScalarSubqueries turns a correlated scalar subquery whose
// body is an aggregate without GROUP BY, over rows the enclosing row
// selects by equalities, into a left join of the enclosing rows with the
// subquery's aggregate grouped by the correlated columns. Run per outer
// row, such a subquery reads its tables once per distinct correlation
// value; as a join it reads them once:
//
//	SELECT ... FROM o WHERE o.q < (SELECT 0.2 * avg(i.q) FROM i WHERE i.k = o.k AND i.a > 0)
//
// becomes o left joined with (SELECT i.k, avg(i.q) FROM i WHERE i.a > 0
// GROUP BY i.k) on i.k = o.k, filtered by o.q < 0.2 * avg. Each outer
// row matches at most one group, so it is kept once, as the filter (or
// the select list) saw it. An outer row that matches no group (a NULL
// o.k, which equals nothing, or a key no inner row has) gets NULL from
// the left join, which is what sum, avg, min and max give over zero rows;
// count gives 0 there, so a count read in the subquery's result is read
// as COALESCE(count, 0) (a group's count is never NULL). The other
// aggregates are left to run per row.
//
// It applies to the scalar subqueries in a filter's predicate (but not a
// policy's barrier filter) and in a select list (but not a masking
// projection), and only when:
//
//   - the subquery's plan is projections over the aggregate, with no
//     HAVING, LIMIT, ORDER BY, DISTINCT, window or set operation between:
//     with a HAVING an empty group yields no row at all, not NULL;
//   - the conjuncts reading the enclosing row are found where
//     decorrelateSubqueries finds them (top filters, through inner joins,
//     the preserved side of others, never past a barrier), and each is an
//     equality between a column below the aggregate and a leakproof
//     expression of the enclosing row alone, of a type whose grouping
//     and hash keys equal exactly the values = calls equal (integers,
//     numeric, text, dates, timestamps, booleans; not floats, whose -0 and
//     0 are equal but hash apart): those become the grouping keys and the
//     join's hash keys;
//   - the enclosing row is read nowhere else in the subquery, it reads no
//     query further out, and the aggregates' arguments are leakproof: the
//     join computes every group, also those no outer row asks for, and
//     an argument that could fail there would fail the statement where
//     the per-row plan does not.
//
// Nothing moves below a barrier: the aggregate and the join stand above
// what the subquery's plan already had, barriers included.
func decorrelateScalarSubqueries(root Node) Node {
	return keepColumns(root.Columns(), joinScalarSubqueriesBelow(root))
}

// joinScalarSubqueriesBelow rewrites the filters and projections of the
// tree under n. A rewritten filter returns the joined columns after its
// input's: the nodes above read columns by ID, and the plan's root and
// the inputs of the nodes that read rows by position get their columns
// back (keepColumns), so a projection above does not make every scan
// below read every column it has.
func joinScalarSubqueriesBelow(n Node) Node {
	ins := n.Inputs()
	if len(ins) > 0 {
		out := make([]Node, len(ins))
		for i, in := range ins {
			out[i] = joinScalarSubqueriesBelow(in)
			switch n.(type) {
			case *Append, *SetOp, *RecursiveUnion:
				out[i] = keepColumns(in.Columns(), out[i])
			}
		}
		m, ok := withInputs(n, out)
		if !ok {
			return n // a kind the rule does not know is not half-rewritten
		}
		n = m
	}
	switch x := n.(type) {
	case *Filter:
		if x.Barrier {
			return n
		}
		input, preds := joinScalarSubqueries(x.Input, []Expr{x.Pred})
		if input == x.Input {
			return n
		}
		return &Filter{Input: input, Pred: preds[0]}
	case *Project:
		if x.Masking {
			return n
		}
		input, exprs := joinScalarSubqueries(x.Input, x.Exprs)
		if input == x.Input {
			return n
		}
		c := *x
		c.Input, c.Exprs = input, exprs
		return &c
	}
	return n
}

// keepColumns is n returning cols, which n returns among others: n
// itself when it returns just those, else a projection of them.
func keepColumns(cols []Column, n Node) Node {
	have := n.Columns()
	if len(have) == len(cols) {
		same := true
		for i := range cols {
			same = same && have[i].ID == cols[i].ID
		}
		if same {
			return n
		}
	}
	refs := make([]Expr, len(cols))
	for i, c := range cols {
		refs[i] = &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}
	}
	return &Project{Input: n, Exprs: refs, Cols: cols}
}

// joinScalarSubqueries is input left joined with the grouped aggregate of
// each scalar subquery of exprs the rule handles, and exprs reading the
// joined values in place of those subqueries.
func joinScalarSubqueries(input Node, exprs []Expr) (Node, []Expr) {
	out := make([]Expr, len(exprs))
	// A subquery the binder shares between expressions is joined once:
	// its columns may appear once in a row.
	values := map[*Subquery]Expr{}
	for i, e := range exprs {
		out[i] = mapExpr(e, func(x Expr) Expr {
			sq, ok := x.(*Subquery)
			if !ok {
				return x
			}
			if v, ok := values[sq]; ok {
				return v
			}
			j, value := groupedAggregateJoin(input, sq)
			if j == nil {
				return x
			}
			input, values[sq] = j, value
			return value
		})
	}
	return input, out
}

// groupedAggregateJoin is left joined with sq's aggregate grouped by its
// correlation, and the expression over the joined row that is sq's
// value; nil when sq is not a subquery the rule handles.
func groupedAggregateJoin(left Node, sq *Subquery) (*Join, Expr) {
	if sq.Kind != ScalarSubquery || len(sq.Outer) == 0 || len(sq.OuterFrom) > 0 {
		return nil, nil
	}
	leftCols := columnSet(left.Columns())
	outer := make(map[ColumnID]bool, len(sq.Outer))
	for _, oc := range sq.Outer {
		if !leftCols[oc.ID] {
			return nil, nil // it reads a query further out
		}
		outer[oc.ID] = true
	}
	top, outs := peelProjections(sq.Plan)
	agg, ok := top.(*Aggregate)
	if !ok || len(agg.Groups) > 0 || agg.Sets != nil || len(outs) != 1 ||
		outs[0].Type() != sq.Typ || readsOuter(outs[0], outer) {
		return nil, nil
	}
	counts := map[ColumnID]*AggCall{}
	for _, a := range agg.Aggs {
		switch a.Func.Name {
		case "sum", "avg", "min", "max":
		case "count":
			counts[a.Out.ID] = a
		default:
			return nil, nil
		}
		for _, e := range a.Exprs() {
			if !e.Leakproof() || readsOuter(e, outer) {
				return nil, nil
			}
		}
	}
	core, pulled := pullCorrelated(agg.Input, outer)
	if len(pulled) == 0 || mentionsOuter(core, outer) {
		return nil, nil
	}
	coreCols := core.Columns()
	var groups []Expr
	var groupCols []Column
	grouped := map[ColumnID]bool{}
	on := make([]Expr, 0, len(pulled))
	for _, p := range pulled {
		key, ok := correlationKey(p, coreCols, outer)
		if !ok {
			return nil, nil
		}
		if !grouped[key.ID] {
			grouped[key.ID] = true
			groups = append(groups, key)
			for _, c := range coreCols {
				if c.ID == key.ID {
					// The group keeps the column's ID: the column is the
					// subquery's own, read nowhere above the aggregate but
					// by the join.
					groupCols = append(groupCols, c)
				}
			}
		}
		on = append(on, outerAsColumns(p, outer))
	}
	grouping := &Aggregate{Input: core, Groups: groups, GroupCols: groupCols, Aggs: agg.Aggs}
	for _, c := range grouping.Columns() {
		if leftCols[c.ID] {
			return nil, nil // the plan is joined already: IDs stay unique in a row
		}
	}
	value := mapExpr(outs[0], func(x Expr) Expr {
		r, ok := x.(*ColRef)
		if !ok || counts[r.ID] == nil {
			return x
		}
		// count over the zero rows of a missing group is 0, not NULL.
		return &Case{
			Whens: []When{{Cond: &IsNull{Arg: r}, Result: &Const{Typ: r.Typ, Value: int64(0)}}},
			Else:  r,
			Typ:   r.Typ,
		}
	})
	return &Join{Left: left, Right: grouping, Kind: LeftJoin, On: AndAll(on)}, value
}

// correlationKey is the column of cols that the correlated conjunct p
// equates with a leakproof expression of the outer row alone, when p is
// such an equality of a type whose grouping equals its = (see
// decorrelateScalarSubqueries); ok is false otherwise.
func correlationKey(p Expr, cols []Column, outer map[ColumnID]bool) (_ *ColRef, ok bool) {
	b, isOp := p.(*BinOp)
	if !isOp || b.Op.Name != "=" {
		return nil, false
	}
	inCols := columnSet(cols)
	for _, sides := range [][2]Expr{{b.L, b.R}, {b.R, b.L}} {
		key, isCol := sides[0].(*ColRef)
		other := sides[1]
		if !isCol || !inCols[key.ID] || !groupsAsEqual(key.Typ) ||
			!arrow.TypeEqual(key.Typ.Arrow(), other.Type().Arrow()) {
			continue
		}
		if other.Leakproof() && readsOuter(other, outer) && len(exprRefs(other)) == 0 {
			return key, true
		}
	}
	return nil, false
}

// groupsAsEqual reports a type whose values = calls equal are exactly
// those grouping and hash join keys put together: one encoding per
// value. Not floats (-0 = 0, each encoded apart) nor blank-padded
// character (trailing blanks ignored by =).
func groupsAsEqual(t types.T) bool {
	switch t.OID {
	case types.OIDInt2, types.OIDInt4, types.OIDInt8, types.OIDNumeric, types.OIDText, types.OIDVarchar,
		types.OIDDate, types.OIDTimestamp, types.OIDTimestampTZ, types.OIDBool:
		return true
	}
	return false
}
