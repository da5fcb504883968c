package storage

import (
	"container/list"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go/table"
	"github.com/google/uuid"
)

// metadataCacheEntries bounds the cache: a table's metadata lives under
// one location until its next commit, so a few entries per busy table
// serve every load between commits. A catalog query loads every table the
// caller sees, so the cache holds a catalog of some thousands of tables
// (a table without history costs a few KiB; metadataCacheSnapshots bounds
// the ones with history).
const metadataCacheEntries = 4096

// metadataCacheVersions bounds the versions of one table the cache holds.
// Each version of a table's metadata lists the table's whole history, and
// successive versions share nothing (iceberg-go's builders copy every
// snapshot and its summary), so a cache holding many versions of a busy
// table grew with the square of its commits. Loads want the current
// version; the one before serves a statement that started just before a
// commit. Older ones (time travel by metadata file) are parsed again.
const metadataCacheVersions = 2

// metadataCacheSnapshots bounds the snapshots the cached metadata lists in
// all (a snapshot and its summary take about 2 KiB), for a catalog of
// many tables with long histories.
const metadataCacheSnapshots = 10_000

// metadataCache holds parsed table metadata by file location, least
// recently used evicted first. Metadata files are never rewritten in
// place, so an entry never goes stale; the metadata values themselves are
// immutable (iceberg-go's builders copy before changing).
type metadataCache struct {
	mu          sync.Mutex
	max         int // entries
	maxVersions int // entries of one table (by its UUID)
	maxWeight   int // snapshots listed, in all (metadataWeight)
	weight      int
	order       *list.List // of *metadataEntry, most recent first
	byLoc       map[string]*list.Element
	versions    map[uuid.UUID]int // entries per table
}

type metadataEntry struct {
	loc    string
	table  uuid.UUID
	meta   table.Metadata
	weight int
	// schema is the current schema as Arrow, converted on first use:
	// converting it took longer than finding the metadata.
	schema *arrow.Schema
}

func newMetadataCache(max, maxVersions, maxWeight int) *metadataCache {
	return &metadataCache{max: max, maxVersions: maxVersions, maxWeight: maxWeight,
		order: list.New(), byLoc: map[string]*list.Element{}, versions: map[uuid.UUID]int{}}
}

// metadataWeight is what one version of a table's metadata costs the
// cache: the snapshots it lists, and one for the rest. It counts the
// snapshot log rather than Snapshots(), which copies every snapshot.
func metadataWeight(meta table.Metadata) int {
	n := 1
	for range meta.SnapshotLogs() {
		n++
	}
	return n
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
	id := meta.TableUUID()
	m.byLoc[loc] = m.order.PushFront(&metadataEntry{loc: loc, table: id, meta: meta, weight: w})
	m.weight += w
	m.versions[id]++
	m.trimVersions(id)
	for m.order.Len() > m.max || m.weight > m.maxWeight {
		m.remove(m.order.Back())
	}
}

// currentArrowSchema is the Arrow form of meta's current schema, kept
// with the cached entry of loc when meta is the one cached there.
func (m *metadataCache) currentArrowSchema(loc string, meta table.Metadata) (*arrow.Schema, error) {
	m.mu.Lock()
	var entry *metadataEntry
	if el, ok := m.byLoc[loc]; ok {
		if e := el.Value.(*metadataEntry); e.meta == meta {
			entry = e
		}
	}
	if entry != nil && entry.schema != nil {
		m.mu.Unlock()
		return entry.schema, nil
	}
	m.mu.Unlock()
	sc, err := table.SchemaToArrowSchema(meta.CurrentSchema(), nil, true, false)
	if err != nil {
		return nil, err
	}
	if entry != nil {
		m.mu.Lock()
		entry.schema = sc
		m.mu.Unlock()
	}
	return sc, nil
}

// trimVersions drops the least recently used versions of one table past
// maxVersions. The scan is over at most max entries, only when the table
// has too many, which is once per commit.
func (m *metadataCache) trimVersions(id uuid.UUID) {
	if m.versions[id] <= m.maxVersions {
		return
	}
	seen := 0
	for el := m.order.Front(); el != nil; {
		next := el.Next()
		if el.Value.(*metadataEntry).table == id {
			if seen++; seen > m.maxVersions {
				m.remove(el)
			}
		}
		el = next
	}
}

func (m *metadataCache) remove(el *list.Element) {
	m.order.Remove(el)
	e := el.Value.(*metadataEntry)
	delete(m.byLoc, e.loc)
	m.weight -= e.weight
	if m.versions[e.table]--; m.versions[e.table] <= 0 {
		delete(m.versions, e.table)
	}
}

func (m *metadataCache) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.order.Len()
}
