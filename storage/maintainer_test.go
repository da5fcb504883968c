package storage

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
)

// fakeClock is a maintainer's clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now()} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// reportLog collects a maintainer's reports.
type reportLog struct {
	mu      sync.Mutex
	reports []TableReport
}

func (l *reportLog) add(r TableReport) {
	l.mu.Lock()
	l.reports = append(l.reports, r)
	l.mu.Unlock()
}

func (l *reportLog) all() []TableReport {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.reports)
}

func newTestMaintainer(node string, clock *fakeClock, log *reportLog, cats ...Catalog) *Maintainer {
	cfg := MaintainerConfig{
		Node: node, Settings: DefaultMaintenanceSettings(), LeaseDuration: 10 * time.Minute,
		Principal: testAdmin, Now: clock.Now,
	}
	if log != nil {
		cfg.Report = log.add
	}
	return NewMaintainer(cfg, cats)
}

// step finds a report's step by name.
func step(r TableReport, name string) (StepReport, bool) {
	for _, s := range r.Steps {
		if s.Step == name {
			return s, true
		}
	}
	return StepReport{}, false
}

// noFailures fails the test for a failed step of r.
func noFailures(t *testing.T, r TableReport) {
	t.Helper()
	for _, s := range r.Steps {
		if s.Outcome == OutcomeFailed || s.Outcome == OutcomeConflict {
			t.Errorf("%s: step %s %s: %v", r.Table, s.Step, s.Outcome, s.Err)
		}
	}
}

// metadataFiles counts the metadata JSON files in the table's folder.
func metadataFiles(t *testing.T, tbl *Table) int {
	t.Helper()
	dir := filepath.Dir(strings.TrimPrefix(tbl.tbl.MetadataLocation(), "file://"))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".metadata.json") {
			n++
		}
	}
	return n
}

func reload(t *testing.T, cat Catalog, name string) *Table {
	t.Helper()
	tbl, err := cat.LoadTable(adminCtx(t), "ns", name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

func setProps(t *testing.T, tbl *Table, props map[string]string) *Table {
	t.Helper()
	next, err := tbl.commitStaged(adminCtx(t), "set properties of", func(base *table.Table, _ *Table) (*table.Transaction, error) {
		tx := base.NewTransaction()
		return tx, tx.SetProperties(props)
	})
	if err != nil {
		t.Fatal(err)
	}
	return next
}

func idRange(from, to int64) []int64 {
	var out []int64
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func TestMaintenanceConvergesAfterSingleRowAppends(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := setProps(t, createIDTable(t, cat, "ns", "t"), map[string]string{"write.metadata.previous-versions-max": "5"})
	tbl = appendOneByOne(t, tbl, 0, 50)
	before := sortedRows(t, tbl)
	if n := metadataFiles(t, tbl); n < 50 {
		t.Fatalf("%d metadata files before, want at least 50", n)
	}
	clock := newFakeClock()
	clock.Advance(6 * 24 * time.Hour) // past the retention and the orphan window
	m := newTestMaintainer("a", clock, nil, cat)
	r, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	s, _ := step(r, StepRewriteData)
	if s.FilesRewritten != 50 || s.FilesAdded != 1 {
		t.Errorf("rewrite step %+v, want 50 files into 1", s)
	}
	if s, _ := step(r, StepExpireSnapshots); s.SnapshotsExpired < 50 {
		t.Errorf("expiry step %+v, want at least 50 snapshots expired", s)
	}
	after := reload(t, cat, "t")
	if got := sortedRows(t, after); !slices.Equal(got, before) {
		t.Errorf("rows changed:\n got %v\nwant %v", got, before)
	}
	if n := len(dataFilePaths(t, after)); n != 1 {
		t.Errorf("%d data files, want 1", n)
	}
	if n := parquetOnDisk(t, after); n != 1 {
		t.Errorf("%d Parquet files on disk, want 1", n)
	}
	if n := manifestCount(t, after); n > 2 {
		t.Errorf("%d manifests, want at most 2", n)
	}
	// The log keeps 5; the lease's release comes after the clean-up.
	if n := metadataFiles(t, after); n > 7 {
		t.Errorf("%d metadata files, want at most 7", n)
	}
	if _, held := leaseRef(after.tbl.Metadata()); held || after.Properties()[LeaseProperty] != "" {
		t.Errorf("the lease was not released: %v", after.Properties())
	}
	// A second pass finds nothing to commit.
	again, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, again)
	if next := reload(t, cat, "t"); next.SnapshotID() != after.SnapshotID() || next.tbl.MetadataLocation() != after.tbl.MetadataLocation() {
		t.Errorf("an idle table was committed to: %+v", again)
	}
}

func TestMaintenanceLosesNoConcurrentAppends(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 10)
	clock := newFakeClock()
	clock.Advance(6 * 24 * time.Hour)
	m := newTestMaintainer("a", clock, nil, cat)
	const writers, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := int64(100 + w*each + i)
				if _, err := tbl.Append(adminCtx(t), idBatches(t, id, id+1, 1)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	passes := 0
	for running := true; running; passes++ {
		select {
		case <-done:
			running = false
		default:
		}
		r, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Steps {
			if s.Outcome == OutcomeFailed {
				t.Errorf("pass %d: step %s failed: %v", passes, s.Step, s.Err)
			}
		}
	}
	close(errs)
	for err := range errs {
		t.Errorf("append: %v", err)
	}
	want := slices.Concat(idRange(0, 10), idRange(100, 100+writers*each))
	wantIDs(t, cat, "t", want)
	if n := len(dataFilePaths(t, reload(t, cat, "t"))); n > 5 {
		t.Errorf("%d data files after %d passes, want at most 5", n, passes)
	}
}

// tagSnapshot points a tag at snapshot id.
func tagSnapshot(t *testing.T, tbl *Table, name string, id int64) {
	t.Helper()
	cat, err := tbl.host.catalogIO(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = cat.CommitTable(adminCtx(t), table.Identifier{tbl.ident.Namespace, tbl.ident.Table},
		[]table.Requirement{table.AssertRefSnapshotID(name, nil)},
		[]table.Update{table.NewSetSnapshotRefUpdate(name, id, table.TagRef, 0, 0, 0)})
	if err != nil {
		t.Fatal(err)
	}
}

func snapshotIDs(tbl *Table) []int64 {
	var out []int64
	for _, s := range tbl.tbl.Metadata().Snapshots() {
		out = append(out, s.SnapshotID)
	}
	slices.Sort(out)
	return out
}

func TestMaintenanceExpiryKeepsRetentionAndRefs(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := setProps(t, createIDTable(t, cat, "ns", "t"), map[string]string{
		PropMinInputFiles: "1000", propManifestMergeEnabled: "false", // expiry alone
	})
	var history []int64
	for i := range int64(10) {
		next, err := tbl.Append(adminCtx(t), idBatches(t, i, i+1, 1))
		if err != nil {
			t.Fatal(err)
		}
		tbl = next
		history = append(history, tbl.SnapshotID())
	}
	tagSnapshot(t, tbl, "audit", history[2])
	clock := newFakeClock()
	m := newTestMaintainer("a", clock, nil, cat)

	// Within the retention nothing is expired.
	r, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	if got := snapshotIDs(reload(t, cat, "t")); len(got) != 10 {
		t.Errorf("%d snapshots within the retention, want 10", len(got))
	}

	// Past it, the newest two of the branch (the table says so) and the
	// tagged one stay.
	setProps(t, reload(t, cat, "t"), map[string]string{propMinSnapshotsToKeep: "2"})
	clock.Advance(6 * 24 * time.Hour)
	r, err = m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	after := reload(t, cat, "t")
	want := []int64{history[2], history[8], history[9]}
	slices.Sort(want)
	if got := snapshotIDs(after); !slices.Equal(got, want) {
		t.Errorf("snapshots %v, want %v (tagged, and the newest two)", got, want)
	}
	// The tagged snapshot's files are still there.
	fsys, err := after.tbl.FS(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	mans, err := after.tbl.Metadata().SnapshotByID(history[2]).Manifests(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for _, man := range mans {
		for e, err := range man.Entries(fsys, true) {
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(strings.TrimPrefix(e.DataFile().FilePath(), "file://")); err != nil {
				t.Errorf("a file of the tagged snapshot is gone: %v", err)
			}
		}
	}
	wantIDs(t, cat, "t", idRange(0, 10))

	// A table property shortens the retention.
	short := appendOneByOne(t, setProps(t, createIDTable(t, cat, "ns", "short"), map[string]string{
		propMaxSnapshotAge: "1", PropMinInputFiles: "1000",
	}), 0, 4)
	time.Sleep(2 * time.Millisecond) // the snapshots must be older than 1 ms
	if _, err := m.MaintainTable(t.Context(), "wh", "ns", "short"); err != nil {
		t.Fatal(err)
	}
	if got := snapshotIDs(reload(t, cat, "short")); len(got) != 1 || got[0] != short.SnapshotID() {
		t.Errorf("snapshots %v, want only the current one", got)
	}
}

func TestMaintenanceRemovesOnlyOldOrphans(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 3)
	dir := strings.TrimPrefix(tbl.tbl.Location(), "file://")
	old := filepath.Join(dir, "data", "old-orphan.parquet")
	young := filepath.Join(dir, "data", "young-orphan.parquet")
	for _, p := range []string{old, young} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Every file but the young orphan is older than the window.
	past := time.Now().Add(-4 * 24 * time.Hour)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == young {
			return err
		}
		return os.Chtimes(p, past, past)
	})
	if err != nil {
		t.Fatal(err)
	}
	m := newTestMaintainer("a", newFakeClock(), nil, cat)
	r, err := m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	if s, ok := step(r, StepOrphanFiles); !ok || s.Outcome != OutcomeDone || s.FilesRemoved != 1 {
		t.Errorf("orphan step %+v, want one file removed", s)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the old orphan is still there: %v", err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("the young orphan was removed: %v", err)
	}
	wantIDs(t, cat, "t", idRange(0, 3))

	// A table renamed keeps its location, which a new table of the old
	// name is given too: neither's orphans can be told apart.
	if _, err := cat.RenameTable(adminCtx(t), "ns", "t", "u"); err != nil {
		t.Fatal(err)
	}
	appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 10, 11)
	if err := os.Chtimes(young, past, past); err != nil {
		t.Fatal(err)
	}
	r, err = m.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := step(r, StepOrphanFiles); s.Outcome != OutcomeSkipped {
		t.Errorf("orphan step of a shared location %+v, want skipped", s)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a file in a shared location was removed: %v", err)
	}
	wantIDs(t, cat, "u", idRange(0, 3))
	wantIDs(t, cat, "t", idRange(10, 11))
}

func TestMaintenanceLeaseExcludesASecondServer(t *testing.T) {
	dir := t.TempDir()
	catA := openCatalog(t, "wh", dir, AllowAll{})
	catB := openCatalog(t, "wh", dir, AllowAll{})
	appendOneByOne(t, createIDTable(t, catA, "ns", "t"), 0, 20)
	clock := newFakeClock()
	logB := &reportLog{}
	b := newTestMaintainer("b", clock, logB, catB)

	// Server a holds the lease, as during a pass of its own.
	held, err := reload(t, catA, "t").acquireLease(adminCtx(t), "a", clock.Now(), 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := step(r, StepLease); !ok || s.Outcome != OutcomeConflict || !errors.Is(s.Err, ErrLeaseHeld) {
		t.Errorf("b's pass while a holds the lease: %+v", r.Steps)
	}
	if n := len(dataFilePaths(t, reload(t, catB, "t"))); n != 20 {
		t.Errorf("b compacted under a's lease: %d data files", n)
	}

	// Once a's lease expired (a died), b breaks it and maintains.
	clock.Advance(11 * time.Minute)
	r, err = b.MaintainTable(t.Context(), "wh", "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	if n := len(dataFilePaths(t, reload(t, catB, "t"))); n != 1 {
		t.Errorf("%d data files after b took over, want 1", n)
	}
	// a learns it lost the lease, and its release touches nothing.
	if err := held.renew(adminCtx(t), clock.Now(), 10*time.Minute); !errors.Is(err, ErrLeaseHeld) {
		t.Errorf("a renewed a lease it lost: %v", err)
	}
	if err := held.release(adminCtx(t)); err != nil {
		t.Errorf("release of a lost lease: %v", err)
	}
	wantIDs(t, catA, "t", idRange(0, 20))

	// Two servers racing for the lease: exactly one gets it.
	appendOneByOne(t, reload(t, catA, "t"), 20, 21)
	var wg sync.WaitGroup
	got := make([]error, 2)
	for i, cat := range []Catalog{catA, catB} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tbl, err := cat.LoadTable(adminCtx(t), "ns", "t")
			if err != nil {
				got[i] = err
				return
			}
			_, got[i] = tbl.acquireLease(adminCtx(t), []string{"a", "b"}[i], clock.Now(), 10*time.Minute)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range got {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrLeaseHeld):
			t.Errorf("racing for the lease: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d servers took the lease, want 1 (%v)", won, got)
	}
}

func TestMaintenanceSettingsFromProperties(t *testing.T) {
	def := DefaultMaintenanceSettings()
	tests := []struct {
		name    string
		props   map[string]string
		check   func(tableMaintenance) bool
		wantErr bool
	}{
		{"defaults", nil, func(tm tableMaintenance) bool {
			return tm.enabled && tm.gc && tm.mergeManifests && tm.DeleteOldMetadata && tm.SnapshotMaxAge == def.SnapshotMaxAge &&
				tm.MinSnapshotsToKeep == 1 && tm.MinInputFiles == 5 && tm.ManifestMinCountToMerge == 100
		}, false},
		{"retention", map[string]string{propMaxSnapshotAge: "60000", propMinSnapshotsToKeep: "3"}, func(tm tableMaintenance) bool {
			return tm.SnapshotMaxAge == time.Minute && tm.MinSnapshotsToKeep == 3
		}, false},
		{"compaction and manifests", map[string]string{PropMinInputFiles: "8", propManifestMinMerge: "10", propManifestMergeEnabled: "false"},
			func(tm tableMaintenance) bool {
				return tm.MinInputFiles == 8 && tm.ManifestMinCountToMerge == 10 && !tm.mergeManifests
			}, false},
		{"metadata", map[string]string{propMetadataDelete: "false"}, func(tm tableMaintenance) bool {
			return !tm.DeleteOldMetadata
		}, false},
		{"off", map[string]string{PropMaintenanceEnabled: "false", table.GCEnabledKey: "false"}, func(tm tableMaintenance) bool {
			return !tm.enabled && !tm.gc
		}, false},
		{"bad age", map[string]string{propMaxSnapshotAge: "five days"}, nil, true},
		{"too few input files", map[string]string{PropMinInputFiles: "1"}, nil, true},
		{"bad boolean", map[string]string{PropMaintenanceEnabled: "maybe"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm, err := def.forTable(tt.props)
			if tt.wantErr {
				if err == nil {
					t.Errorf("no error for %v", tt.props)
				}
				return
			}
			if err != nil || !tt.check(tm) {
				t.Errorf("forTable(%v) = %+v, %v", tt.props, tm, err)
			}
		})
	}
}

func TestMaintenancePropertiesSteerAPass(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	off := appendOneByOne(t, setProps(t, createIDTable(t, cat, "ns", "off"), map[string]string{PropMaintenanceEnabled: "false"}), 0, 10)
	few := appendOneByOne(t, setProps(t, createIDTable(t, cat, "ns", "few"), map[string]string{PropMinInputFiles: "20"}), 0, 10)
	m := newTestMaintainer("a", newFakeClock(), nil, cat)
	for _, tbl := range []*Table{off, few} {
		r, err := m.MaintainTable(t.Context(), "wh", "ns", tbl.ident.Table)
		if err != nil {
			t.Fatal(err)
		}
		noFailures(t, r)
		if got := reload(t, cat, tbl.ident.Table); got.tbl.MetadataLocation() != tbl.tbl.MetadataLocation() {
			t.Errorf("%s: the pass committed (%+v)", tbl.ident.Table, r.Steps)
		}
	}
	// Below min-input-files, but past commit.manifest.min-count-to-merge:
	// the manifests alone are merged.
	setProps(t, reload(t, cat, "few"), map[string]string{propManifestMinMerge: "5"})
	r, err := m.MaintainTable(t.Context(), "wh", "ns", "few")
	if err != nil {
		t.Fatal(err)
	}
	noFailures(t, r)
	after := reload(t, cat, "few")
	if s, ok := step(r, StepRewriteManifests); !ok || s.ManifestsRewritten != 10 || s.FilesRewritten != 0 {
		t.Errorf("manifest step %+v (steps %+v)", s, r.Steps)
	}
	if n := len(dataFilePaths(t, after)); n != 10 || manifestCount(t, after) != 1 {
		t.Errorf("%d data files and %d manifests, want 10 and 1", n, manifestCount(t, after))
	}
}

func TestMaintainerTriggersAfterCommits(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	clock := newFakeClock()
	log := &reportLog{}
	m := NewMaintainer(MaintainerConfig{
		Node: "a", Settings: DefaultMaintenanceSettings(), Interval: time.Hour, CommitTrigger: 10,
		Debounce: time.Minute, Principal: testAdmin, Now: clock.Now, Report: log.add,
	}, []Catalog{cat})
	m.ObserveCommits()
	tbl = appendOneByOne(t, tbl, 0, 9)
	clock.Advance(2 * time.Minute)
	m.Tick(t.Context())
	if n := len(dataFilePaths(t, reload(t, cat, "t"))); n != 9 {
		t.Errorf("9 commits (below the trigger) were compacted: %d data files", n)
	}
	appendOneByOne(t, tbl, 9, 10)
	m.Tick(t.Context()) // within the debounce
	if n := len(dataFilePaths(t, reload(t, cat, "t"))); n != 10 {
		t.Errorf("compacted within the debounce: %d data files", n)
	}
	clock.Advance(2 * time.Minute)
	m.Tick(t.Context())
	if n := len(dataFilePaths(t, reload(t, cat, "t"))); n != 1 {
		t.Errorf("%d data files after the trigger, want 1", n)
	}
	reports := log.all()
	if len(reports) != 1 || reports[0].Scheduled {
		t.Fatalf("reports %+v, want one triggered pass", reports)
	}
	noFailures(t, reports[0])

	// The schedule passes over every table, orphans included.
	clock.Advance(time.Hour)
	m.Tick(t.Context())
	reports = log.all()
	if len(reports) != 2 || !reports[1].Scheduled {
		t.Fatalf("reports %+v, want a scheduled pass after the interval", reports)
	}
	if _, ok := step(reports[1], StepOrphanFiles); !ok {
		t.Errorf("scheduled pass %+v has no orphan step", reports[1])
	}
	wantIDs(t, cat, "t", idRange(0, 10))
}
