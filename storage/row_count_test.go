package storage

import (
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// scannedRows is how many rows a scan of tbl with filter returns, pruning
// by filter only, as a query under a proven row filter reads them.
func scannedRows(t *testing.T, tbl *Table, filter iceberg.BooleanExpression) int64 {
	t.Helper()
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}, Filter: filter, PruneOnly: true})
	return int64(len(rows))
}

// TestExactRowCountIsTheScansCount: the count from the files' record
// counts is the number of rows a scan returns, through appends, a
// copy-on-write DELETE, staged writes and a proven filter; where the
// files cannot tell (a delete file of another engine, a filter they do
// not prove) it says so instead of answering.
func TestExactRowCountIsTheScansCount(t *testing.T) {
	ctx := adminCtx(t)
	cat := openCatalog(t, "wh", "", AllowAll{})
	empty := createIDTable(t, cat, "ns", "t")
	three := threeFileIDTable(t) // ids 0-29 in three files
	deleted, _ := deleteIDs(t, three, iceberg.LessThan(iceberg.Reference("id"), int64(5)), 1, 2, 3)

	// A transaction block's view: a staged append and a staged DELETE that
	// removes a committed file (ids 10-19, all of them deleted).
	appended, err := three.Stage(ctx, idBatches(t, 100, 107, 4))
	if err != nil {
		t.Fatal(err)
	}
	rw, err := three.BeginStagedRewrite(ctx, iceberg.NewAnd(
		iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(10)), iceberg.LessThan(iceberg.Reference("id"), int64(20))))
	if err != nil {
		t.Fatal(err)
	}
	var drop []FileRewrite
	for f := range rw.Files() {
		drop = append(drop, FileRewrite{File: f})
	}
	removed, err := rw.Stage(ctx, drop, nil)
	rw.Close()
	if err != nil {
		t.Fatal(err)
	}
	staged, err := three.WithStaged([]*StagedWrite{appended, removed})
	if err != nil {
		t.Fatal(err)
	}

	// Large files planned as several tasks each are counted once.
	if err := cat.CreateNamespace(ctx, "split"); err != nil {
		t.Fatal(err)
	}
	split, err := cat.CreateTable(ctx, "split", "t", idSchema, CreateTableOptions{Properties: map[string]string{
		table.ParquetRowGroupLimitKey: "100", table.ReadSplitTargetSizeKey: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	split = appendIDs(t, appendIDs(t, split, 0, 1000), 1000, 1500)
	if tasks, err := split.planInCommitOrder(ctx, nil, 0); err != nil || len(tasks) <= 2 {
		t.Fatalf("split table planned as %d tasks (%v), want more than its 2 files", len(tasks), err)
	}

	id := iceberg.Reference("id")
	tests := []struct {
		name   string
		tbl    *Table
		filter iceberg.BooleanExpression
		want   int64 // -1: not exact
	}{
		{"a table without a snapshot", empty, nil, 0},
		{"three appends", three, nil, 30},
		{"after a copy-on-write DELETE", deleted, nil, 27},
		{"a staged append and a staged DELETE", staged, nil, 27},
		{"files split into several tasks", split, nil, 1500},
		{"a filter every file proves", three, iceberg.GreaterThanEqual(id, int64(0)), 30},
		{"a filter proven where it does not prune", three, iceberg.LessThan(id, int64(10)), 10},
		{"a filter proven on staged files too", staged, iceberg.LessThan(id, int64(200)), 27},
		{"a filter a file does not prove", three, iceberg.LessThan(id, int64(15)), -1},
		{"a filter a staged file does not prove", staged, iceberg.LessThan(id, int64(103)), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the second from the cache
				n, ok, err := tt.tbl.ExactRowCount(ctx, tt.filter)
				if err != nil {
					t.Fatal(err)
				}
				if tt.want < 0 {
					if ok {
						t.Fatalf("counted %d, want no exact count", n)
					}
					continue
				}
				if !ok || n != tt.want {
					t.Fatalf("count %d (exact %v), want %d", n, ok, tt.want)
				}
				if scanned := scannedRows(t, tt.tbl, tt.filter); scanned != n {
					t.Fatalf("count %d, a scan returns %d rows", n, scanned)
				}
			}
		})
	}
}

// TestExactRowCountRefusesDeleteFiles: a table another engine deleted
// from merge-on-read has a position delete file its record counts do not
// account for, so it is not counted from them.
func TestExactRowCountRefusesDeleteFiles(t *testing.T) {
	ctx := adminCtx(t)
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := appendIDs(t, createIDTable(t, cat, "ns", "t"), 0, 10)
	if n, ok, err := tbl.ExactRowCount(ctx, nil); err != nil || !ok || n != 10 {
		t.Fatalf("before the delete: %d, %v, %v; want 10", n, ok, err)
	}
	fresh := deleteMergeOnRead(t, cat, tbl, 3)
	if n, ok, err := fresh.ExactRowCount(ctx, nil); err != nil || ok {
		t.Fatalf("with a position delete file: %d, %v, %v; want no exact count", n, ok, err)
	}
	if got := scannedRows(t, fresh, nil); got != 9 {
		t.Fatalf("the scan returns %d rows, want 9", got)
	}
}

// TestRowCountIsCachedPerSnapshot: a snapshot's count is kept with the
// catalog's plans, and a new snapshot is counted anew.
func TestRowCountIsCachedPerSnapshot(t *testing.T) {
	ctx := adminCtx(t)
	tbl := threeFileIDTable(t)
	if _, _, err := tbl.ExactRowCount(ctx, nil); err != nil {
		t.Fatal(err)
	}
	k, ok := planKeyFor(tbl.tbl, nil, 0)
	if !ok {
		t.Fatal("no plan key")
	}
	fc, cached := tbl.host.planCache().counts.get(k)
	if !cached || fc != (fileCount{rows: 30, exact: true}) {
		t.Fatalf("cached count %+v (%v), want 30, exact", fc, cached)
	}
	// What is cached is what is answered.
	tbl.host.planCache().counts.put(k, fileCount{rows: 31, exact: true})
	if n, _, _ := tbl.ExactRowCount(ctx, nil); n != 31 {
		t.Fatalf("count %d, want the cached 31", n)
	}
	next := appendIDs(t, tbl, 30, 32)
	if n, ok, err := next.ExactRowCount(ctx, nil); err != nil || !ok || n != 32 {
		t.Fatalf("next snapshot: %d, %v, %v; want 32", n, ok, err)
	}
}

// TestCountDisagreeingWithTheSummaryIsNotExact: a snapshot summary whose
// total-records differs from its files' record counts is doubt.
func TestCountDisagreeingWithTheSummaryIsNotExact(t *testing.T) {
	tbl := threeFileIDTable(t)
	total := tbl.tbl.CurrentSnapshot().Summary.Properties["total-records"]
	if total != "30" {
		t.Fatalf("total-records %q, want 30", total)
	}
	for _, tt := range []struct {
		rows int64
		want bool
	}{{30, true}, {29, false}, {31, false}} {
		if got := agreesWithSummary(tbl.tbl, fileCount{rows: tt.rows, exact: true}); got != tt.want {
			t.Errorf("%d rows against total-records %s: agrees %v, want %v", tt.rows, total, got, tt.want)
		}
	}
	if !agreesWithSummary(createIDTable(t, openCatalog(t, "other", "", AllowAll{}), "ns", "e").tbl, fileCount{exact: true}) {
		t.Error("an empty table without a snapshot disagrees with 0 rows")
	}
}
