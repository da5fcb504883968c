package storage

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

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

// waitQueued waits until n appends are queued on tbl's line.
func waitQueued(t *testing.T, cat *embeddedCatalog, tbl *Table, n int) {
	t.Helper()
	groups, key := cat.appendQueue(adminCtx(t), tbl.ident)
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
		if t.Context().Err() != nil {
			t.Fatalf("%d appends queued, want %d", queued, n)
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
	if parquet != n {
		t.Errorf("%d data files flushed, want the group's %d", parquet, n)
	}
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
	// The cancelled statement's file was removed, not left for cleanup.
	if files := filesUnder(t, filepath.Join(f.tableDir(t, f.b), "data")); len(files) != 3 {
		t.Errorf("%d data files, want the 3 committed: %v", len(files), files)
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
func TestAppendLinesOnRESTAreOneCallers(t *testing.T) {
	id := Ident{Catalog: "wh", Namespace: "ns", Table: "t"}
	alice := WithPrincipal(t.Context(), Principal{User: "alice", Token: "a-token"})
	bob := WithPrincipal(t.Context(), Principal{User: "bob", Token: "b-token"})

	perUser := &restCatalog{appends: newAppendGroups()}
	_, ka := perUser.appendQueue(alice, id)
	_, kb := perUser.appendQueue(bob, id)
	if ka == kb {
		t.Errorf("per-user REST catalog: alice and bob share the line %q", ka)
	}
	service := &restCatalog{cfg: RESTConfig{ServiceToken: "svc"}, appends: newAppendGroups()}
	_, ka = service.appendQueue(alice, id)
	_, kb = service.appendQueue(bob, id)
	if ka != kb {
		t.Errorf("REST catalog with a service token: lines %q and %q, want one", ka, kb)
	}
	embedded := openCatalog(t, "wh", "", AllowAll{}).(*embeddedCatalog)
	_, ka = embedded.appendQueue(alice, id)
	_, kb = embedded.appendQueue(bob, id)
	if ka != kb {
		t.Errorf("embedded catalog: lines %q and %q, want one", ka, kb)
	}
}
