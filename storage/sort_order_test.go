package storage

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestCreateTableSortOrder(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true},
		{Name: "Tag", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	tests := []struct {
		name    string
		order   []SortField
		code    string // SQLSTATE of the refusal, "" when created
		iceberg string // the created table's order, as iceberg-go prints it
	}{
		{name: "none", order: nil, iceberg: "0: []"},
		{name: "one", order: []SortField{{Column: "id", NullsFirst: true}}, iceberg: "1: [\n1 asc nulls-first\n]"},
		{name: "two", order: []SortField{{Column: "id", NullsFirst: true}, {Column: "ts", Descending: true}},
			iceberg: "1: [\n1 asc nulls-first\n2 desc nulls-last\n]"},
		{name: "quoted", order: []SortField{{Column: "Tag"}}, iceberg: "1: [\n3 asc nulls-last\n]"},
		{name: "unknown", order: []SortField{{Column: "zz"}}, code: pgerror.UndefinedColumn},
		{name: "twice", order: []SortField{{Column: "id"}, {Column: "id", Descending: true}}, code: pgerror.DuplicateColumn},
		{name: "nested", order: []SortField{{Column: "xs"}}, code: pgerror.FeatureNotSupported},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "t" + string(rune('a'+i))
			tbl, err := cat.CreateTable(ctx, "ns", name, schema, CreateTableOptions{SortOrder: tc.order})
			if tc.code != "" {
				if pgerror.Code(err) != tc.code {
					t.Fatalf("got %v, want SQLSTATE %s", err, tc.code)
				}
				if _, err := cat.LoadTable(ctx, "ns", name); err == nil {
					t.Fatal("refused table was created")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tbl.tbl.SortOrder().String(); got != tc.iceberg {
				t.Errorf("iceberg order %q, want %q", got, tc.iceberg)
			}
			if got := tbl.SortOrder(); !slices.Equal(got, tc.order) {
				t.Errorf("SortOrder() = %v, want %v", got, tc.order)
			}
			loaded, err := cat.LoadTable(ctx, "ns", name)
			if err != nil {
				t.Fatal(err)
			}
			if got := loaded.SortOrder(); !slices.Equal(got, tc.order) {
				t.Errorf("loaded SortOrder() = %v, want %v", got, tc.order)
			}
		})
	}
}

func TestAlterSortOrder(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	steps := []struct {
		name  string
		set   []SortField
		want  []SortField
		order int // the default sort order id after the step
		code  string
	}{
		{name: "set", set: []SortField{{Column: "id", NullsFirst: true}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1},
		{name: "change", set: []SortField{{Column: "name", Descending: true}, {Column: "id"}},
			want: []SortField{{Column: "name", Descending: true}, {Column: "id"}}, order: 2},
		{name: "same again", set: []SortField{{Column: "name", Descending: true}, {Column: "id"}},
			want: []SortField{{Column: "name", Descending: true}, {Column: "id"}}, order: 2},
		{name: "back to the first", set: []SortField{{Column: "id", NullsFirst: true}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1},
		{name: "unknown column", set: []SortField{{Column: "nope"}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1, code: pgerror.UndefinedColumn},
		{name: "unsorted", set: nil, want: nil, order: 0},
	}
	for _, st := range steps {
		altered, err := tbl.Alter(ctx, func(a *Alteration) error { return a.SetSortOrder(st.set) })
		if pgerror.Code(err) != st.code && (st.code != "" || err != nil) {
			t.Fatalf("%s: got %v, want SQLSTATE %q", st.name, err, st.code)
		}
		if err == nil {
			tbl = altered
		}
		if got := tbl.SortOrder(); !slices.Equal(got, st.want) {
			t.Errorf("%s: SortOrder() = %v, want %v", st.name, got, st.want)
		}
		if got := tbl.tbl.Metadata().DefaultSortOrder(); got != st.order {
			t.Errorf("%s: default sort order id %d, want %d", st.name, got, st.order)
		}
	}
}

func TestDropSortColumn(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Alter(ctx, func(a *Alteration) error { return a.SetSortOrder([]SortField{{Column: "name"}}) })
	if err != nil {
		t.Fatal(err)
	}
	_, err = tbl.Alter(ctx, func(a *Alteration) error { _, err := a.DropColumn("name"); return err })
	if pgerror.Code(err) != pgerror.DependentObjectsStillExist {
		t.Fatalf("drop of the sort column: %v", err)
	}
	// In one alteration the order can be changed first.
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		if err := a.SetSortOrder([]SortField{{Column: "id"}}); err != nil {
			return err
		}
		_, err := a.DropColumn("name")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.SortOrder(); !slices.Equal(got, []SortField{{Column: "id"}}) {
		t.Fatalf("SortOrder() = %v", got)
	}
}

func TestFormatSortOrder(t *testing.T) {
	got := FormatSortOrder([]SortField{{Column: "id", NullsFirst: true}, {Column: "Ts", Descending: true}, {Column: `a"b`}})
	if want := `id ASC NULLS FIRST, "Ts" DESC NULLS LAST, "a""b" ASC NULLS LAST`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// sortByID is a RowSorter for tables of idSchema that sort by id: it
// holds every row, which a test's few hundred allow.
func sortByID(_ context.Context, rdr array.RecordReader, order []SortField) (array.RecordReader, error) {
	if len(order) == 0 || order[0].Column != "id" {
		return nil, fmt.Errorf("sortByID cannot sort by %v", order)
	}
	type row struct {
		id   int64
		name string
	}
	var rows []row
	for rdr.Next() {
		b := rdr.RecordBatch()
		ids, names := b.Column(0).(*array.Int64), b.Column(1).(*array.String)
		for i := range int(b.NumRows()) {
			rows = append(rows, row{ids.Value(i), names.Value(i)})
		}
	}
	if err := rdr.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b row) int {
		if order[0].Descending {
			return cmp.Compare(b.id, a.id)
		}
		return cmp.Compare(a.id, b.id)
	})
	// Batches of 50 rows, so that the writer can roll files between them.
	bld := array.NewRecordBuilder(memory.DefaultAllocator, rdr.Schema())
	defer bld.Release()
	var recs []arrow.RecordBatch
	for chunk := range slices.Chunk(rows, 50) {
		for _, r := range chunk {
			bld.Field(0).(*array.Int64Builder).Append(r.id)
			bld.Field(1).(*array.StringBuilder).Append(r.name)
		}
		recs = append(recs, bld.NewRecordBatch())
	}
	out, err := array.NewRecordReader(rdr.Schema(), recs)
	for _, r := range recs {
		r.Release()
	}
	return out, err
}

// fileIDRanges reads each data file of tbl and returns, in the order of
// their lower bounds, the bounds of id its manifest entry keeps, and
// whether each file's rows are in ascending id order.
func fileIDRanges(t *testing.T, tbl *Table) (ranges [][2]int64, inOrder []bool) {
	t.Helper()
	ctx := adminCtx(t)
	tasks, err := tbl.planInCommitOrder(ctx, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(tasks, func(a, b table.FileScanTask) int {
		lo := func(task table.FileScanTask) int64 {
			return int64(binary.LittleEndian.Uint64(task.File.LowerBoundValues()[1]))
		}
		return cmp.Compare(lo(a), lo(b))
	})
	for _, task := range tasks {
		lo := int64(binary.LittleEndian.Uint64(task.File.LowerBoundValues()[1]))
		hi := int64(binary.LittleEndian.Uint64(task.File.UpperBoundValues()[1]))
		ranges = append(ranges, [2]int64{lo, hi})
		rdr, err := newTaskReader(ctx, tbl.tbl, tbl.schema, []table.FileScanTask{task})
		if err != nil {
			t.Fatal(err)
		}
		sorted, prev := true, int64(math.MinInt64)
		for rdr.Next() {
			ids := rdr.RecordBatch().Column(0).(*array.Int64)
			for i := range ids.Len() {
				sorted = sorted && ids.Value(i) >= prev
				prev = ids.Value(i)
			}
		}
		if err := rdr.Err(); err != nil {
			t.Fatal(err)
		}
		rdr.Release()
		inOrder = append(inOrder, sorted)
	}
	return ranges, inOrder
}

func TestRewriteDataFilesSorts(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Alter(ctx, func(a *Alteration) error {
		return a.SetProperties(map[string]string{"write.target-file-size-bytes": "1500", "write.parquet.row-group-limit": "50"})
	})
	if err != nil {
		t.Fatal(err)
	}
	// Five unsorted appends of ids spread over the whole range: every
	// file overlaps every other.
	ids := rand.New(rand.NewPCG(1, 2)).Perm(500)
	for k := range 5 {
		bld := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
		for _, id := range ids[k*100 : (k+1)*100] {
			bld.Field(0).(*array.Int64Builder).Append(int64(id))
			bld.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("n%d", id))
		}
		rec := bld.NewRecordBatch()
		bld.Release()
		rdr, _ := array.NewRecordReader(idSchema, []arrow.RecordBatch{rec})
		rec.Release()
		if tbl, err = tbl.Append(ctx, rdr); err != nil {
			t.Fatal(err)
		}
		rdr.Release()
	}
	before := sortedRows(t, tbl)
	// Unsorted, compaction leaves files whose sizes reach the target.
	if _, res, err := tbl.RewriteDataFiles(ctx, sortByID); err != nil || res.RewrittenDataFiles != 0 {
		t.Fatalf("unsorted table: %+v, %v", res, err)
	}
	if tbl, err = tbl.Alter(ctx, func(a *Alteration) error { return a.SetSortOrder([]SortField{{Column: "id", NullsFirst: true}}) }); err != nil {
		t.Fatal(err)
	}
	tbl, res, err := tbl.RewriteDataFiles(ctx, sortByID)
	if err != nil {
		t.Fatal(err)
	}
	if res.RewrittenDataFiles < 5 || res.AddedDataFiles < 2 {
		t.Fatalf("sorted table: %+v, want every file rewritten into several", res)
	}
	if got := sortedRows(t, tbl); !slices.Equal(got, before) {
		t.Fatal("rows changed")
	}
	ranges, inOrder := fileIDRanges(t, tbl)
	for i, r := range ranges {
		if i > 0 && r[0] <= ranges[i-1][1] {
			t.Errorf("file %d holds ids %v, overlapping %v", i, r, ranges[i-1])
		}
		if !inOrder[i] {
			t.Errorf("file %d (ids %v) is not in id order", i, r)
		}
	}
	// Its files no longer overlap, and one at most is small: nothing to do.
	again, res, err := tbl.RewriteDataFiles(ctx, sortByID)
	if err != nil || res.RewrittenDataFiles != 0 || len(dataFilePaths(t, again)) != len(ranges) {
		t.Fatalf("second run: %+v, %v", res, err)
	}
}
