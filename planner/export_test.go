package planner

import (
	"fmt"
	"strings"
)

// Batches are the optimizer's rule batches, serial, for the tests of
// package planner_test.
func Batches() []Batch { return batches(ParallelOptions{}) }

// DumpTree renders n for comparing trees: Explain's text with each scan's
// unread columns, and the plan of every subquery used as an expression.
func DumpTree(n Node) string {
	var b strings.Builder
	explain(&b, n, 0, func(n Node) string {
		var note strings.Builder
		if s, ok := n.(*Scan); ok && s.Unread != nil {
			fmt.Fprintf(&note, " unread=%v", s.Unread)
		}
		exprs, _ := nodeExprs(n)
		for _, e := range exprs {
			anyExpr(e, func(x Expr) bool {
				if sq, ok := x.(*Subquery); ok {
					fmt.Fprintf(&note, " [subquery:\n%s]", DumpTree(sq.Plan))
				}
				return false
			})
		}
		return note.String()
	})
	return b.String()
}

// RowCounts are the RowCount nodes of the tree under n and of the plans
// of the subqueries its expressions hold.
func RowCounts(n Node) []*RowCount {
	var out []*RowCount
	walk(n, func(m Node) {
		if r, ok := m.(*RowCount); ok {
			out = append(out, r)
		}
		exprs, _ := nodeExprs(m)
		for _, e := range exprs {
			anyExpr(e, func(x Expr) bool {
				if sq, ok := x.(*Subquery); ok {
					out = append(out, RowCounts(sq.Plan)...)
				}
				return false
			})
		}
	})
	return out
}
