package planner

import (
	"fmt"
	"strings"
)

// ExplainWith prints the plan as Explain does, each node's line followed
// by its cost estimate (when costs is set, as ExplainWithCosts) and then
// note(n): EXPLAIN ANALYZE's measured rows and times.
func ExplainWith(n Node, costs bool, note func(Node) string) string {
	est := map[Node]planEstimate{}
	if costs {
		estimatePlan(n, est)
	}
	var b strings.Builder
	explain(&b, n, 0, func(m Node) string {
		out := ""
		if costs {
			e := est[m]
			out = fmt.Sprintf("  (cost=%.2f..%.2f rows=%.0f width=%d)", e.startup, e.total, e.rows, rowWidth(m.Columns()))
		}
		if note != nil {
			out += note(m)
		}
		return out
	})
	return b.String()
}
