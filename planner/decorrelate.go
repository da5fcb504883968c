package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// decorrelateSubqueries turns a correlated EXISTS, NOT EXISTS, IN or NOT
// IN subquery that is a conjunct of a filter into a semi or anti join of
// the filter's input with the subquery's rows. Run per outer row, such a
// subquery reads its tables once per distinct correlation value; as a
// join it reads them once, hashed on the correlation:
//
//	SELECT ... FROM o WHERE EXISTS (SELECT * FROM i WHERE i.k = o.k AND i.a > 0 AND i.b <> o.b)
//
// becomes a semi join of o with (i filtered by i.a > 0) on i.k = o.k, the
// hash key, and i.b <> o.b, evaluated on each key match.
//
// The conjuncts the rule moves are those of the subquery's top filters
// (through inner joins, and the preserved side of others) that read the
// enclosing row; they are where the subquery meets its enclosing query.
// A subquery is left to run per row when the enclosing row is read
// anywhere else (below an aggregate or a limit, in its select list), when
// it reads a query further out, or when no moved conjunct is an equality
// between an enclosing and a subquery expression: without a hash key the
// join would pair every row with every row.
//
// In a WHERE clause a NULL condition drops the row as false does, so
// x IN (S) keeps the rows for which some s in S has x = s true: a semi
// join on x = s. x NOT IN (S) is true only when S has no s for which
// x = s is true or NULL (a NULL x, or a NULL s, makes it NULL): an anti
// join on (x = s OR x IS NULL OR s IS NULL) — not on x = s, which would
// keep the rows NOT IN rejects because of NULLs.
func decorrelateSubqueries(n Node) Node {
	return joinSubqueries(n, true)
}

// joinUncorrelatedInSubqueries turns an uncorrelated x IN (S) conjunct of
// a filter into a semi join on x = s, as PostgreSQL pulls such sublinks
// up: S still runs once, and the join order and estimates see S's rows
// (and its filters) instead of a guess for the whole condition. It runs
// after the filters have moved down to the join inputs they read, so the
// semi join narrows that input (Q18's orders) before it is joined.
func joinUncorrelatedInSubqueries(n Node) Node {
	return joinSubqueries(n, false)
}

// joinSubqueries turns the correlated (or the uncorrelated IN) subquery
// conjuncts of n's filters into semi and anti joins.
func joinSubqueries(n Node, correlated bool) Node {
	n = mapInputs(n, func(n Node) Node { return joinSubqueries(n, correlated) })
	f, ok := n.(*Filter)
	if !ok || f.Barrier {
		return n
	}
	input := f.Input
	var kept []Expr
	for _, c := range SplitConjuncts(f.Pred) {
		if j := existenceJoin(input, c, correlated); j != nil {
			input = j
			continue
		}
		kept = append(kept, c)
	}
	if input == f.Input {
		return n
	}
	return filterOver(input, kept)
}

// existenceJoin is left joined with the subquery conjunct c tests, or nil
// when c is not a subquery test the rule handles: a correlated one, or
// (correlated false) an uncorrelated IN. An uncorrelated EXISTS is one
// value for every row, and an uncorrelated NOT IN has no hash key (see
// nullAwareMatch): both stay as they are, evaluated once.
func existenceJoin(left Node, c Expr, correlated bool) *Join {
	negated := false
	if x, ok := c.(*Not); ok {
		c, negated = x.Arg, true
	}
	sq, ok := c.(*Subquery)
	if !ok || (sq.Kind != ExistsSubquery && sq.Kind != InSubquery) {
		return nil
	}
	if correlated != (len(sq.Outer) > 0) || !correlated && (sq.Kind != InSubquery || negated) {
		return nil
	}
	leftCols := columnSet(left.Columns())
	outer := make(map[ColumnID]bool, len(sq.Outer))
	for _, oc := range sq.Outer {
		if !leftCols[oc.ID] {
			return nil // it reads a query further out
		}
		outer[oc.ID] = true
	}
	core, outs := peelProjections(sq.Plan)
	core, pulled := pullCorrelated(core, outer)
	if len(outer) > 0 && (len(pulled) == 0 || mentionsOuter(core, outer)) {
		return nil
	}
	on := make([]Expr, 0, len(pulled)+1)
	for _, p := range pulled {
		on = append(on, outerAsColumns(p, outer))
	}
	if sq.Kind == InSubquery {
		if negated && len(sq.Args) != 1 {
			// A row NOT IN is NULL when any field pair is: no anti join
			// condition says that; the per-row path keeps it.
			return nil
		}
		eq, _ := functions.LookupOperator("=")
		for i, arg := range sq.Args {
			match := Expr(&BinOp{Op: eq, L: arg, R: outerAsColumns(outs[i], outer), Typ: types.Bool})
			if negated {
				match = nullAwareMatch(match.(*BinOp))
			}
			on = append(on, match)
		}
	}
	if !hasHashKey(on, leftCols, columnSet(core.Columns())) {
		return nil
	}
	kind := SemiJoin
	if negated {
		kind = AntiJoin
	}
	return &Join{Left: left, Right: core, Kind: kind, On: AndAll(on)}
}

// peelProjections strips the projections (the select list) and sorts on
// top of a subquery's plan: an existence test needs neither, and IN's
// compared value is an expression over what is below. outs are n's output
// columns as expressions over core's columns.
func peelProjections(n Node) (core Node, outs []Expr) {
	for _, c := range n.Columns() {
		outs = append(outs, &ColRef{ID: c.ID, Name: c.Name, Typ: c.Type})
	}
	for {
		switch x := n.(type) {
		case *Project:
			if x.Masking {
				return n, outs
			}
			def := make(map[ColumnID]Expr, len(x.Cols))
			for i, c := range x.Cols {
				def[c.ID] = x.Exprs[i]
			}
			for i := range outs {
				outs[i] = mapExpr(outs[i], func(e Expr) Expr {
					if r, ok := e.(*ColRef); ok && def[r.ID] != nil {
						return def[r.ID]
					}
					return e
				})
			}
			n = x.Input
		case *Sort:
			n = x.Input
		default:
			return n, outs
		}
	}
}

// pullCorrelated removes from n's top filters and join conditions the
// conjuncts that read outer, and returns them. It goes through filters
// and inner joins, and into the left side of left, semi and anti joins,
// where a conjunct reading that side's rows means the same above the
// join; it stops at anything else (a barrier, projection, aggregate,
// limit...), whose rows a conjunct from above cannot filter the same.
func pullCorrelated(n Node, outer map[ColumnID]bool) (Node, []Expr) {
	split := func(conjs []Expr) (keep, pulled []Expr) {
		for _, c := range conjs {
			if readsOuter(c, outer) {
				pulled = append(pulled, c)
			} else {
				keep = append(keep, c)
			}
		}
		return keep, pulled
	}
	switch x := n.(type) {
	case *Filter:
		if x.Barrier {
			return n, nil
		}
		in, pulled := pullCorrelated(x.Input, outer)
		keep, own := split(SplitConjuncts(x.Pred))
		if len(own) == 0 && in == x.Input {
			return n, pulled
		}
		return filterOver(in, keep), append(pulled, own...)
	case *Join:
		switch x.Kind {
		case InnerJoin:
			l, pl := pullCorrelated(x.Left, outer)
			r, pr := pullCorrelated(x.Right, outer)
			keep, own := split(conjunctsOf(x.On))
			pulled := append(append(pl, pr...), own...)
			if len(pulled) == 0 {
				return n, nil
			}
			return &Join{Left: l, Right: r, Kind: InnerJoin, On: AndAll(keep)}, pulled
		case LeftJoin, SemiJoin, AntiJoin:
			l, pulled := pullCorrelated(x.Left, outer)
			if len(pulled) == 0 {
				return n, nil
			}
			return &Join{Left: l, Right: x.Right, Kind: x.Kind, On: x.On}, pulled
		}
	}
	return n, nil
}

// readsOuter reports whether e reads one of the outer columns, itself or
// through a subquery of its own.
func readsOuter(e Expr, outer map[ColumnID]bool) bool {
	return anyExpr(e, func(x Expr) bool {
		switch y := x.(type) {
		case *OuterRef:
			return outer[y.ID]
		case *Subquery:
			for _, c := range y.Outer {
				if outer[c.ID] {
					return true
				}
			}
		}
		return false
	})
}

// mentionsOuter reports whether any node of n reads one of the outer
// columns, or is of a kind whose expressions are not known.
func mentionsOuter(n Node, outer map[ColumnID]bool) bool {
	found := false
	walk(n, func(n Node) {
		exprs, ok := nodeExprs(n)
		if !ok {
			found = true
			return
		}
		for _, e := range exprs {
			if readsOuter(e, outer) {
				found = true
			}
		}
	})
	return found
}

// outerAsColumns rewrites e's references to the outer columns as
// references to the join's left columns, which they are once the
// subquery is joined. A nested subquery keeps its own OuterRefs: it is
// handed the values of its Outer columns from the row it is evaluated on.
func outerAsColumns(e Expr, outer map[ColumnID]bool) Expr {
	return mapExpr(e, func(x Expr) Expr {
		if r, ok := x.(*OuterRef); ok && outer[r.ID] {
			return &ColRef{ID: r.ID, Name: r.Name, Typ: r.Typ}
		}
		return x
	})
}

// nullAwareMatch is eq OR l IS NULL OR r IS NULL for eq = (l = r): true
// exactly when eq is true or NULL, the pairs that make NOT IN not true.
func nullAwareMatch(eq *BinOp) Expr {
	or, _ := functions.LookupOperator("OR")
	e := &BinOp{Op: or, L: eq, R: &IsNull{Arg: eq.L}, Typ: types.Bool}
	return &BinOp{Op: or, L: e, R: &IsNull{Arg: eq.R}, Typ: types.Bool}
}

// hasHashKey reports whether some conjunct is an equality usable as a
// hash key of a join of left and right: one side reads left columns
// only, the other right columns only, both of the same Arrow type (the
// test exec's join applies).
func hasHashKey(conjs []Expr, left, right map[ColumnID]bool) bool {
	reads := func(e Expr, set map[ColumnID]bool) bool {
		refs := exprRefs(e)
		return len(refs) > 0 && within(refs, set)
	}
	for _, c := range conjs {
		b, ok := c.(*BinOp)
		if !ok || b.Op.Name != "=" || !arrow.TypeEqual(b.L.Type().Arrow(), b.R.Type().Arrow()) {
			continue
		}
		if reads(b.L, left) && reads(b.R, right) || reads(b.L, right) && reads(b.R, left) {
			return true
		}
	}
	return false
}
