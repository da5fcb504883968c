package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// appendOneByOne appends rows ids [from, to) one commit each, as
// single-row INSERTs do.
func appendOneByOne(t *testing.T, tbl *Table, from, to int64) *Table {
	t.Helper()
	for i := from; i < to; i++ {
		var err error
		if tbl, err = tbl.Append(adminCtx(t), idBatches(t, i, i+1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	return tbl
}

// manifestCount is the number of manifests of the current snapshot.
func manifestCount(t *testing.T, tbl *Table) int {
	t.Helper()
	fsys, err := tbl.tbl.FS(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	mans, err := tbl.tbl.CurrentSnapshot().Manifests(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return len(mans)
}

// parquetOnDisk counts the Parquet files under the table's location,
// committed or not.
func parquetOnDisk(t *testing.T, tbl *Table) int {
	t.Helper()
	n := 0
	root := strings.TrimPrefix(tbl.tbl.Location(), "file://")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".parquet") {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sortedRows reads every row of tbl rendered as text, sorted.
func sortedRows(t *testing.T, tbl *Table) []string {
	t.Helper()
	_, rows := readAll(t, tbl, ScanRequest{})
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprint(r)
	}
	slices.Sort(out)
	return out
}

func TestRewriteDataFilesCompactsSmallFiles(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 60)
	before := sortedRows(t, tbl)
	if n := len(dataFilePaths(t, tbl)); n != 60 {
		t.Fatalf("%d data files before, want 60", n)
	}
	if n := manifestCount(t, tbl); n != 60 {
		t.Fatalf("%d manifests before, want 60", n)
	}
	after, res, err := tbl.RewriteDataFiles(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 60 || res.AddedDataFiles != 1 || res.RewrittenBytes <= 0 {
		t.Errorf("result %+v, want 60 files rewritten into 1", res)
	}
	if n := len(dataFilePaths(t, after)); n != 1 {
		t.Errorf("%d data files after, want 1", n)
	}
	if n := manifestCount(t, after); n > 2 {
		t.Errorf("%d manifests after, want at most 2", n)
	}
	if got := sortedRows(t, after); !slices.Equal(got, before) {
		t.Errorf("rows changed:\n got %v\nwant %v", got, before)
	}
	// A second run has nothing to do and commits nothing.
	again, res, err := after.RewriteDataFiles(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res != (CompactionResult{}) || again.SnapshotID() != after.SnapshotID() {
		t.Errorf("second run: %+v, snapshot %d (was %d)", res, again.SnapshotID(), after.SnapshotID())
	}
	// Files at the target size stay, but the manifests are still merged.
	big, err := cat.CreateTable(adminCtx(t), "ns", "big", idSchema, CreateTableOptions{
		Properties: map[string]string{"write.target-file-size-bytes": "1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	big = appendOneByOne(t, big, 0, 5)
	big, res, err = big.RewriteDataFiles(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 0 || res.RewrittenManifests != 5 || res.AddedManifests != 1 {
		t.Errorf("table of files at the target size: %+v, want only 5 manifests merged into 1", res)
	}
	if n := len(dataFilePaths(t, big)); n != 5 || manifestCount(t, big) != 1 {
		t.Errorf("%d data files and %d manifests, want 5 and 1", n, manifestCount(t, big))
	}
	// An empty table has nothing to compact.
	empty := createIDTable(t, cat, "ns", "empty")
	if _, res, err := empty.RewriteDataFiles(adminCtx(t), nil); err != nil || res != (CompactionResult{}) {
		t.Errorf("empty table: %+v, %v", res, err)
	}
}

func TestRewriteDataFilesKeepsPartitions(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "p", idSchema, CreateTableOptions{
		Partitioning: []PartitionField{{Transform: "bucket", Param: 3, Column: "id"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl = appendOneByOne(t, tbl, 0, 30)
	// One larger commit spreads over every bucket as well.
	if tbl, err = tbl.Append(ctx, idBatches(t, 100, 130, 30)); err != nil {
		t.Fatal(err)
	}
	before := sortedRows(t, tbl)
	files := len(dataFilePaths(t, tbl))
	after, res, err := tbl.RewriteDataFiles(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != files || res.AddedDataFiles != 3 {
		t.Errorf("result %+v, want %d files rewritten into 3 (one per bucket)", res, files)
	}
	if got := sortedRows(t, after); !slices.Equal(got, before) {
		t.Errorf("rows changed:\n got %v\nwant %v", got, before)
	}
	// Each new file still holds one bucket: a filter on id prunes to one.
	scan := after.tbl.Scan(table.WithRowFilter(iceberg.EqualTo(iceberg.Reference("id"), int64(7))))
	defer scan.Close()
	tasks, err := scan.PlanFiles(ctx)
	if err != nil || len(tasks) != 1 {
		t.Errorf("id = 7 plans %d files (%v), want 1", len(tasks), err)
	}
}

func TestRewriteDataFilesAfterSchemaChanges(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 5)
	tbl, err := tbl.Alter(ctx, func(a *Alteration) error {
		if err := a.RenameColumn("name", "label"); err != nil {
			return err
		}
		_, err := a.AddColumn("extra", arrow.PrimitiveTypes.Int32, false, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := int64(5); i < 10; i++ {
		b := array.NewRecordBuilder(memory.DefaultAllocator, tbl.Schema())
		b.Field(0).(*array.Int64Builder).Append(i)
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("l%d", i))
		b.Field(2).(*array.Int32Builder).Append(int32(i * 10))
		rec := b.NewRecordBatch()
		b.Release()
		rdr, err := array.NewRecordReader(tbl.Schema(), []arrow.RecordBatch{rec})
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		tbl, err = tbl.Append(ctx, rdr)
		rdr.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	before := sortedRows(t, tbl)
	want := "[[0 n0 <nil>] [1 n1 <nil>] [2 n2 <nil>] [3 n3 <nil>] [4 n4 <nil>] [5 l5 50] [6 l6 60] [7 l7 70] [8 l8 80] [9 l9 90]]"
	if fmt.Sprint(before) != want {
		t.Fatalf("before compaction: %v", before)
	}
	after, res, err := tbl.RewriteDataFiles(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles != 10 || res.AddedDataFiles != 1 {
		t.Errorf("result %+v, want 10 files rewritten into 1", res)
	}
	if got := sortedRows(t, after); fmt.Sprint(got) != want {
		t.Errorf("after compaction: %v, want %s", got, want)
	}
}

func TestRewriteDataFilesRefusesDeleteFilesAndNonWriters(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, AllowAll{})
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 3)

	readOnly := openCatalog(t, "wh", dir, &refuser{refuse: ActionUpdateTable})
	ro, err := readOnly.LoadTable(adminCtx(t), "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ro.RewriteDataFiles(adminCtx(t), nil); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("compaction by a non-writer: %v, want 42501", err)
	}
	if _, _, err := ro.ExpireSnapshots(adminCtx(t), ExpireOptions{RetainLast: 1}); pgerror.Code(err) != pgerror.InsufficientPrivilege {
		t.Errorf("expiry by a non-writer: %v, want 42501", err)
	}

	tbl, err = tbl.Append(adminCtx(t), idBatches(t, 3, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	withDeletes := addPositionDelete(t, cat, tbl)
	if _, _, err := withDeletes.RewriteDataFiles(adminCtx(t), nil); pgerror.Code(err) != pgerror.FeatureNotSupported {
		t.Errorf("compaction of a table with delete files: %v, want 0A000", err)
	}
	// The refusal freed the lock.
	if _, err := withDeletes.Append(adminCtx(t), idBatches(t, 10, 11, 1)); err != nil {
		t.Fatal(err)
	}
}

func TestRewriteDataFilesReplaysAfterLostRace(t *testing.T) {
	f, _, alice, tbl := restOrders(t, RESTConfig{})
	var err error
	for i := int64(0); i < 8; i++ {
		if tbl, err = tbl.Append(alice, idBatches(t, i, i+1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	isCommit := func(r *http.Request, path string) bool {
		return r.Method == http.MethodPost && strings.HasSuffix(path, "/tables/orders")
	}
	conflicts := 0
	f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
		if isCommit(r, path) && conflicts == 0 {
			conflicts++
			return http.StatusConflict, "CommitFailedException", "branch main has changed", true
		}
		return 0, "", "", false
	})
	after, res, err := tbl.RewriteDataFiles(alice, nil)
	if err != nil {
		t.Fatalf("compaction after one lost race: %v", err)
	}
	if conflicts != 1 || res.RewrittenDataFiles != 8 || res.AddedDataFiles != 1 {
		t.Errorf("%d conflicts, result %+v", conflicts, res)
	}
	if got := scanIDs(t, alice, after); fmt.Sprint(got) != "[0 1 2 3 4 5 6 7]" {
		t.Errorf("after compaction: %v", got)
	}
	// The lost attempt's file was removed: 8 old files and 1 new one.
	if n := parquetOnDisk(t, after); n != 9 {
		t.Errorf("%d Parquet files on disk, want 9", n)
	}

	// A table that never stops moving: 40001, and no new file is left.
	for i := int64(8); i < 10; i++ {
		if after, err = after.Append(alice, idBatches(t, i, i+1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	f.setFault(func(r *http.Request, path string) (int, string, string, bool) {
		if isCommit(r, path) {
			return http.StatusConflict, "CommitFailedException", "branch main has changed", true
		}
		return 0, "", "", false
	})
	onDisk := parquetOnDisk(t, after)
	_, _, err = after.RewriteDataFiles(alice, nil)
	if code := pgerror.Code(err); code != pgerror.SerializationFailure || !errors.Is(err, ErrCommitConflict) {
		t.Errorf("endless conflicts: %s (%v), want 40001", code, err)
	}
	if n := parquetOnDisk(t, after); n != onDisk {
		t.Errorf("%d Parquet files on disk after the failed compaction, want %d", n, onDisk)
	}
}

func TestExpireSnapshotsKeepsTheCurrentOne(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := appendOneByOne(t, createIDTable(t, cat, "ns", "t"), 0, 20)
	tbl, _, err := tbl.RewriteDataFiles(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := sortedRows(t, tbl)
	// 20 appends, and the compaction's commit: its data files, then its
	// manifests.
	snapshots := len(tbl.tbl.Metadata().Snapshots())
	if snapshots != 22 {
		t.Fatalf("%d snapshots before expiry, want 22", snapshots)
	}
	// Retaining the last 5 of snapshots older than now.
	tbl, res, err := tbl.ExpireSnapshots(ctx, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExpiredSnapshots != 17 || len(tbl.tbl.Metadata().Snapshots()) != 5 {
		t.Errorf("expired %d, %d left; want 17 expired, 5 left", res.ExpiredSnapshots, len(tbl.tbl.Metadata().Snapshots()))
	}
	// The 5 newest snapshots still reference the 20 small files, so
	// none is deleted yet; the expired ones' manifest lists are.
	if res.DeletedDataFiles != 0 || res.DeletedManifestLists != 17 {
		t.Errorf("first expiry %+v, want no data file and 17 manifest lists deleted", res)
	}
	tbl, res, err = tbl.ExpireSnapshots(ctx, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := ExpiryResult{ExpiredSnapshots: 4, DeletedDataFiles: 20, DeletedManifestLists: 4, DeletedManifests: res.DeletedManifests}
	if res != want || res.DeletedManifests == 0 {
		t.Errorf("second expiry %+v, want %+v with manifests deleted", res, want)
	}
	if n := len(tbl.tbl.Metadata().Snapshots()); n != 1 {
		t.Errorf("%d snapshots left, want 1", n)
	}
	if n := parquetOnDisk(t, tbl); n != 1 {
		t.Errorf("%d Parquet files on disk, want the 1 compacted file", n)
	}
	if got := sortedRows(t, tbl); !slices.Equal(got, before) {
		t.Errorf("rows changed:\n got %v\nwant %v", got, before)
	}
	// Nothing more to expire: no commit, nothing deleted.
	again, res, err := tbl.ExpireSnapshots(ctx, ExpireOptions{OlderThan: time.Now().Add(time.Hour), RetainLast: 1})
	if err != nil || res != (ExpiryResult{}) || again.SnapshotID() != tbl.SnapshotID() {
		t.Errorf("third expiry: %+v, %v", res, err)
	}
	// A table that keeps no history for GC refuses.
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error { return a.SetProperties(map[string]string{"gc.enabled": "false"}) })
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tbl.ExpireSnapshots(ctx, ExpireOptions{RetainLast: 1}); pgerror.Code(err) != pgerror.ObjectNotInPrerequisiteState {
		t.Errorf("expiry with gc.enabled=false: %v, want 55000", err)
	}
}

func TestMaintenanceThroughREST(t *testing.T) {
	f, cat, alice, tbl := restOrders(t, RESTConfig{})
	var err error
	for i := int64(0); i < 6; i++ {
		if tbl, err = tbl.Append(alice, idBatches(t, i, i+1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	tbl, res, err := tbl.RewriteDataFiles(alice, nil)
	if err != nil || res.RewrittenDataFiles != 6 || res.AddedDataFiles != 1 {
		t.Fatalf("compaction: %+v, %v", res, err)
	}
	tbl, exp, err := tbl.ExpireSnapshots(alice, ExpireOptions{OlderThan: time.Now().Add(time.Minute), RetainLast: 1})
	// 6 appends and the compaction's data snapshot expire.
	if err != nil || exp.ExpiredSnapshots != 7 || exp.DeletedDataFiles != 6 {
		t.Fatalf("expiry: %+v, %v", exp, err)
	}
	fresh, err := cat.LoadTable(alice, "sales", "orders")
	if err != nil {
		t.Fatal(err)
	}
	if got := scanIDs(t, alice, fresh); fmt.Sprint(got) != "[0 1 2 3 4 5]" || len(fresh.tbl.Metadata().Snapshots()) != 1 {
		t.Errorf("after maintenance: %v, %d snapshots", got, len(fresh.tbl.Metadata().Snapshots()))
	}
	assertAllAuth(t, f, "alice", restAlice.Token)
}

// addPositionDelete deletes id 5 merge-on-read, as another engine would,
// leaving a position delete file (id 5 must share its file with others).
func addPositionDelete(t *testing.T, cat Catalog, tbl *Table) *Table {
	t.Helper()
	ctx := adminCtx(t)
	tx := tbl.tbl.NewTransaction()
	if err := tx.SetProperties(map[string]string{"write.delete.mode": "merge-on-read"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("id"), int64(5)), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, err := cat.LoadTable(ctx, tbl.ident.Namespace, tbl.ident.Table)
	if err != nil {
		t.Fatal(err)
	}
	return fresh
}
