package exec

import "github.com/sqe-db/sqe/planner"

// DefaultParallelMinRows is the smallest table (by its row estimate) a
// plan scans in parallel by default: below it, starting workers costs more
// than splitting the work saves.
const DefaultParallelMinRows = 100_000

// ParallelOptions are the options for planner.Optimize to run the plan's
// pipelines over tables of at least minRows estimated rows in workers
// goroutines (see planner.Gather); workers <= 1 keeps the plan serial.
// Aggregates whose accumulators merge run in the workers too.
func ParallelOptions(workers int, minRows int64) planner.ParallelOptions {
	return planner.ParallelOptions{Workers: workers, MinRows: minRows, Mergeable: MergeableAggregate}
}
