package exec

import "github.com/sqe-db/sqe/planner"

// DefaultParallelMinRows is the smallest table (by its row estimate) a
// plan scans in parallel by default: below it, starting workers costs more
// than splitting the work saves.
const DefaultParallelMinRows = 100_000

// Parallelize runs the plan's pipelines over large enough tables in
// workers goroutines (see planner.Gather); workers <= 1 leaves the plan as
// it is. Aggregates whose accumulators merge run in the workers too.
func Parallelize(root planner.Node, workers int, minRows int64) planner.Node {
	return planner.Parallelize(root, planner.ParallelOptions{Workers: workers, MinRows: minRows, Mergeable: MergeableAggregate})
}
