package planner

import (
	"fmt"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// CheckPlan verifies, on a plan about to run, that gate two is where the
// binder put it (secureRelation) and that no rule moved anything past it.
// For every guarded leaf (a secured Scan, or the WorkTable of a DML
// target), through every subquery plan:
//
//   - its barrier filter is above it, holding the row filters' predicate
//     alone, with only filters between; and its masking projection is
//     above the barrier, with only filters between;
//   - nothing that is not leakproof is evaluated below the barrier: not
//     in a filter between, nor among the predicates the scan prunes by
//     (Scan.Pushed);
//   - the stored value of a hidden column is read only by the barrier,
//     the masking projection (and a conjunct of the barrier pushed into
//     the scan), or into the columns carrying a DML statement's new row
//     images: never by a user expression, nor returned.
//
// A count answered from the files' record counts (RowCount), which does
// not run its input, must stand over a whole table's count under no row
// filter or one its files proved true for every row.
//
// A node kind it does not know fails the check. A plan that fails it
// cannot come from a correct binder and optimizer, so the error is an
// internal one (XX000), which the client sees with a request id and the
// log with this message; the message names tables and columns, never a
// value.
func CheckPlan(root Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = planError("the plan holds what the check cannot read: %v", r)
		}
	}()
	c := &planCheck{hidden: map[ColumnID]*hiddenColumn{}, writeBack: map[ColumnID]bool{}}
	trees := []Node{root}
	// A subquery plan found in a tree is appended, and checked in turn.
	for i := 0; i < len(trees); i++ {
		if err := c.checkGates(trees[i], nil, &trees); err != nil {
			return err
		}
	}
	for _, t := range trees {
		if err := c.checkReads(t); err != nil {
			return err
		}
	}
	return nil
}

// planCheck is what CheckPlan learns about a plan's secured relations.
type planCheck struct {
	hidden map[ColumnID]*hiddenColumn
	// writeBack are the columns that may be computed from hidden ones.
	writeBack map[ColumnID]bool
}

// hiddenColumn is a leaf column whose stored value the caller may not
// see, and the nodes that may read it.
type hiddenColumn struct {
	relation, name string
	readers        map[Node]bool
}

func planError(format string, args ...any) error {
	return pgerror.New(pgerror.InternalError, "plan check: "+format, args...)
}

// checkGates walks the tree under n (above are n's ancestors, nearest
// last), checks the gates over every guarded leaf, and adds the plans of
// the subqueries its expressions hold to trees.
func (c *planCheck) checkGates(n Node, above []Node, trees *[]Node) error {
	exprs, ok := nodeExprs(n)
	if !ok {
		return planError("the plan holds a node the check does not know (%T)", n)
	}
	for _, e := range exprs {
		anyExpr(e, func(x Expr) bool {
			if sq, ok := x.(*Subquery); ok {
				*trees = append(*trees, sq.Plan)
			}
			return false
		})
	}
	switch x := n.(type) {
	case *Scan:
		if x.Guard != nil {
			if err := c.checkLeaf(x.Guard, "table "+qualifiedName(x.Table.QualifiedName()), x.Cols, x.Pushed, above); err != nil {
				return err
			}
		}
	case *RowCount:
		// It answers from the files' record counts without running its
		// input: only for a whole table's count, under no row filter or
		// one the files proved true for every row. Its input's gates are
		// checked below as any plan's.
		if _, _, ok := x.Source(); !ok {
			return planError("a count from file record counts stands over a plan it does not answer")
		}
	case *WorkTable:
		if x.Guard != nil {
			if err := c.checkLeaf(x.Guard, "target "+x.Name, x.Cols, nil, above); err != nil {
				return err
			}
		}
	}
	above = append(above, n)
	for _, in := range n.Inputs() {
		if err := c.checkGates(in, above, trees); err != nil {
			return err
		}
	}
	return nil
}

// checkLeaf checks the gates over a guarded leaf with columns cols and
// pruning predicates pushed, and records who may read its hidden columns.
func (c *planCheck) checkLeaf(g *Guard, relation string, cols []Column, pushed []Expr, above []Node) error {
	i := len(above) - 1
	var barrier *Filter
	if g.Policy != nil {
		for ; i >= 0; i-- {
			f, ok := above[i].(*Filter)
			if !ok {
				break
			}
			if f.Barrier {
				barrier = f
				i--
				break
			}
			if !f.Pred.Leakproof() {
				return planError("an expression that is not leakproof is evaluated below the barrier filter of %s", relation)
			}
		}
		if barrier == nil {
			return planError("the %s lost its barrier filter", relation)
		}
		if barrier.Pred.String() != g.Policy.String() {
			return planError("the barrier filter of %s holds more than its row filters", relation)
		}
		for _, p := range pushed {
			if !p.Leakproof() {
				return planError("an expression that is not leakproof prunes the scan of %s, below its barrier filter", relation)
			}
		}
	}
	var mask *Project
	if len(g.Hidden) > 0 {
		for ; i >= 0; i-- {
			if p, ok := above[i].(*Project); ok && p.Masking {
				mask = p
				break
			}
			if _, ok := above[i].(*Filter); !ok {
				break
			}
		}
		if mask == nil {
			return planError("the %s lost its masking projection", relation)
		}
	}
	hidden := map[ColumnID]bool{}
	for _, id := range g.Hidden {
		hidden[id] = true
		h := c.hidden[id]
		if h == nil {
			h = &hiddenColumn{relation: relation, name: columnName(cols, id), readers: map[Node]bool{}}
			c.hidden[id] = h
		}
		h.readers[mask] = true
		if barrier != nil {
			h.readers[barrier] = true
		}
	}
	for _, id := range g.WriteBack {
		c.writeBack[id] = true
	}
	for _, p := range pushed {
		if readsAny(p, hidden) && !holdsConjunct(g.Policy, p) {
			return planError("the scan of %s prunes by the stored value of a hidden column", relation)
		}
	}
	return nil
}

// checkReads checks that no node of tree reads a hidden column's stored
// value but those that may, and that tree does not return one.
func (c *planCheck) checkReads(tree Node) error {
	for _, col := range tree.Columns() {
		if h := c.hidden[col.ID]; h != nil {
			return planError("the plan returns the stored value of hidden column %s of %s", h.name, h.relation)
		}
	}
	var err error
	walk(tree, func(n Node) {
		if err != nil {
			return
		}
		reads := map[ColumnID]bool{}
		exprs, _ := nodeExprs(n)
		for _, e := range exprs {
			ExprColumns(e, reads)
		}
		switch x := n.(type) {
		case *Append, *SetOp, *RecursiveUnion:
			// They read their inputs' rows whole, by position.
			for _, in := range n.Inputs() {
				for _, col := range in.Columns() {
					reads[col.ID] = true
				}
			}
		case *CTE:
			// It keeps its query's rows whole, for its references.
			for _, col := range x.Def.Columns() {
				reads[col.ID] = true
			}
		case *CTEScan:
			for _, id := range x.Source {
				reads[id] = true
			}
		}
		for id := range reads {
			h := c.hidden[id]
			if h == nil || h.readers[n] || c.computesWriteBack(n, id) {
				continue
			}
			err = planError("the stored value of hidden column %s of %s is read outside its mask (%s)", h.name, h.relation, nodeKind(n))
			return
		}
	})
	return err
}

// computesWriteBack reports whether n is a projection whose expressions
// read the hidden column id only to compute write-back columns.
func (c *planCheck) computesWriteBack(n Node, id ColumnID) bool {
	p, ok := n.(*Project)
	if !ok || p.Masking {
		return false
	}
	for i, e := range p.Exprs {
		if exprRefs(e)[id] && !c.writeBack[p.Cols[i].ID] {
			return false
		}
	}
	return true
}

// readsAny reports whether e reads a column of set.
func readsAny(e Expr, set map[ColumnID]bool) bool {
	for id := range exprRefs(e) {
		if set[id] {
			return true
		}
	}
	return false
}

// holdsConjunct reports whether p is one of pred's conjuncts; false for a
// nil pred.
func holdsConjunct(pred, p Expr) bool {
	if pred == nil {
		return false
	}
	for _, c := range SplitConjuncts(pred) {
		if c.String() == p.String() {
			return true
		}
	}
	return false
}

func columnName(cols []Column, id ColumnID) string {
	for _, c := range cols {
		if c.ID == id {
			return fmt.Sprintf("%q", c.Name)
		}
	}
	return fmt.Sprintf("#%d", id)
}

func qualifiedName(n TableName) string {
	var parts []string
	for _, p := range []string{n.Catalog, n.Schema, n.Name} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

// nodeKind names n's kind in a message: Filter, Project...
func nodeKind(n Node) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", n), "*planner.")
}
