package sql

import "github.com/sqe-db/sqe/storage"

// RowSorter is the engine's sort for work outside any statement
// (automatic maintenance compacting a sorted table): under the server's
// memory limit per query, spilling past it, with no deadline.
func (e *Engine) RowSorter() storage.RowSorter {
	return rowSorter(queryLimits{memory: e.cfg.MemoryLimit, spill: e.cfg.Spill})
}
