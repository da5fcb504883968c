package exec_test

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
)

// TestExistenceJoinsHashEitherSide runs every query case with each semi
// and anti join hashing its right input, then its left one
// (planner.Join.HashLeft), then hashing its left one with its right input
// read by 4 workers when that is a scan's pipeline (the workers probe the
// build): the rows, their order aside, and the errors must be the same.
func TestExistenceJoinsHashEitherSide(t *testing.T) {
	flipped, inWorkers := 0, 0
	for _, tc := range allCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			var joins []*planner.Join
			collect := func(root planner.Node) { joins = existenceJoins(root, joins[:0]) }
			_, want, werr := runQueryPlanned(context.Background(), t, newTestTable(t), tc.sql, 1, func(root planner.Node) {
				collect(root)
				setHashLeft(joins, false)
			})
			if len(joins) == 0 {
				return
			}
			flipped++
			_, got, gerr := runQueryPlanned(context.Background(), t, newTestTable(t), tc.sql, 1, func(root planner.Node) {
				collect(root)
				setHashLeft(joins, true)
			})
			if code(werr) != code(gerr) {
				t.Fatalf("line %d: %s\nhashing right: error %v; hashing left: error %v", tc.line, tc.sql, werr, gerr)
			}
			if sortedRows(want) != sortedRows(got) {
				t.Errorf("line %d: %s\nhashing right:\n%s\nhashing left:\n%s", tc.line, tc.sql, strings.Join(want, "\n"), strings.Join(got, "\n"))
			}
			gathered, before := false, runtime.NumGoroutine()
			_, par, perr := runQueryPlanned(context.Background(), t, newTestTable(t), tc.sql, 1, func(root planner.Node) {
				collect(root)
				setHashLeft(joins, true)
				for _, j := range joins {
					if scan := pipelineScan(j.Right); scan != nil {
						j.Right = &planner.Gather{Input: j.Right, Workers: 4, Scan: scan}
						gathered = true
					}
				}
			})
			checkNoLeak(t, before)
			if gathered {
				inWorkers++
			}
			if code(werr) != code(perr) {
				t.Fatalf("line %d: %s\nhashing right: error %v; hashing left in workers: error %v", tc.line, tc.sql, werr, perr)
			}
			if sortedRows(want) != sortedRows(par) {
				t.Errorf("line %d: %s\nhashing right:\n%s\nhashing left in workers:\n%s", tc.line, tc.sql, strings.Join(want, "\n"), strings.Join(par, "\n"))
			}
		})
	}
	t.Logf("%d cases run a semi or anti join hashed on either side, %d probe a left-hashed one in workers", flipped, inWorkers)
	if flipped < 20 || inWorkers < 10 {
		t.Errorf("only %d cases have a semi or anti join with a hash key, %d probe one hashed on the left in workers", flipped, inWorkers)
	}
}

// existenceJoins appends the semi and anti joins of a plan (outside
// subquery expressions) that have a hash key.
func existenceJoins(n planner.Node, out []*planner.Join) []*planner.Join {
	if j, ok := n.(*planner.Join); ok && j.Kind.Existence() && hasEquality(j.On) {
		out = append(out, j)
	}
	for _, in := range n.Inputs() {
		out = existenceJoins(in, out)
	}
	return out
}

// pipelineScan is the scan n reads through filters and projections
// alone (what a Gather's workers may run), nil when there is none.
func pipelineScan(n planner.Node) *planner.Scan {
	for {
		switch x := n.(type) {
		case *planner.Scan:
			return x
		case *planner.Filter:
			n = x.Input
		case *planner.Project:
			n = x.Input
		default:
			return nil
		}
	}
}

func hasEquality(e planner.Expr) bool {
	for _, c := range planner.SplitConjuncts(e) {
		if b, ok := c.(*planner.BinOp); ok && b.Op.Name == "=" {
			return true
		}
	}
	return false
}

// setHashLeft sets the flag on plan nodes built for this run alone.
func setHashLeft(joins []*planner.Join, v bool) {
	for _, j := range joins {
		j.HashLeft = v
	}
}

func sortedRows(rows []string) string {
	s := append([]string(nil), rows...)
	slices.Sort(s)
	return strings.Join(s, "\n")
}
