package storage

import (
	"crypto/sha256"
	"slices"
	"strings"

	"github.com/apache/iceberg-go/table"
)

// A catalog's plan cache holds at most this many plans, and at most this
// many file scan tasks across them: a task carries its data file's
// column statistics, so the task count is what bounds the memory.
const (
	planCacheEntries = 256
	planCacheTasks   = 100_000
)

// planCache remembers the file scan tasks planned for a snapshot, so that
// a table read again before its next commit does not read its manifest
// list and every manifest again. A snapshot never changes, so entries
// only leave when the bounds push the least recently used out. Each
// catalog owns one; it is safe for concurrent use.
//
// The tasks handed out are copies of the cached slice: callers may set a
// task's fields (a rewrite clears Residual and widens Start and Length).
// The data files, delete files and sequence number pointers the tasks
// refer to are shared and must not be written.
type planCache struct {
	entries *weightedLRU[planKey, []table.FileScanTask]
	// counts are the row counts of plans (fileCount), so that a repeated
	// count(*) neither copies nor walks the plan's tasks.
	counts *weightedLRU[planKey, fileCount]
	// digests are metadataDigest's by metadata file: a metadata file is
	// never rewritten, and marshalling the schema and specs to digest
	// them took longer than the rest of a one-row lookup's planning.
	digests *weightedLRU[string, [sha256.Size]byte]
}

// metadataDigest is metadataDigest(tbl), made once per metadata file. A
// table a transaction staged is "located" at its folder, which names no
// one metadata: its digest is made each time.
func (c *planCache) metadataDigest(tbl *table.Table) ([sha256.Size]byte, bool) {
	loc := tbl.MetadataLocation()
	if !strings.HasSuffix(loc, ".metadata.json") {
		loc = ""
	}
	if loc != "" {
		if d, ok := c.digests.get(loc); ok {
			return d, true
		}
	}
	d, ok := metadataDigest(tbl)
	if ok && loc != "" {
		c.digests.put(loc, d)
	}
	return d, ok
}

// newPlanCache makes a cache of at most maxEntries plans holding at most
// maxTasks tasks in all.
func newPlanCache(maxEntries, maxTasks int) *planCache {
	return &planCache{
		entries: newWeightedLRU[planKey](maxEntries, maxTasks,
			func(tasks []table.FileScanTask) int { return len(tasks) }),
		counts:  newWeightedLRU[planKey](maxEntries, maxEntries, func(fileCount) int { return 1 }),
		digests: newWeightedLRU[string](maxEntries, maxEntries, func([sha256.Size]byte) int { return 1 }),
	}
}

// get returns a copy of the plan cached under k.
func (c *planCache) get(k planKey) ([]table.FileScanTask, bool) {
	tasks, ok := c.entries.get(k)
	if !ok {
		return nil, false
	}
	return slices.Clone(tasks), true
}

// put caches a copy of tasks under k, evicting the least recently used
// plans until the task bound holds. A plan larger than the whole bound is
// not cached.
func (c *planCache) put(k planKey, tasks []table.FileScanTask) {
	c.entries.put(k, slices.Clone(tasks))
}
