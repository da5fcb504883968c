package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// policyOverheadTarget is the most a query over the table may take with
// the policies, as a multiple of its time without them.
const policyOverheadTarget = 1.15

// policyResolutionTarget is the most resolving and applying the policies
// may add to one query, with the policies cached.
const policyResolutionTarget = time.Millisecond

// policyReport is everything the policy suite prints.
type policyReport struct {
	rows, runs int
	pairs      []policyPair // one per policyQueries entry
}

// write prints one line per query with both users' median times and
// their ratio, then the cost of resolving the policies per query and the
// queries over the target.
func (r policyReport) write(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "\ngate two overhead: %s.%s at %s rows, median of %d runs after a warm-up\n"+
		"policed user: row filter region <> '%s' (keeps every row), MASK_SHOW_LAST_4 on ssn, MASK_HASH (keyed) on email\n\n",
		policyNamespace, policyTable, sizeLabel(r.rows), r.runs, policyFilterMissing); err != nil {
		return err
	}
	header := []string{"query", "no policy", "policy", "policy / no policy"}
	var lines [][]string
	var over, resolution []string
	for i, q := range policyQueries {
		plain, policed := r.pairs[i].plain.median(), r.pairs[i].policed.median()
		lines = append(lines, []string{q.label, formatPreciseDuration(plain), formatPreciseDuration(policed), ratio(policed, plain)})
		switch {
		case q.planOnly:
			resolution = append(resolution, fmt.Sprintf("%+.3f ms", float64(policed-plain)/float64(time.Millisecond)))
		case plain > 0 && float64(policed) > policyOverheadTarget*float64(plain):
			over = append(over, fmt.Sprintf("%s (%s)", q.label, ratio(policed, plain)))
		}
	}
	if err := writeTable(w, header, lines); err != nil {
		return err
	}
	verdict := "every query within it"
	if len(over) > 0 {
		verdict = "over it: " + strings.Join(over, ", ")
	}
	_, err := fmt.Fprintf(w, "\npolicy resolution and rewrite per query (EXPLAIN, policy minus no policy): %s (target: under %s)\n"+
		"queries over the table, target: at most %.2fx; %s\n",
		strings.Join(resolution, ", "), formatPreciseDuration(policyResolutionTarget), policyOverheadTarget, verdict)
	return err
}

// formatPreciseDuration is formatDuration with two decimals below 10 ms,
// where planning times live.
func formatPreciseDuration(d time.Duration) string {
	if d < 10*time.Millisecond {
		return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
	}
	return formatDuration(d)
}
