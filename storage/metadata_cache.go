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

// metadataCache holds parsed table metadata by file location, least
// recently used evicted first. Metadata files are never rewritten in
// place, so an entry never goes stale; the metadata values themselves are
// immutable (iceberg-go's builders copy before changing).
type metadataCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *metadataEntry, most recent first
	byLoc map[string]*list.Element
}

type metadataEntry struct {
	loc  string
	meta table.Metadata
}

func newMetadataCache(max int) *metadataCache {
	return &metadataCache{max: max, order: list.New(), byLoc: map[string]*list.Element{}}
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
	m.byLoc[loc] = m.order.PushFront(&metadataEntry{loc: loc, meta: meta})
	for m.order.Len() > m.max {
		last := m.order.Back()
		m.order.Remove(last)
		delete(m.byLoc, last.Value.(*metadataEntry).loc)
	}
}

func (m *metadataCache) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}
