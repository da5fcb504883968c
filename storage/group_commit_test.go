package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// appendResult is what one concurrent Append returned.
type appendResult struct {
	from  int64 // first id it appended
	table *Table
	err   error
}

// heldAppends starts one Append of ten ids per entry of ctxs (ids 10*i to
// 10*i+9) while the test holds the table's commit lock, and waits until
// all of them are queued on the table's line, so that they meet in one
// group when unlock is called. They start one after another, so the
// first leads the group. None may return before unlock.
func heldAppends(t *testing.T, cat *embeddedCatalog, tbl *Table, ctxs []context.Context) (results <-chan appendResult, unlock func()) {
	t.Helper()
	unlock, err := cat.lockTable(adminCtx(t), tbl.ident)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan appendResult, len(ctxs))
	for i, ctx := range ctxs {
		from := int64(10 * i)
		go func() {
			after, err := tbl.Append(ctx, idBatches(t, from, from+10, 10))
			out <- appendResult{from: from, table: after, err: err}
		}()
		waitQueued(t, cat, tbl, i+1)
	}
	select {
	case r := <-out:
		unlock()
		t.Fatalf("an append returned before its group could commit: %+v", r)
	default:
	}
	return out, unlock
}

// waitQueued waits until n changes are queued on tbl's line.
func waitQueued(t *testing.T, cat *embeddedCatalog, tbl *Table, n int) {
	t.Helper()
	groups, key := cat.commitLines(adminCtx(t), tbl.ident)
	start := time.Now()
	for {
		groups.mu.Lock()
		queued := 0
		if line := groups.lines[key]; line != nil {
			queued = len(line.queued)
		}
		groups.mu.Unlock()
		if queued == n {
			return
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("%d changes queued after a minute, want %d", queued, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func collect(results <-chan appendResult, n int) []appendResult {
	out := make([]appendResult, n)
	for i := range out {
		out[i] = <-results
	}
	slices.SortFunc(out, func(a, b appendResult) int { return int(a.from - b.from) })
	return out
}

// Appends that wait while a commit is in flight are committed together, in
// one snapshot, and each is acknowledged only after that snapshot's files
// are flushed.
func TestGroupedAppendsShareOneDurableSnapshot(t *testing.T) {
	f := newDurabilityFixture(t)
	rec := &syncRecorder{}
	f.cat.sync = rec
	before := len(f.b.tbl.Metadata().Snapshots())
	const n = 8
	ctxs := make([]context.Context, n)
	for i := range ctxs {
		ctxs[i] = adminCtx(t)
	}
	results, unlock := heldAppends(t, f.cat, f.b, ctxs)
	if got := rec.synced(); len(got) != 0 {
		t.Fatalf("flushed before the group's commit: %v", got)
	}
	unlock()
	var snapshot int64
	for _, r := range collect(results, n) {
		if r.err != nil {
			t.Fatalf("append of %d: %v", r.from, r.err)
		}
		snap := r.table.tbl.CurrentSnapshot()
		if snapshot == 0 {
			snapshot = snap.SnapshotID
		} else if snap.SnapshotID != snapshot {
			t.Errorf("append of %d acknowledged with snapshot %d, others with %d", r.from, snap.SnapshotID, snapshot)
		}
		meta, _ := localPath(r.table.tbl.MetadataLocation())
		if !slices.Contains(rec.synced(), meta) {
			t.Errorf("append of %d acknowledged before its metadata file %s was flushed", r.from, meta)
		}
	}
	final, err := f.cat.LoadTable(adminCtx(t), "ns", "b")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(final.tbl.Metadata().Snapshots()) - before; got != 1 {
		t.Errorf("%d snapshots for %d grouped appends, want 1", got, n)
	}
	checkIDs(t, final, n*10)
	var parquet int
	for _, p := range rec.synced() {
		if strings.HasSuffix(p, ".parquet") {
			parquet++
		}
	}
	// The appends are small: the leader wrote their rows to one file.
	if parquet != 1 {
		t.Errorf("%d data files flushed, want 1 for the group's %d small appends", parquet, n)
	}
}

// An append larger than the leader takes as rows writes its own files
// before it queues, and commits with the small ones.
func TestLargeAppendWritesItsOwnFiles(t *testing.T) {
	f := newDurabilityFixture(t)
	ctx := adminCtx(t)
	unlock, err := f.cat.lockTable(ctx, f.b.ident)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	go func() {
		_, err := f.b.Append(ctx, idBatches(t, 0, groupedAppendRows+1, 4096))
		done <- err
	}()
	waitQueued(t, f.cat, f.b, 1)
	go func() {
		_, err := f.b.Append(ctx, idBatches(t, groupedAppendRows+1, groupedAppendRows+2, 1))
		done <- err
	}()
	waitQueued(t, f.cat, f.b, 2)
	lines, key := f.cat.commitLines(ctx, f.b.ident)
	lines.mu.Lock()
	queued := slices.Clone(lines.lines[key].queued)
	lines.mu.Unlock()
	if len(queued[0].files) == 0 || queued[0].batches != nil {
		t.Errorf("large append queued %d files and %d batches, want files only", len(queued[0].files), len(queued[0].batches))
	}
	if len(queued[1].files) != 0 || len(queued[1].batches) != 1 {
		t.Errorf("one-row append queued %d files and %d batches, want its batch", len(queued[1].files), len(queued[1].batches))
	}
	unlock()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	final, err := f.cat.LoadTable(ctx, "ns", "b")
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, final, groupedAppendRows+2)
}

// A statement that fails on its own (bad input, or cancelled while its
// group had not been taken) fails alone: the rest of the group commits.
func TestGroupedAppendFailsAlone(t *testing.T) {
	f := newDurabilityFixture(t)
	ctx := adminCtx(t)
	cancelled, cancel := context.WithCancel(ctx)
	ctxs := []context.Context{ctx, ctx, cancelled, ctx}
	results, unlock := heldAppends(t, f.cat, f.b, ctxs)

	// A NULL id in the NOT NULL column fails before it queues.
	b := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
	b.Field(0).AppendNull()
	b.Field(1).(*array.StringBuilder).Append("bad")
	rec := b.NewRecordBatch()
	b.Release()
	rdr, err := array.NewRecordReader(idSchema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.b.Append(ctx, rdr); !errors.Is(err, ErrConstraint) {
		t.Errorf("append of a NULL id: %v, want ErrConstraint", err)
	}
	cancel()
	waitQueued(t, f.cat, f.b, len(ctxs)-1)
	unlock()
	for _, r := range collect(results, len(ctxs)) {
		switch {
		case r.from == 20 && !errors.Is(r.err, context.Canceled):
			t.Errorf("cancelled append: %v, want context.Canceled", r.err)
		case r.from != 20 && r.err != nil:
			t.Errorf("append of %d failed with its neighbour: %v", r.from, r.err)
		}
	}
	final, err := f.cat.LoadTable(ctx, "ns", "b")
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, final, ScanRequest{Columns: []string{"id"}})
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r[0].(int64))
	}
	slices.Sort(ids)
	var want []int64
	for _, from := range []int64{0, 10, 30} {
		for i := range int64(10) {
			want = append(want, from+i)
		}
	}
	if !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	// The three committed appends share one file; the cancelled one's
	// rows were never written.
	if files := filesUnder(t, filepath.Join(f.tableDir(t, f.b), "data")); len(files) != 1 {
		t.Errorf("%d data files, want the one committed: %v", len(files), files)
	}
}

// A group whose commit fails fails every statement in it, and commits
// none of their rows; the next group starts afresh.
func TestGroupCommitFailureFailsTheGroup(t *testing.T) {
	f := newDurabilityFixture(t)
	f.cat.sync = &syncRecorder{fail: func(p string) bool { return strings.HasSuffix(p, ".metadata.json") }}
	ctx := adminCtx(t)
	results, unlock := heldAppends(t, f.cat, f.b, []context.Context{ctx, ctx, ctx})
	unlock()
	for _, r := range collect(results, 3) {
		if code := pgerror.Code(r.err); code != pgerror.IOError {
			t.Errorf("append of %d: SQLSTATE %s (%v), want %s", r.from, code, r.err, pgerror.IOError)
		}
	}
	f.cat.sync = &syncRecorder{}
	after, err := f.b.Append(ctx, idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	checkIDs(t, after, 10)
}

// On a REST catalog where each request carries its caller's token, a
// group holds one caller's appends only; the embedded catalog groups
// every caller's.
func TestCommitLinesOnRESTAreOneCallers(t *testing.T) {
	id := Ident{Catalog: "wh", Namespace: "ns", Table: "t"}
	alice := WithPrincipal(t.Context(), Principal{User: "alice", Token: "a-token"})
	bob := WithPrincipal(t.Context(), Principal{User: "bob", Token: "b-token"})

	perUser := &restCatalog{lines: newCommitLines()}
	_, ka := perUser.commitLines(alice, id)
	_, kb := perUser.commitLines(bob, id)
	if ka == kb {
		t.Errorf("per-user REST catalog: alice and bob share the line %q", ka)
	}
	service := &restCatalog{cfg: RESTConfig{ServiceToken: "svc"}, lines: newCommitLines()}
	_, ka = service.commitLines(alice, id)
	_, kb = service.commitLines(bob, id)
	if ka != kb {
		t.Errorf("REST catalog with a service token: lines %q and %q, want one", ka, kb)
	}
	embedded := openCatalog(t, "wh", "", AllowAll{}).(*embeddedCatalog)
	_, ka = embedded.commitLines(alice, id)
	_, kb = embedded.commitLines(bob, id)
	if ka != kb {
		t.Errorf("embedded catalog: lines %q and %q, want one", ka, kb)
	}
}

// deleteID deletes the row with id from tbl through the commit line, as a
// DELETE outside a transaction block does, and sends the outcome on the
// returned channel. It reports on read, when set, the ids it read.
func deleteID(ctx context.Context, tbl *Table, id int64, read chan<- []int64) <-chan error {
	out := make(chan error, 1)
	go func() {
		rw, err := tbl.BeginRewrite(ctx, nil)
		if err != nil {
			out <- err
			return
		}
		defer rw.Close()
		var seen []int64
		var rewrites []FileRewrite
		for f := range rw.Files() {
			batches, err := rw.ReadFile(ctx, f)
			if err != nil {
				out <- err
				return
			}
			fr := FileRewrite{File: f}
			changed := false
			for _, b := range batches {
				col := b.Column(0).(*array.Int64)
				keep := array.NewInt64Builder(memory.DefaultAllocator)
				names := array.NewStringBuilder(memory.DefaultAllocator)
				for i := range col.Len() {
					seen = append(seen, col.Value(i))
					if col.Value(i) == id {
						changed = true
						continue
					}
					keep.Append(col.Value(i))
					names.Append(b.Column(1).(*array.String).Value(i))
				}
				k, n := keep.NewArray(), names.NewArray()
				if k.Len() > 0 {
					fr.Keep = append(fr.Keep, array.NewRecordBatch(b.Schema(), []arrow.Array{k, n}, int64(k.Len())))
				}
				k.Release()
				n.Release()
				keep.Release()
				names.Release()
				b.Release()
			}
			if changed {
				rewrites = append(rewrites, fr)
			} else {
				releaseAll(fr.Keep)
			}
		}
		if read != nil {
			slices.Sort(seen)
			read <- seen
		}
		_, err = rw.Commit(ctx, rewrites, nil)
		for _, fr := range rewrites {
			releaseAll(fr.Keep)
		}
		out <- err
	}()
	return out
}

// committedFiles is the number of data files of tbl's current snapshot.
func committedFiles(t *testing.T, tbl *Table) int {
	t.Helper()
	tasks, err := tbl.planInCommitOrder(adminCtx(t), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(tasks)
}

// Rewrites queued behind one another read the changes ahead of them,
// and the group commits their net effect: the files they replaced in
// turn are removed, the last replacement is committed.
func TestGroupedRewritesReadTheChangesAheadOfThem(t *testing.T) {
	f := newDurabilityFixture(t) // table a: ids 0, 1, 2 in a file each, 10 to 12 in one
	ctx := adminCtx(t)
	before := len(f.a.tbl.Metadata().Snapshots())
	unlock, err := f.cat.lockTable(ctx, f.a.ident)
	if err != nil {
		t.Fatal(err)
	}
	first := deleteID(ctx, f.a, 10, nil)
	waitQueued(t, f.cat, f.a, 1)
	read := make(chan []int64, 1)
	second := deleteID(ctx, f.a, 11, read)
	if got := <-read; !slices.Equal(got, []int64{0, 1, 2, 11, 12}) {
		t.Errorf("the second DELETE read %v, want the first's change applied", got)
	}
	waitQueued(t, f.cat, f.a, 2)
	appended := make(chan error, 1)
	go func() {
		_, err := f.a.Append(ctx, idBatches(t, 100, 103, 10))
		appended <- err
	}()
	waitQueued(t, f.cat, f.a, 3)
	unlock()
	for name, ch := range map[string]<-chan error{"first delete": first, "second delete": second, "append": appended} {
		if err := <-ch; err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	wantIDs(t, f.cat, "a", []int64{0, 1, 2, 12, 100, 101, 102})
	final, err := f.cat.LoadTable(ctx, "ns", "a")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(final.tbl.Metadata().Snapshots()) - before; got != 1 {
		t.Errorf("%d snapshots for one group, want 1", got)
	}
	if disk, committed := parquetOnDisk(t, final), committedFiles(t, final); disk != committed+1 {
		// The file of ids 10 to 12 stays for time travel; the first
		// DELETE's file of 11 and 12, replaced by the second's, is gone.
		t.Errorf("%d Parquet files on disk, want the %d committed and the replaced original", disk, committed)
	}
}

// blockingSync fails or passes the flush of a metadata file once release
// is closed, after saying on started that it was reached.
func blockingSync(fail bool) (rec *syncRecorder, started <-chan struct{}, release chan<- struct{}) {
	s, r := make(chan struct{}), make(chan struct{})
	var once sync.Once
	rec = &syncRecorder{fail: func(p string) bool {
		if !strings.HasSuffix(p, ".metadata.json") {
			return false
		}
		once.Do(func() { close(s) })
		<-r
		return fail
	}}
	return rec, s, r
}

// A rewrite reads the changes of the group in flight; when that group
// commits, the rewrite commits in the next one.
func TestRewriteReadsTheGroupInFlight(t *testing.T) {
	f := newDurabilityFixture(t)
	ctx := adminCtx(t)
	rec, started, release := blockingSync(false)
	f.cat.sync = rec
	first := deleteID(ctx, f.a, 10, nil)
	<-started
	read := make(chan []int64, 1)
	second := deleteID(ctx, f.a, 11, read)
	if got := <-read; !slices.Equal(got, []int64{0, 1, 2, 11, 12}) {
		t.Errorf("the second DELETE read %v, want the change in flight applied", got)
	}
	waitQueued(t, f.cat, f.a, 1)
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	wantIDs(t, f.cat, "a", []int64{0, 1, 2, 12})
}

// When a group fails, the rewrite queued behind it, which read its
// change, fails with a RerunConflict; run again, it commits.
func TestFailedGroupFailsTheRewritesThatReadIt(t *testing.T) {
	f := newDurabilityFixture(t)
	ctx := adminCtx(t)
	rec, started, release := blockingSync(true)
	f.cat.sync = rec
	first := deleteID(ctx, f.a, 10, nil)
	<-started
	second := deleteID(ctx, f.a, 11, nil)
	waitQueued(t, f.cat, f.a, 1)
	close(release)
	if err := <-first; pgerror.Code(err) != pgerror.IOError {
		t.Errorf("first DELETE: %v, want SQLSTATE %s", err, pgerror.IOError)
	}
	var rerun *RerunConflict
	if err := <-second; !errors.As(err, &rerun) {
		t.Fatalf("second DELETE: %v, want a RerunConflict", err)
	}
	f.cat.sync = &syncRecorder{}
	if err := <-deleteID(ctx, f.a, 11, nil); err != nil {
		t.Fatal(err)
	}
	wantIDs(t, f.cat, "a", []int64{0, 1, 2, 10, 12})
}

// A rewrite whose files another process replaced before its group
// committed fails with a RerunConflict; an append in its group commits.
func TestGroupedRewriteAfterAnotherProcessReplaced(t *testing.T) {
	dir := t.TempDir()
	a := openCatalog(t, "wh", dir, AllowAll{}).(*embeddedCatalog)
	other := openCatalog(t, "wh", dir, AllowAll{})
	ctx := adminCtx(t)
	tbl := appendOneByOne(t, createIDTable(t, a, "ns", "t"), 0, 3)
	unlock, err := a.lockTable(ctx, tbl.ident)
	if err != nil {
		t.Fatal(err)
	}
	mine := deleteID(ctx, tbl, 1, nil)
	waitQueued(t, a, tbl, 1)
	appended := make(chan error, 1)
	go func() {
		_, err := tbl.Append(ctx, idBatches(t, 100, 101, 1))
		appended <- err
	}()
	waitQueued(t, a, tbl, 2)
	theirs, err := other.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := <-deleteID(ctx, theirs, 2, nil); err != nil {
		t.Fatal(err)
	}
	unlock()
	var rerun *RerunConflict
	if err := <-mine; !errors.As(err, &rerun) {
		t.Errorf("DELETE after another process's: %v, want a RerunConflict", err)
	}
	if err := <-appended; err != nil {
		t.Errorf("append grouped with it: %v", err)
	}
	wantIDs(t, a, "t", []int64{0, 1, 100})
}

// Many rewrites and appends on one table at once, with flushes slow
// enough that groups form: every DELETE ends committed (run again after
// a RerunConflict, as the SQL layer does), every append commits, and the
// table holds exactly the rows that should remain.
func TestConcurrentRewritesAndAppends(t *testing.T) {
	f := newDurabilityFixture(t) // table a: ids 0, 1, 2 and 10 to 12
	ctx := adminCtx(t)
	tbl, err := f.a.Append(ctx, idBatches(t, 100, 164, 64))
	if err != nil {
		t.Fatal(err)
	}
	f.cat.sync = &syncRecorder{fail: func(string) bool { time.Sleep(200 * time.Microsecond); return false }}
	const workers, perWorker = 8, 8
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers)
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				id := int64(100 + w*perWorker + i)
				for attempt := 1; ; attempt++ {
					err := <-deleteID(ctx, tbl, id, nil)
					var rerun *RerunConflict
					if errors.As(err, &rerun) && attempt < 20 {
						continue
					}
					if err != nil {
						errs <- fmt.Errorf("delete %d: %w", id, err)
						return
					}
					break
				}
			}
		})
		wg.Go(func() {
			for i := range perWorker {
				from := int64(1000 + (w*perWorker+i)*2)
				if _, err := tbl.Append(ctx, idBatches(t, from, from+2, 2)); err != nil {
					errs <- fmt.Errorf("append %d: %w", from, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	final, err := f.cat.LoadTable(ctx, "ns", "a")
	if err != nil {
		t.Fatal(err)
	}
	want := []int64{0, 1, 2, 10, 11, 12}
	for i := range int64(2 * workers * perWorker) {
		want = append(want, 1000+i)
	}
	if got := ids(t, final); !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}

// pausingHost is the embedded catalog with a pause after its first
// reload of a table.
type pausingHost struct {
	*embeddedCatalog
	once  *sync.Once
	pause func()
}

func (h pausingHost) reloadTable(ctx context.Context, id Ident) (*table.Table, error) {
	tbl, err := h.embeddedCatalog.reloadTable(ctx, id)
	h.once.Do(h.pause)
	return tbl, err
}

// A rewrite that read the catalog just before a group committed, and
// looks at the line just after that group ended, must not take the
// catalog it read with no changes pending: it reads again.
func TestRewriteReadsAgainWhenAGroupEndsMeanwhile(t *testing.T) {
	f := newDurabilityFixture(t) // table a: ids 0, 1, 2 and 10 to 12
	ctx := adminCtx(t)
	rec, started, release := blockingSync(false)
	f.cat.sync = rec
	first := deleteID(ctx, f.a, 10, nil)
	<-started // the first DELETE's group is committing

	reloaded, resume := make(chan struct{}), make(chan struct{})
	paused := *f.a
	paused.host = pausingHost{embeddedCatalog: f.cat, once: &sync.Once{}, pause: func() {
		close(reloaded)
		<-resume
	}}
	read := make(chan []int64, 1)
	second := deleteID(ctx, &paused, 11, read)
	<-reloaded // it read the table before the first DELETE's commit
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	close(resume)
	if got := <-read; !slices.Equal(got, []int64{0, 1, 2, 11, 12}) {
		t.Errorf("the second DELETE read %v, want the first's change", got)
	}
	if err := <-second; err != nil {
		t.Fatalf("second DELETE: %v", err)
	}
	wantIDs(t, f.cat, "a", []int64{0, 1, 2, 12})
}

// wantIDs checks that table ns.name of cat holds exactly the ids want,
// in ascending order.
func wantIDs(t *testing.T, cat Catalog, name string, want []int64) {
	t.Helper()
	tbl, err := cat.LoadTable(adminCtx(t), "ns", name)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, tbl); !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}
