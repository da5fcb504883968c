package storage

import (
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
)

// oneRowCommits is a table of four single-row commits, ids 0..3,
// partitioned by name when asked.
func oneRowCommits(t *testing.T, partitioned bool) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	if partitioned {
		var err error
		tbl, err = cat.CreateTable(adminCtx(t), "ns", "parted", idSchema, CreateTableOptions{
			Partitioning: []PartitionField{{Transform: "identity", Column: "name"}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for i := range int64(4) {
		tbl = appendIDs(t, tbl, i, i+1)
	}
	return tbl
}

func TestPlanExtendsAnAncestorsPlan(t *testing.T) {
	appendOne := func(t *testing.T, tbl *Table) *Table { return appendIDs(t, tbl, 100, 101) }
	id := iceberg.Reference("id")
	for _, tt := range []struct {
		name        string
		partitioned bool
		unprimed    bool
		filter      iceberg.BooleanExpression
		limit       int64
		change      func(t *testing.T, tbl *Table) *Table
		extended    bool
		files       int
	}{
		{name: "one append", change: appendOne, extended: true, files: 5},
		{name: "three appends", change: func(t *testing.T, tbl *Table) *Table {
			for i := range int64(3) {
				tbl = appendIDs(t, tbl, 100+i, 101+i)
			}
			return tbl
		}, extended: true, files: 7},
		// Prefixes are filters derive leaves to the planner.
		{name: "filter keeping the new file", filter: iceberg.StartsWith(iceberg.Reference("name"), "n1"), change: appendOne,
			extended: true, files: 2},
		{name: "filter pruning the new file", filter: iceberg.StartsWith(iceberg.Reference("name"), "n2"), change: appendOne,
			extended: true, files: 1},
		{name: "no change of partitioned table", partitioned: true, change: appendOne, extended: true, files: 5},
		{name: "filter over partitions", partitioned: true, filter: iceberg.GreaterThanEqual(id, int64(2)),
			change: appendOne, files: 3},
		{name: "ancestor not planned", unprimed: true, change: appendOne, files: 5},
		{name: "limit", limit: 2, change: appendOne, files: 2},
		{name: "two files in one commit", change: func(t *testing.T, tbl *Table) *Table {
			ctx := adminCtx(t)
			var writes []*StagedWrite
			for i := range int64(2) {
				w, err := tbl.Stage(ctx, idBatches(t, 100+i, 101+i, 1))
				if err != nil {
					t.Fatal(err)
				}
				writes = append(writes, w)
			}
			next, err := tbl.CommitStaged(ctx, writes)
			if err != nil {
				t.Fatal(err)
			}
			return next
		}, files: 6},
		{name: "truncate then append", change: func(t *testing.T, tbl *Table) *Table {
			tbl, err := tbl.Truncate(adminCtx(t))
			if err != nil {
				t.Fatal(err)
			}
			return appendOne(t, tbl)
		}, files: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := adminCtx(t)
			tbl := oneRowCommits(t, tt.partitioned)
			cache := newPlanCache(8, 1000)
			if !tt.unprimed {
				if _, err := cache.plan(ctx, tbl.tbl, tt.filter, tt.limit); err != nil {
					t.Fatal(err)
				}
			}
			tbl = tt.change(t, tbl)
			want, err := planFiles(ctx, tbl.tbl, tt.filter, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != tt.files {
				t.Fatalf("planning found %d files, want %d", len(want), tt.files)
			}
			k, ok := planKeyFor(tbl.tbl, tt.filter, tt.limit)
			if !ok {
				t.Fatal("no plan key")
			}
			got, extended, err := cache.extend(ctx, tbl.tbl, k, tt.filter, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if extended != tt.extended {
				t.Fatalf("extended = %v, want %v", extended, tt.extended)
			}
			if extended && !slices.Equal(viewTasks(got), viewTasks(want)) {
				t.Errorf("extended plan %v, planning says %v", viewTasks(got), viewTasks(want))
			}
			planned, err := cache.plan(ctx, tbl.tbl, tt.filter, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(viewTasks(planned), viewTasks(want)) {
				t.Errorf("cached plan %v, planning says %v", viewTasks(planned), viewTasks(want))
			}
		})
	}
}

func TestPlanExtendedScanReadsTheRows(t *testing.T) {
	tbl := oneRowCommits(t, false)
	filter := iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(2))
	req := ScanRequest{Columns: []string{"id"}, Filter: filter}
	readAll(t, tbl, req) // plans the snapshot into the catalog's cache
	tbl = appendIDs(t, tbl, 100, 101)
	_, rows := readAll(t, tbl, req)
	want := [][]any{{int64(2)}, {int64(3)}, {int64(100)}}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows %v, want %v", rows, want)
	}
}
