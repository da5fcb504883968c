package sql

import (
	"context"
	"fmt"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
)

// explainText renders a plan for EXPLAIN: with PostgreSQL's cost
// annotations on every line, which BI tools parse, unless the statement
// says COSTS OFF.
func explainText(root planner.Node, options []*pg_query.Node) string {
	if explainCosts(options) {
		return planner.ExplainWithCosts(root)
	}
	return planner.Explain(root)
}

// explainCosts reads the COSTS option: on unless given a false value.
func explainCosts(options []*pg_query.Node) bool { return explainOption(options, "costs", true) }

// explainOption reads a boolean EXPLAIN option (ANALYZE, COSTS, TIMING)
// as COPY's options are read (defBoolean, PostgreSQL's defGetBoolean):
// given without a value it is on, absent it is def. runExplain has
// refused values that are not booleans.
func explainOption(options []*pg_query.Node, name string, def bool) bool {
	v := def
	for _, o := range options {
		if d := o.GetDefElem(); d != nil && d.Defname == name {
			if b, err := defBoolean(d); err == nil {
				v = b
			}
		}
	}
	return v
}

// explainAnalyze runs the plan to the end, its rows discarded, with every
// operator instrumented, and prints the plan with each node's measured
// time (per loop, in milliseconds, to the first row and in total), rows
// and loops, then the planning and execution times, as PostgreSQL's
// EXPLAIN ANALYZE does. The query really runs: under the caller's
// identity, memory budget and statement timeout.
func (s *Session) explainAnalyze(ctx context.Context, root planner.Node, options []*pg_query.Node, planning time.Duration) (string, error) {
	ins := exec.NewInstrumentation()
	start := time.Now()
	res, err := newRowsResult(ctx, exec.WithInstrumentation(s.callerContext(ctx), ins), root, s.statementLimits())
	if err != nil {
		return "", err
	}
	defer res.Close()
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return "", err
		}
		if b == nil {
			break
		}
		b.Release()
	}
	execution := time.Since(start)
	timing := explainOption(options, "timing", true)
	ms := func(d time.Duration, loops int) float64 { return float64(d.Microseconds()) / 1000 / float64(loops) }
	text := planner.ExplainWith(root, explainCosts(options), func(n planner.Node) string {
		st, ok := ins.Stats(n)
		return explainActual(st, ok, isSecuredScan(n), timing) + explainSpill(st)
	})
	return text + fmt.Sprintf("Planning Time: %.3f ms\nExecution Time: %.3f ms\n", ms(planning, 1), ms(execution, 1)), nil
}

// explainActual is a node's measured rows, time and loops.
func explainActual(st exec.OperatorStats, ok, securedScan, timing bool) string {
	ms := func(d time.Duration, loops int) float64 { return float64(d.Microseconds()) / 1000 / float64(loops) }
	switch {
	case !ok || st.Loops == 0:
		return " (never executed)"
	case securedScan && timing:
		// Rows a scan under a row filter read may include hidden ones.
		return fmt.Sprintf(" (actual time=%.3f..%.3f loops=%d)", ms(st.First, st.Loops), ms(st.Total, st.Loops), st.Loops)
	case securedScan:
		return fmt.Sprintf(" (actual loops=%d)", st.Loops)
	case timing:
		return fmt.Sprintf(" (actual time=%.3f..%.3f rows=%d loops=%d)", ms(st.First, st.Loops), ms(st.Total, st.Loops), st.Rows/int64(st.Loops), st.Loops)
	}
	return fmt.Sprintf(" (actual rows=%d loops=%d)", st.Rows/int64(st.Loops), st.Loops)
}

// explainSpill is what a node spilled to disk, in PostgreSQL's "Disk:
// NkB" (rounded up), and in how many files.
func explainSpill(st exec.OperatorStats) string {
	if st.SpillFiles == 0 {
		return ""
	}
	return fmt.Sprintf("  Disk: %dkB  Spill Files: %d", (st.SpillBytes+1023)/1024, st.SpillFiles)
}

// isSecuredScan reports a scan under the caller's row filter.
func isSecuredScan(n planner.Node) bool {
	s, ok := n.(*planner.Scan)
	return ok && s.RowFiltered()
}

// explainInsert shows the plan of the rows an INSERT would write (sorted
// by the table's sort order when it has one) under an Insert line;
// nothing is written. RETURNING is not shown.
func (s *Session) explainInsert(ctx context.Context, ins *pg_query.InsertStmt, query string, options []*pg_query.Node) (Result, error) {
	plan, target, err := s.bindInsert(ctx, ins, query, nil)
	if err != nil {
		return nil, err
	}
	root, err := s.insertRoot(plan, target)
	if err != nil {
		return nil, err
	}
	name := target.adapter.QualifiedName()
	rows := [][]string{{fmt.Sprintf("Insert %s.%s.%s", name.Catalog, name.Schema, name.Name)}}
	for _, l := range strings.Split(strings.TrimRight(explainText(root, options), "\n"), "\n") {
		rows = append(rows, []string{"  " + l})
	}
	return newTextResult([]string{"QUERY PLAN"}, rows, "EXPLAIN")
}
