package planner

import (
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// extractOrRestrictions adds, beside an OR that reads several inputs of
// an inner join tree, the restriction it implies on each input, as
// PostgreSQL does (extract_restriction_or_clauses):
//
//	(n1.name = 'FRANCE' AND n2.name = 'GERMANY') OR (n1.name = 'GERMANY' AND n2.name = 'FRANCE')
//
// implies n1.name = 'FRANCE' OR n1.name = 'GERMANY', and the same of n2.
// The OR stays; the implied conjuncts are only extra filters, which the
// join rules then push to their input (TPC-H Q7's nations, Q19's parts
// and line quantities) so the inputs are filtered before the joins. A
// row the OR keeps satisfies some branch, hence that branch's conjuncts
// on each input: adding their OR changes no answer. An input is
// restricted only when every branch has a conjunct reading it alone.
//
// Filters and ON conditions of inner joins only: a barrier filter is the
// policy as written, and an outer join's condition does not filter.
func extractOrRestrictions(n Node) Node {
	n = mapInputs(n, extractOrRestrictions)
	switch x := n.(type) {
	case *Filter:
		if x.Barrier || !isInnerJoinTree(x.Input) {
			return n
		}
		if p, changed := withOrRestrictions(x.Pred, joinInputColumns(x.Input)); changed {
			c := *x
			c.Pred = p
			return &c
		}
	case *Join:
		if x.Kind != InnerJoin || x.On == nil {
			return n
		}
		if on, changed := withOrRestrictions(x.On, joinInputColumns(x)); changed {
			c := *x
			c.On = on
			return &c
		}
	}
	return n
}

// joinInputColumns are the column sets of the inputs (leaves) of the
// inner join tree n.
func joinInputColumns(n Node) []map[ColumnID]bool {
	var leaves []Node
	collectJoinLeaves(n, &leaves)
	out := make([]map[ColumnID]bool, len(leaves))
	for i, l := range leaves {
		out[i] = columnSet(l.Columns())
	}
	return out
}

func collectJoinLeaves(n Node, leaves *[]Node) {
	if isInnerJoinTree(n) {
		for _, in := range n.Inputs() {
			collectJoinLeaves(in, leaves)
		}
		return
	}
	*leaves = append(*leaves, n)
}

// withOrRestrictions is e with the restrictions its ORs imply on each of
// inputs added as conjuncts.
func withOrRestrictions(e Expr, inputs []map[ColumnID]bool) (Expr, bool) {
	conjs := SplitConjuncts(e)
	out := append([]Expr(nil), conjs...)
	for _, c := range conjs {
		branches := splitDisjuncts(c)
		if len(branches) < 2 {
			continue
		}
		for _, cols := range inputs {
			if r := orRestriction(branches, cols); r != nil && !holdsExpr(out, r) {
				out = append(out, r)
			}
		}
	}
	if len(out) == len(conjs) {
		return e, false
	}
	return AndAll(out), true
}

// orRestriction is the OR over branches of each branch's conjuncts that
// read only cols; nil when some branch has none, or when every conjunct
// of every branch does (the OR reads that input alone already).
func orRestriction(branches []Expr, cols map[ColumnID]bool) Expr {
	or, _ := functions.LookupOperator("OR")
	var out Expr
	whole := true
	for _, b := range branches {
		var own []Expr
		parts := SplitConjuncts(b)
		for _, p := range parts {
			if refs := exprRefs(p); len(refs) > 0 && within(refs, cols) && !hasSubquery(p) {
				own = append(own, p)
			}
		}
		if len(own) == 0 {
			return nil
		}
		whole = whole && len(own) == len(parts)
		if out == nil {
			out = AndAll(own)
		} else {
			out = &BinOp{Op: or, L: out, R: AndAll(own), Typ: types.Bool}
		}
	}
	if whole {
		return nil
	}
	return out
}

// hasSubquery reports whether e runs a subquery, which is left where the
// query wrote it.
func hasSubquery(e Expr) bool {
	return anyExpr(e, func(e Expr) bool {
		switch e.(type) {
		case *Subquery, *OuterRef:
			return true
		}
		return false
	})
}
