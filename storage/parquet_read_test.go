package storage

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// decodedBySQE fails the test unless a scan of tbl's columns (nil: all)
// is decoded by SQE's reader, file by file, and returns the row groups
// each planned task covers.
func decodedBySQE(t *testing.T, tbl *Table, columns []string, tasks []table.FileScanTask) [][]int {
	t.Helper()
	ctx := adminCtx(t)
	_, wanted, err := tbl.projection(ScanRequest{Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	cols := tbl.decodedColumns(wanted, ScanRequest{})
	if cols == nil {
		t.Fatalf("columns %v are not decoded by SQE's reader", columns)
	}
	fs, err := tbl.tbl.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var groups [][]int
	for _, task := range tasks {
		if !nativeTask(task) {
			t.Fatalf("task of %s is left to iceberg-go", task.File.FilePath())
		}
		r, ok, err := openParquetTask(ctx, fs, nil, task, cols)
		if err != nil || !ok {
			t.Fatalf("openParquetTask(%s) = %v, %v", task.File.FilePath(), ok, err)
		}
		groups = append(groups, r.groups)
		r.close()
	}
	return groups
}

func plannedTasks(t *testing.T, tbl *Table) []table.FileScanTask {
	t.Helper()
	tasks, err := tbl.planInCommitOrder(adminCtx(t), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// TestReadAddedColumnAsNull: a column added after a file was written
// reads as NULL from that file and as written from later files, in the
// requested order with duplicates.
func TestReadAddedColumnAsNull(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 3, 10))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		_, err := a.AddColumn("extra", arrow.PrimitiveTypes.Int64, false, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, tbl.Schema())
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(10)
	b.Field(1).(*array.StringBuilder).Append("n10")
	b.Field(2).(*array.Int64Builder).Append(77)
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(tbl.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if tbl, err = tbl.Append(ctx, rdr); err != nil {
		t.Fatal(err)
	}

	columns := []string{"extra", "id", "extra"}
	decodedBySQE(t, tbl, columns, plannedTasks(t, tbl))
	sc, rows := readAll(t, tbl, ScanRequest{Columns: columns})
	if got := fmt.Sprint(rows); got != "[[<nil> 0 <nil>] [<nil> 1 <nil>] [<nil> 2 <nil>] [77 10 77]]" {
		t.Fatalf("rows = %s", got)
	}
	if sc.Field(0).Name != "extra" || !sc.Field(0).Nullable || sc.Field(0).Type.ID() != arrow.INT64 {
		t.Fatalf("schema = %v", sc)
	}
	if id, _ := sc.Field(0).Metadata.GetValue(fieldIDKey); id != "3" {
		t.Fatalf("field id of extra = %q, want 3", id)
	}
}

// TestReadRenamedColumnByFieldID: a renamed column reads the data its
// field id holds, not a file column of the new name.
func TestReadRenamedColumnByFieldID(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 2, 10))
	if err != nil {
		t.Fatal(err)
	}
	// name becomes label, and a new column takes the old name: old files
	// have a column "name" that is label's, not the new name's.
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		if err := a.RenameColumn("name", "label"); err != nil {
			return err
		}
		_, err := a.AddColumn("name", arrow.BinaryTypes.String, false, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	columns := []string{"id", "label", "name"}
	decodedBySQE(t, tbl, columns, plannedTasks(t, tbl))
	_, rows := readAll(t, tbl, ScanRequest{Columns: columns})
	if got := fmt.Sprint(rows); got != "[[0 n0 <nil>] [1 n1 <nil>]]" {
		t.Fatalf("rows = %s", got)
	}
}

// TestReadPromotedTypes: columns promoted after a file was written (int
// to long, float to double, a decimal widened) read in the table's types
// with the file's values.
func TestReadPromotedTypes(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	narrow := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "f", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 9, Scale: 2}, Nullable: true},
	}, nil)
	tbl, err := cat.CreateTable(ctx, "ns", "t", narrow, CreateTableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, narrow)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues([]int32{7, -2147483648}, nil)
	b.Field(1).(*array.Float32Builder).AppendValues([]float32{1.5, -0.25}, nil)
	b.Field(2).(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(1234567), decimal128.FromI64(-5)}, nil)
	b.Field(2).AppendNull()
	b.Field(0).AppendNull()
	b.Field(1).AppendNull()
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(narrow, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if tbl, err = tbl.Append(ctx, rdr); err != nil {
		t.Fatal(err)
	}
	tx := tbl.tbl.NewTransaction()
	update := tx.UpdateSchema(true, false).
		UpdateColumn([]string{"i"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: iceberg.PrimitiveTypes.Int64}}).
		UpdateColumn([]string{"f"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: iceberg.PrimitiveTypes.Float64}}).
		UpdateColumn([]string{"d"}, table.ColumnUpdate{FieldType: iceberg.Optional[iceberg.Type]{Valid: true, Val: iceberg.DecimalTypeOf(18, 2)}})
	if err := update.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if tbl, err = cat.LoadTable(ctx, "ns", "t"); err != nil {
		t.Fatal(err)
	}
	groups := decodedBySQE(t, tbl, nil, plannedTasks(t, tbl))
	if len(groups) != 1 {
		t.Fatalf("%d tasks, want 1", len(groups))
	}
	sc, rows := readAll(t, tbl, ScanRequest{})
	want := []arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64, &arrow.Decimal128Type{Precision: 18, Scale: 2}}
	for i, typ := range want {
		if !arrow.TypeEqual(sc.Field(i).Type, typ) {
			t.Errorf("column %s is %s, want %s", sc.Field(i).Name, sc.Field(i).Type, typ)
		}
	}
	if got := fmt.Sprint(rows); got != "[[7 1.5 12345.67] [-2147483648 -0.25 -0.05] [<nil> <nil> <nil>]]" {
		t.Fatalf("rows = %s", got)
	}
}

// rowGroupTable is ns.t with ids 0..99 in one data file of four row
// groups (30, 30, 30 and 10 rows).
func rowGroupTable(t *testing.T) *Table {
	t.Helper()
	return rowGroupTableIn(t, openCatalog(t, "wh", "", AllowAll{}))
}

// rowGroupTableIn is rowGroupTable in cat.
func rowGroupTableIn(t *testing.T, cat Catalog) *Table {
	t.Helper()
	tbl, err := createRowGroupTable(t, cat).Append(adminCtx(t), idBatches(t, 0, 100, 100))
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// createRowGroupTable creates ns.t in cat, empty, its data files cut into
// row groups of at most 30 rows.
func createRowGroupTable(t *testing.T, cat Catalog) *Table {
	t.Helper()
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "t", idSchema, CreateTableOptions{Properties: map[string]string{
		table.ParquetRowGroupLimitKey: "30",
	}})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestReadMultiRowGroupFileWhole: a task over a whole file of several row
// groups reads them all, in order, in batches of the requested size.
func TestReadMultiRowGroupFileWhole(t *testing.T) {
	tbl := rowGroupTable(t)
	tasks := plannedTasks(t, tbl)
	if groups := decodedBySQE(t, tbl, nil, tasks); fmt.Sprint(groups) != "[[0 1 2 3]]" {
		t.Fatalf("row groups of the planned tasks = %v, want one task of all four", groups)
	}
	for _, batch := range []int{0, 7, 30, 1000} {
		st, err := tbl.Scan(adminCtx(t), ScanRequest{Columns: []string{"id", "name"}, BatchSize: batch})
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for {
			rec, err := st.Next()
			if err != nil {
				break
			}
			if batch > 0 && rec.NumRows() > int64(batch) {
				t.Errorf("BatchSize %d: a batch of %d rows", batch, rec.NumRows())
			}
			for i := range int(rec.NumRows()) {
				id := valueAt(rec.Column(0), i).(int64)
				if name := valueAt(rec.Column(1), i); name != fmt.Sprintf("n%d", id) {
					t.Fatalf("row %d: name %v", id, name)
				}
				ids = append(ids, id)
			}
			rec.Release()
		}
		st.Close()
		if len(ids) != 100 || !slices.IsSorted(ids) || ids[0] != 0 || ids[99] != 99 {
			t.Fatalf("BatchSize %d: ids %v, want 0..99 in order", batch, ids)
		}
	}
}

// TestReadRowGroupSubsets: a morsel covers the row groups that start in
// its byte range, and only those.
func TestReadRowGroupSubsets(t *testing.T) {
	tbl := rowGroupTable(t)
	for _, tt := range []struct {
		morselRows int64
		groups     string
		ids        [][2]int64 // first and last id of each morsel
	}{
		{1, "[[0] [1] [2] [3]]", [][2]int64{{0, 29}, {30, 59}, {60, 89}, {90, 99}}},
		// Four groups of 25 rows each by the file's average: two a morsel.
		{60, "[[0 1] [2 3]]", [][2]int64{{0, 59}, {60, 99}}},
	} {
		m, err := tbl.Morsels(adminCtx(t), ScanRequest{Columns: []string{"id"}, MorselRows: tt.morselRows})
		if err != nil {
			t.Fatal(err)
		}
		if m.cols == nil {
			t.Fatal("morsels are not decoded by SQE's reader")
		}
		if groups := decodedBySQE(t, tbl, []string{"id"}, m.tasks); fmt.Sprint(groups) != tt.groups {
			t.Errorf("MorselRows %d: row groups %v, want %s", tt.morselRows, groups, tt.groups)
		}
		for i := range m.Len() {
			ids := readMorsel(t, m, i)
			if len(ids) == 0 || ids[0] != tt.ids[i][0] || ids[len(ids)-1] != tt.ids[i][1] ||
				int64(len(ids)) != tt.ids[i][1]-tt.ids[i][0]+1 || !slices.IsSorted(ids) {
				t.Errorf("MorselRows %d, morsel %d: ids %v, want %d..%d", tt.morselRows, i, ids, tt.ids[i][0], tt.ids[i][1])
			}
		}
		m.Close()
	}
}

// TestReadDeleteFilesByIceberg: a file with a position delete is read by
// iceberg-go, which applies the delete, between files SQE decodes, and
// the rows keep table order.
func TestReadDeleteFilesByIceberg(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 10, 100))
	if err != nil {
		t.Fatal(err)
	}
	// The delete applies to the files committed before it only.
	tbl = deleteMergeOnRead(t, cat, tbl, 5)
	for _, r := range [][2]int64{{10, 20}, {20, 30}} {
		if tbl, err = tbl.Append(ctx, idBatches(t, r[0], r[1], 100)); err != nil {
			t.Fatal(err)
		}
	}
	var kinds []bool
	for _, task := range plannedTasks(t, tbl) {
		kinds = append(kinds, nativeTask(task))
	}
	if fmt.Sprint(kinds) != "[false true true]" {
		t.Fatalf("tasks SQE decodes: %v, want the first left to iceberg-go", kinds)
	}
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"name", "id"}})
	var ids []int64
	for _, r := range rows {
		ids = append(ids, r[1].(int64))
		if r[0] != fmt.Sprintf("n%d", r[1]) {
			t.Fatalf("row %v", r)
		}
	}
	var want []int64
	for i := range int64(30) {
		if i != 5 {
			want = append(want, i)
		}
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("ids %v, want %v", ids, want)
	}
}
