package storage

import (
	"errors"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// taskView is what a plan says about one task, comparable with ==.
type taskView struct {
	path          string
	start, length int64
	seq           int64
	residual      bool
	deletes       int
}

func viewTasks(tasks []table.FileScanTask) []taskView {
	out := make([]taskView, len(tasks))
	for i, task := range tasks {
		out[i] = taskView{
			path:     task.File.FilePath(),
			start:    task.Start,
			length:   task.Length,
			seq:      sequenceOf(task),
			residual: task.Residual != nil,
			deletes:  len(task.DeleteFiles) + len(task.EqualityDeleteFiles) + len(task.DeletionVectorFiles),
		}
	}
	return out
}

// appendIDs commits rows with ids [from, to) as one snapshot.
func appendIDs(t testing.TB, tbl *Table, from, to int64) *Table {
	t.Helper()
	next, err := tbl.Append(adminCtx(t), idBatches(t, from, to, to-from))
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return next
}

// tenRowCommits is a table of six commits of ten rows each, ids 0..59,
// so that a filter on id prunes whole files by their statistics.
func tenRowCommits(t *testing.T) *Table {
	t.Helper()
	tbl := createIDTable(t, openCatalog(t, "wh", "", AllowAll{}), "ns", "t")
	for lo := int64(0); lo < 60; lo += 10 {
		tbl = appendIDs(t, tbl, lo, lo+10)
	}
	return tbl
}

func TestPlanCacheAnswersAsPlanning(t *testing.T) {
	tbl := tenRowCommits(t)
	ctx := adminCtx(t)
	id := iceberg.Reference("id")
	for _, tt := range []struct {
		name   string
		filter iceberg.BooleanExpression
		limit  int64
		files  int
	}{
		{name: "no filter", files: 6},
		{name: "filter keeping every file", filter: iceberg.GreaterThanEqual(id, int64(0)), files: 6},
		{name: "filter pruning files", filter: iceberg.GreaterThanEqual(id, int64(30)), files: 3},
		{name: "filter pruning every file", filter: iceberg.LessThan(id, int64(0)), files: 0},
		{name: "set of strings", filter: iceberg.IsIn(iceberg.Reference("name"), "n5", "n45"), files: 2},
		{name: "limit", limit: 5, files: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := planFiles(ctx, tbl.tbl, tt.filter, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != tt.files {
				t.Fatalf("planning found %d files, want %d", len(want), tt.files)
			}
			cache := newPlanCache(8, 1000)
			for round := range 2 {
				got, err := cache.plan(ctx, tbl.tbl, tt.filter, tt.limit)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(viewTasks(got), viewTasks(want)) {
					t.Fatalf("round %d: cached plan %v, planning says %v", round, viewTasks(got), viewTasks(want))
				}
			}
			if n := cache.entries.len(); n != 1 {
				t.Errorf("cache holds %d plans after planning one scan twice, want 1", n)
			}
		})
	}
}

func TestPlanKeyTellsFiltersApart(t *testing.T) {
	tbl := tenRowCommits(t)
	id, name := iceberg.Reference("id"), iceberg.Reference("name")
	for _, tt := range []struct {
		name string
		a, b iceberg.BooleanExpression
		same bool
	}{
		{name: "nil is every row", a: nil, b: iceberg.AlwaysTrue{}, same: true},
		{name: "literals that bind to one value", a: iceberg.EqualTo(id, int32(5)), b: iceberg.EqualTo(id, int64(5)), same: true},
		{name: "set members in another order", a: iceberg.IsIn(name, "a", "b", "c"), b: iceberg.IsIn(name, "c", "a", "b"), same: true},
		{name: "set members that print alike", a: iceberg.IsIn(name, "a b", "c"), b: iceberg.IsIn(name, "a", "b c")},
		{name: "other column", a: iceberg.EqualTo(name, "5"), b: iceberg.IsNull(name)},
		{name: "other value", a: iceberg.EqualTo(id, int64(5)), b: iceberg.EqualTo(id, int64(6))},
		{name: "other operator", a: iceberg.LessThan(id, int64(5)), b: iceberg.LessThanEqual(id, int64(5))},
		{name: "negation", a: iceberg.IsNull(name), b: iceberg.NotNull(name)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ka, okA := planKeyFor(tbl.tbl, tt.a, 0)
			kb, okB := planKeyFor(tbl.tbl, tt.b, 0)
			if !okA || !okB {
				t.Fatalf("no key: %v %v", okA, okB)
			}
			if (ka == kb) != tt.same {
				t.Errorf("keys equal = %v, want %v", ka == kb, tt.same)
			}
		})
	}
}

func TestPlanKeyNeedsABoundFilter(t *testing.T) {
	tbl := tenRowCommits(t)
	if _, ok := planKeyFor(tbl.tbl, iceberg.EqualTo(iceberg.Reference("nope"), int64(1)), 0); ok {
		t.Error("a filter on an unknown column got a key")
	}
	empty := createIDTable(t, openCatalog(t, "wh", "", AllowAll{}), "ns", "empty")
	if _, ok := planKeyFor(empty.tbl, nil, 0); ok {
		t.Error("a table without a snapshot got a key")
	}
}

func TestPlanCacheHandsOutCopies(t *testing.T) {
	tbl := tenRowCommits(t)
	ctx := adminCtx(t)
	cache := newPlanCache(8, 1000)
	first, err := cache.plan(ctx, tbl.tbl, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := viewTasks(first)
	// What a rewrite does to its plan, and more.
	for i := range first {
		first[i].Residual = iceberg.AlwaysFalse{}
		first[i].Start, first[i].Length = 1, 2
	}
	slices.Reverse(first)
	again, err := cache.plan(ctx, tbl.tbl, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := viewTasks(again); !slices.Equal(got, want) {
		t.Errorf("plan after the caller changed its copy: %v, want %v", got, want)
	}
}

func TestPlanCacheKeepsSnapshotsApart(t *testing.T) {
	older := tenRowCommits(t)
	newer := appendIDs(t, older, 60, 70)
	ctx := adminCtx(t)
	cache := newPlanCache(8, 1000)
	for _, step := range []struct {
		tbl   *Table
		files int
	}{{older, 6}, {newer, 7}, {older, 6}, {newer, 7}} {
		tasks, err := cache.plan(ctx, step.tbl.tbl, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(tasks) != step.files {
			t.Errorf("snapshot %d: %d files, want %d", step.tbl.SnapshotID(), len(tasks), step.files)
		}
	}
	if n := cache.entries.len(); n != 2 {
		t.Errorf("cache holds %d plans for two snapshots, want 2", n)
	}
}

func TestPlanCacheEvictionKeepsBounds(t *testing.T) {
	type step struct {
		get   bool
		key   int64
		tasks int
	}
	put := func(key int64, tasks int) step { return step{key: key, tasks: tasks} }
	get := func(key int64) step { return step{get: true, key: key} }
	for _, tt := range []struct {
		name          string
		entries, max  int
		steps         []step
		kept, dropped []int64
	}{
		{name: "entry bound drops the oldest", entries: 2, max: 100,
			steps: []step{put(1, 1), put(2, 1), put(3, 1)}, kept: []int64{2, 3}, dropped: []int64{1}},
		{name: "task bound drops the oldest", entries: 10, max: 5,
			steps: []step{put(1, 2), put(2, 2), put(3, 2)}, kept: []int64{2, 3}, dropped: []int64{1}},
		{name: "task bound drops several", entries: 10, max: 5,
			steps: []step{put(1, 2), put(2, 2), put(3, 5)}, kept: []int64{3}, dropped: []int64{1, 2}},
		{name: "a read plan is kept", entries: 2, max: 100,
			steps: []step{put(1, 1), put(2, 1), get(1), put(3, 1)}, kept: []int64{1, 3}, dropped: []int64{2}},
		{name: "a plan over the bound is not cached", entries: 10, max: 5,
			steps: []step{put(1, 2), put(2, 6)}, kept: []int64{1}, dropped: []int64{2}},
		{name: "a replaced plan is counted once", entries: 10, max: 5,
			steps: []step{put(1, 3), put(1, 3), put(2, 2)}, kept: []int64{1, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cache := newPlanCache(tt.entries, tt.max)
			for _, s := range tt.steps {
				k := planKey{snapshotID: s.key}
				if s.get {
					cache.get(k)
				} else {
					cache.put(k, make([]table.FileScanTask, s.tasks))
				}
				if cache.entries.len() > tt.entries || cache.entries.held() > tt.max {
					t.Fatalf("after %+v: %d plans, %d tasks; bounds %d and %d",
						s, cache.entries.len(), cache.entries.held(), tt.entries, tt.max)
				}
			}
			held := 0
			for _, key := range tt.kept {
				tasks, ok := cache.get(planKey{snapshotID: key})
				if !ok {
					t.Errorf("plan %d was dropped", key)
				}
				held += len(tasks)
			}
			for _, key := range tt.dropped {
				if _, ok := cache.get(planKey{snapshotID: key}); ok {
					t.Errorf("plan %d is still cached", key)
				}
			}
			if cache.entries.held() != held {
				t.Errorf("cache counts %d tasks, its plans hold %d", cache.entries.held(), held)
			}
		})
	}
}

func TestPlanCacheConcurrentScans(t *testing.T) {
	tbl := tenRowCommits(t)
	ctx := adminCtx(t)
	requests := []struct {
		req  ScanRequest
		rows int
	}{
		{ScanRequest{Columns: []string{"id"}}, 60},
		{ScanRequest{Filter: iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(30))}, 30},
		{ScanRequest{Columns: []string{"name"}, Limit: 7}, 7},
	}
	countRows := func(st RecordStream) (int, error) {
		defer st.Close()
		n := 0
		for {
			rec, err := st.Next()
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			if err != nil {
				return n, err
			}
			n += int(rec.NumRows())
			rec.Release()
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 6 {
				r := requests[(g+i)%len(requests)]
				st, err := tbl.Scan(ctx, r.req)
				if err != nil {
					t.Errorf("Scan: %v", err)
					return
				}
				n, err := countRows(st)
				if err != nil || n != r.rows {
					t.Errorf("scan %+v: %d rows, %v; want %d", r.req, n, err, r.rows)
				}
				// A rewrite changes its plan's tasks; no other scan may see it.
				tasks, err := tbl.planInCommitOrder(ctx, nil, 0)
				if err != nil {
					t.Errorf("plan: %v", err)
					return
				}
				for j := range tasks {
					tasks[j].Residual = nil
					tasks[j].Start++
				}
			}
		})
	}
	wg.Wait()
}

func TestLimitedScanSkipsFilesAStagedDeleteRemoved(t *testing.T) {
	tbl := createIDTable(t, openCatalog(t, "wh", "", AllowAll{}), "ns", "t")
	tbl = appendIDs(t, tbl, 0, 1)
	tbl = appendIDs(t, tbl, 1, 2)
	ctx := adminCtx(t)
	// A transaction block deletes id 1: its file, the newest, is removed.
	rw, err := tbl.BeginStagedRewrite(ctx, iceberg.EqualTo(iceberg.Reference("id"), int64(1)))
	if err != nil {
		t.Fatal(err)
	}
	if rw.Files() != 1 {
		t.Fatalf("the rewrite reads %d files, want 1", rw.Files())
	}
	w, err := rw.Stage(ctx, []FileRewrite{{File: 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	view, err := tbl.WithStaged([]*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, view, ScanRequest{Columns: []string{"id"}, Limit: 1})
	if want := [][]any{{int64(0)}}; !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows %v, want %v", rows, want)
	}
}

// TestPlanCacheDigestsByMetadataFile checks that the metadata digest is
// remembered by metadata file only: two tables "located" at one folder
// (as a transaction's staged table is) get their own digests.
func TestPlanCacheDigestsByMetadataFile(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	a, b := createIDTable(t, cat, "ns", "a"), createIDTable(t, cat, "ns", "b")
	c := newPlanCache(planCacheEntries, planCacheTasks)
	at := func(tbl *Table, loc string) [32]byte {
		t.Helper()
		d, ok := c.metadataDigest(table.New(tbl.tbl.Identifier(), tbl.tbl.Metadata(), loc, tbl.tbl.FS, nil))
		if !ok {
			t.Fatal("no digest")
		}
		return d
	}
	if at(a, "wh/ns/t") == at(b, "wh/ns/t") {
		t.Error("two tables at one folder share a digest")
	}
	if at(a, a.tbl.MetadataLocation()) != at(a, a.tbl.MetadataLocation()) {
		t.Error("one metadata file, two digests")
	}
	if at(b, b.tbl.MetadataLocation()) == at(a, a.tbl.MetadataLocation()) {
		t.Error("two metadata files share a digest")
	}
}
