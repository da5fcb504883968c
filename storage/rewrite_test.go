package storage

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// dataFilePaths lists the current snapshot's data files, sorted.
func dataFilePaths(t *testing.T, tbl *Table) []string {
	t.Helper()
	scan := tbl.tbl.Scan()
	defer scan.Close()
	tasks, err := scan.PlanFiles(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, task := range tasks {
		out = append(out, task.File.FilePath())
	}
	slices.Sort(out)
	return out
}

// deleteIDs rewrites the files prune selects without the rows whose id
// is in ids, as DELETE does.
func deleteIDs(t *testing.T, tbl *Table, prune iceberg.BooleanExpression, ids ...int64) (*Table, int) {
	t.Helper()
	after, files, err := deleteIDsAround(t, tbl, prune, nil, ids...)
	if err != nil {
		t.Fatal(err)
	}
	return after, files
}

// deleteIDsAround is deleteIDs running between(), when not nil, after the
// rewrite has read its files and before it commits: the moment another
// writer's commit makes the race a rewrite must survive or report.
func deleteIDsAround(t *testing.T, tbl *Table, prune iceberg.BooleanExpression, between func(), ids ...int64) (*Table, int, error) {
	t.Helper()
	return rewriteIDs(t, tbl, prune, between, nil, ids...)
}

// rewriteIDs is deleteIDsAround that also adds the rows of added (nil:
// none) in the same commit, as UPDATE and MERGE do.
func rewriteIDs(t *testing.T, tbl *Table, prune iceberg.BooleanExpression, between func(), added array.RecordReader, ids ...int64) (*Table, int, error) {
	t.Helper()
	ctx := adminCtx(t)
	rw, err := tbl.BeginRewrite(ctx, prune)
	if err != nil {
		t.Fatal(err)
	}
	defer rw.Close()
	var rewrites []FileRewrite
	for f := 0; f < rw.Files(); f++ {
		batches, err := rw.ReadFile(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		fr := FileRewrite{File: f}
		changed := false
		for _, b := range batches {
			mask := array.NewBooleanBuilder(memory.DefaultAllocator)
			col := b.Column(0).(*array.Int64)
			for i := 0; i < col.Len(); i++ {
				del := slices.Contains(ids, col.Value(i))
				changed = changed || del
				mask.Append(!del)
			}
			m := mask.NewBooleanArray()
			kept, err := compute.FilterRecordBatch(ctx, b, m, compute.DefaultFilterOptions())
			m.Release()
			mask.Release()
			b.Release()
			if err != nil {
				t.Fatal(err)
			}
			if kept.NumRows() == 0 {
				kept.Release()
				continue
			}
			fr.Keep = append(fr.Keep, kept)
		}
		if changed {
			rewrites = append(rewrites, fr)
		} else {
			releaseAll(fr.Keep)
		}
	}
	if between != nil {
		between()
	}
	after, err := rw.Commit(ctx, rewrites, added)
	for _, fr := range rewrites {
		releaseAll(fr.Keep)
	}
	return after, rw.Files(), err
}

func ids(t *testing.T, tbl *Table) []int64 {
	t.Helper()
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}})
	var out []int64
	for _, r := range rows {
		out = append(out, r[0].(int64))
	}
	slices.Sort(out)
	return out
}

// threeFileIDTable is a table of ids 0 to 29 in three files of ten, one
// append each.
func threeFileIDTable(t *testing.T) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	var err error
	for _, lo := range []int64{0, 10, 20} {
		if tbl, err = tbl.Append(adminCtx(t), idBatches(t, lo, lo+10, 4)); err != nil {
			t.Fatal(err)
		}
	}
	return tbl
}

func TestRewriteKeepsUntouchedFilesAndDeletedRows(t *testing.T) {
	tbl := threeFileIDTable(t)
	before := dataFilePaths(t, tbl)
	if len(before) != 3 {
		t.Fatalf("%d data files, want 3", len(before))
	}
	snaps := len(tbl.tbl.Metadata().Snapshots())

	// Pruning hands over only the file with ids 10..19.
	prune := iceberg.NewAnd(iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(12)), iceberg.LessThan(iceberg.Reference("id"), int64(14)))
	tbl, files := deleteIDs(t, tbl, prune, 13)
	if files != 1 {
		t.Errorf("rewrite read %d files, want 1", files)
	}
	after := dataFilePaths(t, tbl)
	kept := 0
	for _, p := range before {
		if slices.Contains(after, p) {
			kept++
		}
	}
	if len(after) != 3 || kept != 2 {
		t.Errorf("files after: %d, %d of the old ones kept; want 3 and 2", len(after), kept)
	}
	if n := len(tbl.tbl.Metadata().Snapshots()); n != snaps+1 {
		t.Errorf("%d snapshots, want %d: one commit per rewrite", n, snaps+1)
	}

	// Rewriting the rewritten file again must not bring id 13 back.
	tbl, _ = deleteIDs(t, tbl, nil, 14, 0)
	got := ids(t, tbl)
	if len(got) != 27 || slices.Contains(got, 13) || slices.Contains(got, 14) || slices.Contains(got, 0) {
		t.Errorf("ids after two deletes: %v", got)
	}

	// A file that loses every row is removed, not rewritten empty.
	all := make([]int64, 0, 10)
	for i := int64(20); i < 30; i++ {
		all = append(all, i)
	}
	tbl, _ = deleteIDs(t, tbl, nil, all...)
	if n := len(dataFilePaths(t, tbl)); n != 2 {
		t.Errorf("%d data files after emptying one, want 2", n)
	}
	if got := ids(t, tbl); len(got) != 17 {
		t.Errorf("%d rows left, want 17", len(got))
	}
}

func TestRewriteFailureCommitsNothing(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(adminCtx(t), idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	snap := tbl.SnapshotID()
	rw, err := tbl.BeginRewrite(adminCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A NULL in the NOT NULL id column fails the write of the added rows.
	b := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
	b.Field(0).AppendNull()
	b.Field(1).(*array.StringBuilder).Append("x")
	rec := b.NewRecordBatch()
	b.Release()
	defer rec.Release()
	rdr, _ := array.NewRecordReader(idSchema, []arrow.RecordBatch{rec})
	defer rdr.Release()
	if _, err := rw.Commit(adminCtx(t), []FileRewrite{{File: 0}}, rdr); err == nil {
		t.Fatal("commit with a NULL id succeeded")
	}
	fresh, err := cat.LoadTable(adminCtx(t), "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if fresh.SnapshotID() != snap || countRows(t, fresh) != 10 {
		t.Errorf("failed rewrite changed the table: snapshot %d (was %d), %d rows", fresh.SnapshotID(), snap, countRows(t, fresh))
	}
	// The lock was freed: another writer gets through.
	if _, err := fresh.Append(adminCtx(t), idBatches(t, 10, 11, 1)); err != nil {
		t.Fatal(err)
	}
}

func TestRewriteRefusesDeleteFiles(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(adminCtx(t), idBatches(t, 0, 10, 10))
	if err != nil {
		t.Fatal(err)
	}
	ctx := adminCtx(t)
	fresh := deleteMergeOnRead(t, cat, tbl, 3)
	_, err = fresh.BeginRewrite(ctx, nil)
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported {
		t.Fatalf("rewrite of a table with delete files: %v, want 0A000", err)
	}
	// The refusal freed the lock.
	if _, err := fresh.Append(ctx, idBatches(t, 10, 11, 1)); err != nil {
		t.Fatal(err)
	}
}

// deleteMergeOnRead deletes the row id = id of tbl (ns.t of cat) as
// another engine writing merge-on-read does, leaving a position delete
// file, and returns the table loaded again.
func deleteMergeOnRead(t *testing.T, cat Catalog, tbl *Table, id int64) *Table {
	t.Helper()
	ctx := adminCtx(t)
	tx := tbl.tbl.NewTransaction()
	if err := tx.SetProperties(iceberg.Properties{table.WriteDeleteModeKey: table.WriteModeMergeOnRead}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Delete(ctx, iceberg.EqualTo(iceberg.Reference("id"), id), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, err := cat.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	return fresh
}
