package planner

import (
	"fmt"

	"github.com/sqe-db/sqe/sql/functions"
	"github.com/sqe-db/sqe/sql/types"
)

// Helpers the rewrite rules share. Rules build new nodes along the path
// they change instead of editing the tree they were given, so a plan
// that is optimized twice, or shared, never sees a half-applied rule.

// withInputs returns a shallow copy of n reading ins instead of its
// inputs. Leaves (and nodes whose inputs are unchanged) are returned as
// they are, which keeps a WorkTable the same node its RecursiveUnion
// names. ok is false for a node kind it does not know.
func withInputs(n Node, ins []Node) (_ Node, ok bool) {
	old := n.Inputs()
	if len(old) != len(ins) {
		panic(fmt.Sprintf("withInputs: %T has %d inputs, got %d", n, len(old), len(ins)))
	}
	same := true
	for i := range old {
		if old[i] != ins[i] {
			same = false
		}
	}
	if same {
		return n, true
	}
	switch x := n.(type) {
	case *Filter:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Project:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Aggregate:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Sort:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Limit:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Sample:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Window:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *ProjectSet:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *Join:
		c := *x
		c.Left, c.Right = ins[0], ins[1]
		return &c, true
	case *SetOp:
		c := *x
		c.Left, c.Right = ins[0], ins[1]
		return &c, true
	case *Lateral:
		c := *x
		c.Left, c.Right = ins[0], ins[1]
		return &c, true
	case *RecursiveUnion:
		c := *x
		c.Anchor, c.Recursive = ins[0], ins[1]
		return &c, true
	case *Append:
		c := *x
		c.Ins = append([]Node(nil), ins...)
		return &c, true
	case *Gather:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *RowCount:
		c := *x
		c.Input = ins[0]
		return &c, true
	case *CTE:
		c := *x
		c.Def, c.Input = ins[0], ins[1]
		return &c, true
	}
	return n, false
}

// mapInputs applies f to each input of n and returns n over the results.
// A node kind withInputs does not know is left as it is, inputs included:
// a rule must not half-rewrite what it does not understand.
func mapInputs(n Node, f func(Node) Node) Node {
	ins := n.Inputs()
	if len(ins) == 0 {
		return n
	}
	out := make([]Node, len(ins))
	for i, in := range ins {
		out[i] = f(in)
	}
	if m, ok := withInputs(n, out); ok {
		return m
	}
	return n
}

// AndAll joins conjuncts with AND; nil when there are none.
func AndAll(conjs []Expr) Expr {
	if len(conjs) == 0 {
		return nil
	}
	op, _ := functions.LookupOperator("AND")
	e := conjs[0]
	for _, c := range conjs[1:] {
		e = &BinOp{Op: op, L: e, R: c, Typ: types.Bool}
	}
	return e
}

// conjunctsOf is e split at its ANDs; none for a nil e.
func conjunctsOf(e Expr) []Expr {
	if e == nil {
		return nil
	}
	return SplitConjuncts(e)
}

// filterOver is n filtered by conjs, or n itself when there are none.
func filterOver(n Node, conjs []Expr) Node {
	if len(conjs) == 0 {
		return n
	}
	return &Filter{Input: n, Pred: AndAll(conjs)}
}

// columnSet is the set of IDs of cols.
func columnSet(cols []Column) map[ColumnID]bool {
	set := make(map[ColumnID]bool, len(cols))
	for _, c := range cols {
		set[c.ID] = true
	}
	return set
}

// exprRefs is the set of columns e reads.
func exprRefs(e Expr) map[ColumnID]bool {
	set := map[ColumnID]bool{}
	ExprColumns(e, set)
	return set
}

// within reports whether every column of refs is in set.
func within(refs, set map[ColumnID]bool) bool {
	for id := range refs {
		if !set[id] {
			return false
		}
	}
	return true
}
