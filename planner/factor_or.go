package planner

import (
	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// factorOrConjuncts takes the conjuncts every branch of an OR shares out
// of it, in filters and join conditions:
//
//	(a.k = b.k AND a.x = 1) OR (a.k = b.k AND a.x = 2)
//
// becomes a.k = b.k AND (a.x = 1 OR a.x = 2), whose equality the join
// rules can then use as a hash key instead of pairing every row with
// every row. AND distributes over OR in SQL's three-valued logic as in
// two-valued logic, so the result is the same for every row, NULLs
// included; and (A) OR (A AND B) is A. A barrier filter is left as the
// policy wrote it.
func factorOrConjuncts(n Node) Node {
	n = mapInputs(n, factorOrConjuncts)
	switch x := n.(type) {
	case *Filter:
		if x.Barrier {
			return n
		}
		if p, changed := factorConjuncts(x.Pred); changed {
			c := *x
			c.Pred = p
			return &c
		}
	case *Join:
		if x.On == nil {
			return n
		}
		if on, changed := factorConjuncts(x.On); changed {
			c := *x
			c.On = on
			return &c
		}
	}
	return n
}

// factorConjuncts factors each OR among e's conjuncts.
func factorConjuncts(e Expr) (Expr, bool) {
	var out []Expr
	changed := false
	for _, c := range SplitConjuncts(e) {
		f, ok := factorOr(c)
		changed = changed || ok
		out = append(out, f...)
	}
	if !changed {
		return e, false
	}
	return AndAll(out), true
}

// factorOr is e as conjuncts with the conjuncts shared by all of its
// OR branches taken out; ok is false when e is no OR or they share none.
func factorOr(e Expr) (conjs []Expr, ok bool) {
	branches := splitDisjuncts(e)
	if len(branches) < 2 {
		return []Expr{e}, false
	}
	parts := make([][]Expr, len(branches))
	for i, b := range branches {
		parts[i] = SplitConjuncts(b)
	}
	var common []Expr
	for _, c := range parts[0] {
		if holdsExpr(common, c) {
			continue
		}
		shared := true
		for _, p := range parts[1:] {
			if !holdsExpr(p, c) {
				shared = false
				break
			}
		}
		if shared {
			common = append(common, c)
		}
	}
	if len(common) == 0 {
		return []Expr{e}, false
	}
	or, _ := functions.LookupOperator("OR")
	var rest Expr
	for _, p := range parts {
		var own []Expr
		for _, c := range p {
			if !holdsExpr(common, c) {
				own = append(own, c)
			}
		}
		if len(own) == 0 {
			// This branch is the common part alone: the OR adds nothing.
			return common, true
		}
		if rest == nil {
			rest = AndAll(own)
		} else {
			rest = &BinOp{Op: or, L: rest, R: AndAll(own), Typ: types.Bool}
		}
	}
	return append(common, rest), true
}

// splitDisjuncts flattens a tree of ORs into its branches.
func splitDisjuncts(e Expr) []Expr {
	if b, ok := e.(*BinOp); ok && b.Op.Name == "OR" {
		return append(splitDisjuncts(b.L), splitDisjuncts(b.R)...)
	}
	return []Expr{e}
}

// holdsExpr reports whether list has an expression SameExpr to e.
func holdsExpr(list []Expr, e Expr) bool {
	for _, x := range list {
		if SameExpr(x, e) {
			return true
		}
	}
	return false
}
