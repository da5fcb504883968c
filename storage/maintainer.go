package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaintainerConfig configures a Maintainer.
type MaintainerConfig struct {
	// Node names this server in maintenance leases; unique per server.
	Node string
	// Settings are the defaults table properties override.
	Settings MaintenanceSettings
	// Interval is the time between scheduled passes over every table;
	// 0: none (passes only after commits).
	Interval time.Duration
	// CommitTrigger and FileTrigger queue a table for a pass once it
	// received that many commits, or that many data files were added to
	// it, since its last pass (0: that trigger is off). Debounce is how
	// long after the first commit notice the table is looked at, so that
	// a burst of commits makes one pass.
	CommitTrigger, FileTrigger int
	Debounce                   time.Duration
	// LeaseDuration is how long a lease is taken for (renewed while a
	// pass runs), and so how long a server that died holds tables up.
	LeaseDuration time.Duration
	// Principal is whom the maintainer's catalog calls are made for; it
	// needs to load and update every table it is to maintain.
	Principal Principal
	// Sort orders a sorted table's rows when they are compacted; nil
	// leaves sorted tables' data files as they are.
	Sort RowSorter
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Report receives each pass's report (nil: none).
	Report func(TableReport)
}

// TableReport is what one pass over one table did.
type TableReport struct {
	Table Ident
	// Scheduled: the pass was a scheduled one (otherwise commits
	// triggered it).
	Scheduled bool
	Steps     []StepReport
}

// Maintainer runs automatic maintenance over catalogs' tables in the
// background (maintenance_pass.go has the steps): every table on a
// schedule, and a table that received enough commits soon after them.
// Passes run one at a time, so a server maintains one table at a time.
type Maintainer struct {
	cfg  MaintainerConfig
	cats []Catalog

	pass sync.Mutex // held by the pass running

	mu     sync.Mutex
	tables map[Ident]*maintainedTable
	next   time.Time // of the next scheduled pass
	wake   chan struct{}
}

// maintainedTable is what the maintainer remembers of a table.
type maintainedTable struct {
	// snapshot is the table's current snapshot when its last pass ended
	// (0: no pass yet), from which commits are counted.
	snapshot int64
	// noticed is when the first commit since the table was last looked
	// at was reported (zero: none).
	noticed time.Time
}

// NewMaintainer returns a maintainer of the tables of cats. It does
// nothing until Run or Tick; ObserveCommits feeds it commit notices.
func NewMaintainer(cfg MaintainerConfig, cats []Catalog) *Maintainer {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.LeaseDuration <= 0 {
		cfg.LeaseDuration = 10 * time.Minute
	}
	m := &Maintainer{cfg: cfg, cats: cats, tables: map[Ident]*maintainedTable{}, wake: make(chan struct{}, 1)}
	if cfg.Interval > 0 {
		m.next = cfg.Now().Add(cfg.Interval)
	}
	return m
}

// commitObservable is a catalog whose group commits can be observed.
type commitObservable interface {
	observeCommits(fn func(Ident))
}

func (c *embeddedCatalog) observeCommits(fn func(Ident)) { c.lines.observer.Store(&fn) }
func (c *restCatalog) observeCommits(fn func(Ident))     { c.lines.observer.Store(&fn) }

// ObserveCommits makes m hear of every commit this server groups on the
// catalogs m maintains (INSERT, UPDATE, DELETE and MERGE outside a
// transaction block). Commits it does not hear of (other servers',
// transaction blocks') are found by the scheduled passes.
func (m *Maintainer) ObserveCommits() {
	for _, c := range m.cats {
		if o, ok := c.(commitObservable); ok {
			o.observeCommits(m.Notify)
		}
	}
}

// Notify reports a commit to table id. It never blocks.
func (m *Maintainer) Notify(id Ident) {
	m.mu.Lock()
	st := m.state(id)
	if st.noticed.IsZero() {
		st.noticed = m.cfg.Now()
	}
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

func (m *Maintainer) state(id Ident) *maintainedTable {
	st := m.tables[id]
	if st == nil {
		st = &maintainedTable{}
		m.tables[id] = st
	}
	return st
}

// Run runs passes when they are due until ctx ends.
func (m *Maintainer) Run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		m.Tick(ctx)
		wait, ok := m.untilDue()
		if !ok {
			wait = time.Hour
		}
		timer.Reset(max(wait, 0))
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
		case <-timer.C:
		}
	}
}

// untilDue is how long until the next scheduled pass or debounced
// commit notice falls due; false when none is pending.
func (m *Maintainer) untilDue() (time.Duration, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var due time.Time
	if !m.next.IsZero() {
		due = m.next
	}
	for _, st := range m.tables {
		if st.noticed.IsZero() || !m.triggers() {
			continue
		}
		if d := st.noticed.Add(m.cfg.Debounce); due.IsZero() || d.Before(due) {
			due = d
		}
	}
	if due.IsZero() {
		return 0, false
	}
	return due.Sub(m.cfg.Now()), true
}

func (m *Maintainer) triggers() bool { return m.cfg.CommitTrigger > 0 || m.cfg.FileTrigger > 0 }

// Tick runs what is due at the maintainer's clock: a pass over every
// table that received enough commits (noticed at least Debounce ago),
// then, when its time has come, the scheduled pass over every table.
func (m *Maintainer) Tick(ctx context.Context) {
	now := m.cfg.Now()
	m.mu.Lock()
	var noticed []Ident
	for id, st := range m.tables {
		if !st.noticed.IsZero() && !now.Before(st.noticed.Add(m.cfg.Debounce)) && m.triggers() {
			st.noticed = time.Time{}
			noticed = append(noticed, id)
		}
	}
	scheduled := !m.next.IsZero() && !now.Before(m.next)
	if scheduled {
		m.next = now.Add(m.cfg.Interval)
	}
	m.mu.Unlock()
	slices.SortFunc(noticed, func(a, b Ident) int { return strings.Compare(a.String(), b.String()) })
	for _, id := range noticed {
		if ctx.Err() != nil {
			return
		}
		m.maybeMaintain(ctx, id)
	}
	if scheduled {
		m.MaintainAll(ctx)
	}
}

// maybeMaintain passes over table id if it received enough commits
// since its last pass.
func (m *Maintainer) maybeMaintain(ctx context.Context, id Ident) {
	cat := m.catalog(id.Catalog)
	if cat == nil {
		return
	}
	ctx = WithPrincipal(ctx, m.cfg.Principal)
	t, err := cat.LoadTable(ctx, id.Namespace, id.Table)
	if err != nil {
		if !errors.Is(err, ErrNoSuchTable) && !errors.Is(err, ErrNoSuchNamespace) {
			m.report(TableReport{Table: id, Steps: []StepReport{{Step: StepLoad, Outcome: OutcomeFailed, Err: err}}})
		}
		return
	}
	m.mu.Lock()
	since := m.state(id).snapshot
	m.mu.Unlock()
	commits, files := commitsSince(t, since)
	if (m.cfg.CommitTrigger > 0 && commits >= m.cfg.CommitTrigger) || (m.cfg.FileTrigger > 0 && files >= m.cfg.FileTrigger) {
		m.maintain(ctx, t, false, false)
	}
}

// StepLoad is a pass that could not load its table.
const StepLoad = "load"

// commitsSince counts the snapshots of t's current branch after the one
// with id since (all of them when it is not an ancestor) and the data
// files they added.
func commitsSince(t *Table, since int64) (commits, files int) {
	meta := t.tbl.Metadata()
	for s := meta.CurrentSnapshot(); s != nil && s.SnapshotID != since; {
		commits++
		if s.Summary != nil {
			n, _ := strconv.Atoi(s.Summary.Properties["added-data-files"])
			files += n
		}
		if s.ParentSnapshotID == nil {
			break
		}
		s = meta.SnapshotByID(*s.ParentSnapshotID)
	}
	return commits, files
}

// MaintainAll passes over every table of every catalog (a scheduled
// pass, orphan removal included).
func (m *Maintainer) MaintainAll(ctx context.Context) []TableReport {
	ctx = WithPrincipal(ctx, m.cfg.Principal)
	var out []TableReport
	for _, cat := range m.cats {
		tables, err := allTables(ctx, cat)
		if err != nil {
			r := TableReport{Table: Ident{Catalog: cat.Name()}, Scheduled: true,
				Steps: []StepReport{{Step: StepLoad, Outcome: OutcomeFailed, Err: err}}}
			m.report(r)
			out = append(out, r)
			continue
		}
		for i, t := range tables {
			if ctx.Err() != nil {
				return out
			}
			out = append(out, m.maintain(ctx, t, true, sharesLocation(tables, i)))
		}
	}
	return out
}

// allTables loads every table of cat.
func allTables(ctx context.Context, cat Catalog) ([]*Table, error) {
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		return nil, fmt.Errorf("list namespaces of %s: %w", cat.Name(), err)
	}
	var out []*Table
	for _, ns := range nss {
		tables, err := LoadTables(ctx, cat, ns)
		if err != nil {
			return nil, err
		}
		out = append(out, tables...)
	}
	return out, nil
}

// sharesLocation reports whether tables[i]'s location holds, or lies in,
// another table's: a table renamed keeps its location, and a new table
// of the old name may be given the same one. Its orphans cannot be told
// from the other table's files then.
func sharesLocation(tables []*Table, i int) bool {
	loc := strings.TrimSuffix(tables[i].tbl.Location(), "/")
	for j, o := range tables {
		other := strings.TrimSuffix(o.tbl.Location(), "/")
		if j != i && (other == loc || strings.HasPrefix(other, loc+"/") || strings.HasPrefix(loc, other+"/")) {
			return true
		}
	}
	return false
}

// MaintainTable passes over one table now, as a scheduled pass does
// (orphan removal included, unless another table of its catalog shares
// its location).
func (m *Maintainer) MaintainTable(ctx context.Context, catalog, ns, name string) (TableReport, error) {
	cat := m.catalog(catalog)
	if cat == nil {
		return TableReport{}, fmt.Errorf("maintain %s.%s.%s: no such catalog", catalog, ns, name)
	}
	ctx = WithPrincipal(ctx, m.cfg.Principal)
	tables, err := allTables(ctx, cat)
	if err != nil {
		return TableReport{}, err
	}
	for i, t := range tables {
		if t.ident.Namespace == ns && t.ident.Table == name {
			return m.maintain(ctx, t, true, sharesLocation(tables, i)), nil
		}
	}
	return TableReport{}, fmt.Errorf("maintain %s.%s.%s: %w", catalog, ns, name, ErrNoSuchTable)
}

func (m *Maintainer) catalog(name string) Catalog {
	for _, c := range m.cats {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

func (m *Maintainer) report(r TableReport) {
	if m.cfg.Report != nil {
		m.cfg.Report(r)
	}
}

// maintain runs one pass over t (ctx carries the principal) and reports
// it. shared: t's location is shared, so orphans are not removed.
func (m *Maintainer) maintain(ctx context.Context, t *Table, scheduled, shared bool) TableReport {
	m.pass.Lock()
	defer m.pass.Unlock()
	r := TableReport{Table: t.ident, Scheduled: scheduled}
	defer func() {
		if len(r.Steps) > 0 {
			m.report(r)
		}
	}()
	// The newest metadata: the table may have been loaded a while ago.
	t, err := t.reloaded(ctx)
	if err != nil {
		r.Steps = append(r.Steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		return r
	}
	tm, err := m.cfg.Settings.forTable(t.tbl.Properties())
	if err != nil {
		r.Steps = append(r.Steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		return r
	}
	if !tm.enabled {
		return r
	}
	now := m.cfg.Now()
	plan, err := t.planPass(ctx, tm, now)
	if err != nil {
		r.Steps = append(r.Steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		return r
	}
	if len(t.SortOrder()) > 0 && m.cfg.Sort == nil {
		// Compacted unsorted, its files' key ranges would overlap.
		plan.compact = false
	}
	if plan.expire || plan.compact || plan.mergeManifests {
		r.Steps = append(r.Steps, m.committingSteps(ctx, t, tm, plan)...)
	}
	if t, err = t.reloaded(ctx); err != nil {
		r.Steps = append(r.Steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		return r
	}
	m.mu.Lock()
	m.state(t.ident).snapshot = t.SnapshotID()
	m.mu.Unlock()
	if tm.DeleteOldMetadata {
		if s := t.runMetadataCleanup(ctx); s.Outcome != OutcomeDone || s.FilesRemoved > 0 {
			r.Steps = append(r.Steps, s)
		}
	}
	if scheduled && tm.gc {
		s := StepReport{Step: StepOrphanFiles, Outcome: OutcomeSkipped,
			Err: errors.New("another table of the catalog shares the table's location")}
		if !shared {
			s = t.runOrphanCleanup(ctx, tm)
		}
		r.Steps = append(r.Steps, s)
	}
	return r
}

// committingSteps takes the lease and runs the steps plan calls for
// that commit, then releases it: the rewrite first, so that the expiry
// after it can take the snapshots it replaced when they are old enough.
func (m *Maintainer) committingSteps(ctx context.Context, t *Table, tm tableMaintenance, plan passPlan) (steps []StepReport) {
	ttl := m.cfg.LeaseDuration
	start := time.Now()
	l, err := t.acquireLease(ctx, m.cfg.Node, m.cfg.Now(), ttl)
	switch {
	case errors.Is(err, errNoSnapshot):
		return nil
	case err != nil:
		return []StepReport{{Step: StepLease, Outcome: stepFailure(err), Duration: time.Since(start), Err: err}}
	}
	defer func() {
		if err := l.release(context.WithoutCancel(ctx)); err != nil {
			steps = append(steps, StepReport{Step: StepLease, Outcome: stepFailure(err), Err: fmt.Errorf("release: %w", err)})
		}
	}()
	renew := func() bool {
		if err := l.renew(ctx, m.cfg.Now(), ttl); err != nil {
			steps = append(steps, StepReport{Step: StepLease, Outcome: stepFailure(err), Err: fmt.Errorf("renew: %w", err)})
			return false
		}
		return true
	}
	if plan.compact || plan.mergeManifests {
		var s StepReport
		t, s = t.runRewrite(ctx, tm, plan, m.cfg.Sort)
		steps = append(steps, s)
		if s.Outcome != OutcomeDone {
			return steps
		}
		// The snapshots the rewrite replaced may be due for expiry now;
		// the renewal moves the lease's tag off them.
		if !renew() {
			return steps
		}
		var err error
		if t, err = t.reloaded(ctx); err != nil {
			return append(steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		}
		if plan, err = t.planPass(ctx, tm, m.cfg.Now()); err != nil {
			return append(steps, StepReport{Step: StepLoad, Outcome: OutcomeFailed, Err: err})
		}
	}
	if plan.expire && (l.usable(m.cfg.Now(), ttl) || renew()) {
		var s StepReport
		_, s = t.runExpire(ctx, tm, m.cfg.Now())
		steps = append(steps, s)
	}
	return steps
}

// reloaded is the table as of its newest metadata.
func (t *Table) reloaded(ctx context.Context) (*Table, error) {
	_, current, err := t.reload(ctx)
	return current, err
}
