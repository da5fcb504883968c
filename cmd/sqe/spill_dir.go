package main

import (
	"log/slog"
	"os"
	"path/filepath"

	"github.com/sqe-db/sqe/planner/exec"
)

// defaultSpillDir is [query] spill_dir when unset: a directory of its own
// in the system's temporary directory.
func defaultSpillDir() string {
	return filepath.Join(os.TempDir(), "sqe-spill")
}

// openSpillDir is the queries' spill directory, cleared of the spill
// areas earlier processes left (a crash, a kill) before any query runs.
// A directory that cannot be read is reported, not fatal: queries that
// spill then fail with the error the disk gives them.
func openSpillDir(path string, logger *slog.Logger) *exec.SpillDir {
	d := exec.NewSpillDir(path)
	n, err := d.RemoveStale()
	if err != nil {
		logger.Warn("spill dir: stale spill areas not removed", "dir", path, "error", err)
	}
	if n > 0 {
		logger.Info("spill dir: removed stale spill areas", "dir", path, "areas", n)
	}
	return d
}
