package storage

import (
	"container/list"
	"sync"

	"github.com/apache/iceberg-go/table"
)

// metadataCacheEntries bounds the cache: a table's metadata lives under
// one location until its next commit, so a few entries per busy table
// serve every load between commits.
const metadataCacheEntries = 128

// metadataCacheSnapshots bounds the snapshots the cached metadata lists in
// all. Each version of a table's metadata lists the table's whole history,
// so with entries alone the cache grew with the square of a busy table's
// commits (a snapshot and its summary take a few KiB); this keeps it
// within tens of MiB however long the history.
const metadataCacheSnapshots = 20_000

// metadataCache holds parsed table metadata by file location, least
// recently used evicted first. Metadata files are never rewritten in
// place, so an entry never goes stale; the metadata values themselves are
// immutable (iceberg-go's builders copy before changing).
type metadataCache struct {
	mu        sync.Mutex
	max       int // entries
	maxWeight int // snapshots listed, in all (metadataWeight)
	weight    int
	order     *list.List // of *metadataEntry, most recent first
	byLoc     map[string]*list.Element
}

type metadataEntry struct {
	loc    string
	meta   table.Metadata
	weight int
}

func newMetadataCache(max, maxWeight int) *metadataCache {
	return &metadataCache{max: max, maxWeight: maxWeight, order: list.New(), byLoc: map[string]*list.Element{}}
}

// metadataWeight is what one version of a table's metadata costs the
// cache: the snapshots it lists, and one for the rest.
func metadataWeight(meta table.Metadata) int {
	return 1 + len(meta.Snapshots())
}

func (m *metadataCache) get(loc string) (table.Metadata, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.byLoc[loc]
	if !ok {
		return nil, false
	}
	m.order.MoveToFront(el)
	return el.Value.(*metadataEntry).meta, true
}

func (m *metadataCache) put(loc string, meta table.Metadata) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.byLoc[loc]; ok {
		m.order.MoveToFront(el)
		return
	}
	w := metadataWeight(meta)
	if w > m.maxWeight {
		return // larger than the whole cache: loaded again each time
	}
	m.byLoc[loc] = m.order.PushFront(&metadataEntry{loc: loc, meta: meta, weight: w})
	m.weight += w
	for m.order.Len() > m.max || m.weight > m.maxWeight {
		last := m.order.Back()
		m.order.Remove(last)
		e := last.Value.(*metadataEntry)
		delete(m.byLoc, e.loc)
		m.weight -= e.weight
	}
}

func (m *metadataCache) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}
