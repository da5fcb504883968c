package sql

import (
	"container/list"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog"
	"github.com/sqe-db/sqe/storage"
)

// Bounds of the remembered views: callers, and bytes in all. A view holds
// what pg_catalog shows one caller of one database, about 10 KiB per
// table of 20 columns once psql, JDBC and a BI tool have asked their
// queries; dashboards and ORMs connect as a handful of users, each asking
// the same introspection queries again and again. Past the bytes the
// least recently used views are dropped.
const (
	catalogViewsSize  = 256
	catalogViewsBytes = 128 << 20
)

// catalogViews remembers, per caller, what the catalog relations
// (pg_catalog, information_schema) are computed from: the namespaces and
// tables gate one lets the caller see, and what gate two lets it see of
// their statistics. Computing it loads every table of the catalog and
// secures each for the caller; a catalog of hundreds of tables made each
// psql \d or JDBC getColumns take hundreds of milliseconds.
//
// An entry serves a statement only while everything it was computed from
// is the same: the caller (user, roles, groups, superuser) and the one
// session setting the rows depend on (TimeZone, for DEFAULT
// expressions), the catalog's objects and its gate-one policies
// (storage.VisibilityVersion) and gate two's policies
// (planner.VersionedSecurity). A part that cannot say its version (a
// REST catalog deciding as the caller, a conditional policy) makes every
// statement compute the view again, as if there were no cache. A GRANT,
// REVOKE, DENY, policy or tag change, DDL or commit moves a version, and
// the next statement computes afresh.
type catalogViews struct {
	mu      sync.Mutex
	entries map[catalogViewKey]*list.Element
	order   *list.List // of *catalogView, most recently used first
	bytes   int        // the views' weights, in all
}

func newCatalogViews() *catalogViews {
	return &catalogViews{entries: map[catalogViewKey]*list.Element{}, order: list.New()}
}

// catalogViewKey is who sees the view.
type catalogViewKey struct {
	database, user, roles, groups, timeZone string
	superuser                               bool
}

// catalogViewState is the versions a view was computed at.
type catalogViewState struct {
	catalog  storage.CatalogVersion
	policies int64
}

// catalogView is one caller's view at one state. Namespaces and each
// namespace's tables are filled in as statements first ask for them.
type catalogView struct {
	key   catalogViewKey
	state catalogViewState
	// owner is the cache the view is in; weight what it holds, in bytes
	// (guarded by owner.mu).
	owner  *catalogViews
	weight int

	mu         sync.Mutex
	namespaces []string
	listed     bool
	tables     map[string][]pgcatalog.TableInfo
	// batches are the relations' batches (pgcatalog.ObjectBatches), by
	// relation name; they are built outside mu, since building reads
	// the namespaces and tables.
	batchesMu sync.Mutex
	batches   map[string]arrow.RecordBatch
}

// view returns the caller's view at state, a new empty one when the
// remembered one was computed at another state.
func (c *catalogViews) view(key catalogViewKey, state catalogViewState) *catalogView {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		v := el.Value.(*catalogView)
		if v.state == state {
			c.order.MoveToFront(el)
			return v
		}
		c.remove(el)
	}
	v := &catalogView{key: key, state: state, owner: c, tables: map[string][]pgcatalog.TableInfo{},
		batches: map[string]arrow.RecordBatch{}}
	c.entries[key] = c.order.PushFront(v)
	c.trim(v)
	return v
}

// grew adds bytes to v's weight, and drops the least recently used other
// views while the cache holds too much. A view dropped while statements
// use it keeps serving them; it is no longer found.
func (c *catalogViews) grew(v *catalogView, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[v.key]; !ok || el.Value.(*catalogView) != v {
		return
	}
	v.weight += bytes
	c.bytes += bytes
	c.trim(v)
}

// trim drops views other than keep, least recently used first, while the
// cache is past a bound. Called with c.mu held.
func (c *catalogViews) trim(keep *catalogView) {
	for c.order.Len() > catalogViewsSize || c.bytes > catalogViewsBytes {
		back := c.order.Back()
		if back.Value.(*catalogView) == keep {
			return
		}
		c.remove(back)
	}
}

func (c *catalogViews) remove(el *list.Element) {
	v := c.order.Remove(el).(*catalogView)
	delete(c.entries, v.key)
	c.bytes -= v.weight
}

// cachedNamespaces is the view's namespace list, computed by list once.
func (v *catalogView) cachedNamespaces(list func() ([]string, error)) ([]string, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.listed {
		ns, err := list()
		if err != nil {
			return nil, err
		}
		v.namespaces, v.listed = ns, true
	}
	return slices.Clone(v.namespaces), nil
}

// cachedTables is the view's tables of ns, computed by load once. The
// infos are shared by every statement that reads the view: the catalog
// relations only read them.
func (v *catalogView) cachedTables(ns string, load func() ([]pgcatalog.TableInfo, error)) ([]pgcatalog.TableInfo, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if t, ok := v.tables[ns]; ok {
		return t, nil
	}
	t, err := load()
	if err != nil {
		return nil, err
	}
	v.tables[ns] = t
	v.owner.grew(v, tablesWeight(t))
	return t, nil
}

// tablesWeight is about what tables take in memory.
func tablesWeight(tables []pgcatalog.TableInfo) int {
	n := 0
	for _, t := range tables {
		n += 256 + 96*len(t.Columns) + len(t.Definition) + len(t.Comment)
	}
	return n
}

// batchWeight is the bytes of b's buffers.
func batchWeight(b arrow.RecordBatch) int {
	n := 0
	for _, c := range b.Columns() {
		for _, buf := range c.Data().Buffers() {
			if buf != nil {
				n += buf.Len()
			}
		}
	}
	return n
}

// cachedBatch is the view's batch of the relation named name, built by
// build once. Two statements that miss at once both build; the first
// stored is kept.
func (v *catalogView) cachedBatch(name string, build func() (arrow.RecordBatch, error)) (arrow.RecordBatch, error) {
	v.batchesMu.Lock()
	b, ok := v.batches[name]
	v.batchesMu.Unlock()
	if ok {
		return b, nil
	}
	b, err := build()
	if err != nil {
		return nil, err
	}
	v.batchesMu.Lock()
	defer v.batchesMu.Unlock()
	if kept, ok := v.batches[name]; ok {
		return kept, nil
	}
	v.batches[name] = b
	v.owner.grew(v, batchWeight(b))
	return b, nil
}

// ObjectBatch remembers the batch in the caller's view
// (pgcatalog.ObjectBatches); false when the view cannot be remembered.
func (c catalogSource) ObjectBatch(ctx context.Context, name string, build func() (arrow.RecordBatch, error)) (arrow.RecordBatch, bool, error) {
	cat, err := c.s.engine.catalog(c.s.database)
	if err != nil {
		return nil, false, err
	}
	view, ok, err := c.catalogView(ctx, cat)
	if err != nil || !ok {
		return nil, false, err
	}
	b, err := view.cachedBatch(name, build)
	return b, err == nil, err
}

// catalogView is the session caller's remembered view of cat, or false
// when some part of what it depends on cannot say its version. A
// statement finds it once.
func (c catalogSource) catalogView(ctx context.Context, cat storage.Catalog) (*catalogView, bool, error) {
	if sc := scopeOf(ctx); sc != nil {
		return sc.view(c.s.database, func() (*catalogView, bool, error) { return c.findCatalogView(ctx, cat) })
	}
	return c.findCatalogView(ctx, cat)
}

// findCatalogView reads the versions and finds the view at them.
func (c catalogSource) findCatalogView(ctx context.Context, cat storage.Catalog) (*catalogView, bool, error) {
	s := c.s
	catalogVersion, ok, err := storage.VisibilityVersion(s.callerContext(ctx), cat)
	if err != nil || !ok {
		return nil, false, err
	}
	state := catalogViewState{catalog: catalogVersion}
	if s.security != nil {
		vs, versioned := s.security.(planner.VersionedSecurity)
		if !versioned {
			return nil, false, nil
		}
		version, ok, err := vs.PoliciesVersion(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		state.policies = version
	}
	key := catalogViewKey{
		database: s.database, user: s.identity.User,
		roles: joinSorted(s.identity.Roles), groups: joinSorted(s.identity.Groups),
		timeZone: s.settings.timeZone().String(), superuser: s.superuser,
	}
	return s.engine.catalogViews.view(key, state), true, nil
}

// joinSorted is names sorted and joined by NUL, which no name holds.
func joinSorted(names []string) string {
	sorted := slices.Clone(names)
	slices.Sort(sorted)
	return strings.Join(sorted, "\x00")
}
