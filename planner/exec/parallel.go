package exec

import "github.com/sqe-db/sqe/planner"

// DefaultParallelMinRows is the smallest table (by its row estimate) a
// plan scans in parallel by default: below it, starting workers costs more
// than splitting the work saves.
const DefaultParallelMinRows = 100_000

// ParallelOptions are the options for planner.Optimize to run the plan's
// pipelines over tables of at least minRows estimated rows in workers
// goroutines (see planner.Gather); workers <= 1 keeps the plan serial.
// Aggregates whose accumulators merge run in the workers too, and so do
// the probes of hash joins whose build side is estimated at no more than
// half of memoryLimit (a query's budget; 0 for none): a shared build
// cannot spill.
func ParallelOptions(workers int, minRows, memoryLimit int64) planner.ParallelOptions {
	return planner.ParallelOptions{Workers: workers, MinRows: minRows, Mergeable: MergeableAggregate,
		MaxSharedBuildBytes: memoryLimit / 2}
}
