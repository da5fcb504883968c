package sql

import (
	"runtime"
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// parallelWorkersSetting is the session's degree of parallelism, under
// PostgreSQL's name: how many workers a parallel part of a plan runs in.
// 0 and 1 both mean serial plans (PostgreSQL's 0 counts workers besides
// the leader; SQE's gather does no work itself).
const parallelWorkersSetting = "max_parallel_workers_per_gather"

// maxParallelWorkers bounds the setting as PostgreSQL does.
const maxParallelWorkers = 1024

func (e *Engine) parallelWorkers() int {
	if e.cfg.ParallelWorkers > 0 {
		return e.cfg.ParallelWorkers
	}
	return runtime.GOMAXPROCS(0)
}

func parseParallelWorkers(value string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(value))
	if err != nil {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", parallelWorkersSetting, value)
	}
	if n < 0 || n > maxParallelWorkers {
		return 0, pgerror.New(pgerror.InvalidParameterValue, "%d is outside the valid range for parameter \"%s\" (0 .. %d)", n, parallelWorkersSetting, maxParallelWorkers)
	}
	return n, nil
}

// parallelOptions run a plan's large scans, and the aggregates over
// them, in the session's number of workers.
func (s *Session) parallelOptions() planner.ParallelOptions {
	v, err := s.settings.get(parallelWorkersSetting)
	if err != nil {
		return planner.ParallelOptions{}
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 1 {
		return planner.ParallelOptions{}
	}
	return exec.ParallelOptions(n, exec.DefaultParallelMinRows, s.engine.cfg.MemoryLimit)
}
