package planner

// pushFiltersThroughJoins moves each conjunct of a filter (or of a join's
// ON condition) down to the lowest join input that holds every column it
// reads, so rows are dropped before they are paired rather than after.
// SQL's outer-join rules decide what may move:
//
//   - a WHERE conjunct goes below an inner join to the side it reads, and
//     below a LEFT (RIGHT) join only to the preserved left (right) side;
//     on the nullable side it would remove rows the join then pads with
//     NULLs instead, so it stays above;
//   - an ON conjunct goes below an inner join to the side it reads, and
//     below a LEFT (RIGHT) join only to the nullable side, where it
//     narrows the rows that can match; on the preserved side it decides
//     matching, not which rows survive;
//   - nothing moves through a FULL join;
//   - a semi or anti join is a filter on its left side: WHERE conjuncts
//     go below it, and its ON conjuncts on the right side go there.
//
// A barrier filter (a row-level policy) is a wall: conjuncts from above
// stop on top of it and the policy's own predicate stays where it is, so
// no user expression ever sees a row the policy hides. Projections are
// walls too (a masking projection must not have predicates on its masked
// outputs moved below it).
func pushFiltersThroughJoins(root Node) Node { return pushFilters(root, nil) }

// pushFilters is n filtered by conjs, with the conjuncts pushed as far
// down as allowed and every filter below n treated the same way.
func pushFilters(n Node, conjs []Expr) Node {
	switch x := n.(type) {
	case *Filter:
		if !x.Barrier {
			merged := append(append([]Expr(nil), conjunctsOf(x.Pred)...), conjs...)
			return pushFilters(x.Input, merged)
		}
	case *Join:
		j, kept := pushIntoJoin(x, conjs)
		return filterOver(j, kept)
	}
	return filterOver(mapInputs(n, func(in Node) Node { return pushFilters(in, nil) }), conjs)
}

// pushIntoJoin routes the WHERE conjuncts conjs and j's ON conjuncts to
// j's inputs where SQL allows; it returns the new join and the WHERE
// conjuncts that must stay above it.
func pushIntoJoin(j *Join, conjs []Expr) (*Join, []Expr) {
	left, right := columnSet(j.Left.Columns()), columnSet(j.Right.Columns())
	// sideOf is 'l' or 'r' for a conjunct reading columns of one side
	// only, 0 otherwise (both sides, none, or columns of neither).
	sideOf := func(e Expr) byte {
		refs := exprRefs(e)
		switch {
		case len(refs) == 0:
			return 0
		case within(refs, left):
			return 'l'
		case within(refs, right):
			return 'r'
		}
		return 0
	}
	inner := j.Kind == InnerJoin
	// A semi or anti join returns left rows as they are, so a WHERE
	// conjunct above it (which can read only left columns) filters the
	// same below it. In its ON condition, a conjunct on the right rows
	// narrows the candidates as in a LEFT join; one on the left rows only
	// decides existence: false, a semi join drops the row, as a filter
	// below would, while an anti join keeps it.
	exists := j.Kind.Existence()
	var toLeft, toRight, kept, on []Expr
	for _, c := range conjs {
		switch s := sideOf(c); {
		case s == 'l' && (inner || j.Kind == LeftJoin || exists):
			toLeft = append(toLeft, c)
		case s == 'r' && (inner || j.Kind == RightJoin):
			toRight = append(toRight, c)
		default:
			kept = append(kept, c)
		}
	}
	for _, c := range conjunctsOf(j.On) {
		switch s := sideOf(c); {
		case s == 'l' && (inner || j.Kind == RightJoin || j.Kind == SemiJoin):
			toLeft = append(toLeft, c)
		case s == 'r' && (inner || j.Kind == LeftJoin || exists):
			toRight = append(toRight, c)
		default:
			on = append(on, c)
		}
	}
	return &Join{
		Left:  pushFilters(j.Left, toLeft),
		Right: pushFilters(j.Right, toRight),
		Kind:  j.Kind,
		On:    AndAll(on),
	}, kept
}
