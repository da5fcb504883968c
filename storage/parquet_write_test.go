package storage

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// decimalSchema has decimals of each physical width: precision 5 fits
// INT32, 15 fits INT64, 30 needs 16 bytes.
var decimalSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "small", Type: &arrow.Decimal128Type{Precision: 5, Scale: 1}, Nullable: true},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 15, Scale: 2}, Nullable: true},
	{Name: "wide", Type: &arrow.Decimal128Type{Precision: 30, Scale: 4}, Nullable: true},
}, nil)

// decimalRows is a reader of rows ids [from, to): small = id/10,
// price = id*100.01 (id*10001 hundredths), wide = -id/10000, NULLs in
// every column but id where id%7 == 3.
func decimalRows(t *testing.T, sc *arrow.Schema, from, to int64) array.RecordReader {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer b.Release()
	for i := from; i < to; i++ {
		b.Field(0).(*array.Int64Builder).Append(i)
		for c, v := range []int64{i, i * 10001, -i} {
			db := b.Field(c + 1).(*array.Decimal128Builder)
			if i%7 == 3 {
				db.AppendNull()
				continue
			}
			db.Append(decimal128.FromI64(v))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(sc, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rdr.Release)
	return rdr
}

func wantDecimalRows(t *testing.T, rows [][]any, from, to int64) {
	t.Helper()
	if int64(len(rows)) != to-from {
		t.Fatalf("%d rows, want %d", len(rows), to-from)
	}
	for k, r := range rows {
		i := from + int64(k)
		want := fmt.Sprint([]any{i, decimal128.FromI64(i).ToString(1), decimal128.FromI64(i * 10001).ToString(2), decimal128.FromI64(-i).ToString(4)})
		if i%7 == 3 {
			want = fmt.Sprint([]any{i, nil, nil, nil})
		}
		if got := fmt.Sprint(r); got != want {
			t.Fatalf("row %d = %s, want %s", k, got, want)
		}
	}
}

// physicalTypes are the Parquet physical types of a data file's columns.
func physicalTypes(t *testing.T, tbl *Table, f iceberg.DataFile) []parquet.Type {
	t.Helper()
	fs, err := tbl.tbl.FS(adminCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	in, err := fs.Open(f.FilePath())
	if err != nil {
		t.Fatal(err)
	}
	rdr, err := file.NewParquetReader(in)
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Close()
	var out []parquet.Type
	for i := range rdr.MetaData().Schema.NumColumns() {
		out = append(out, rdr.MetaData().Schema.Column(i).PhysicalType())
	}
	return out
}

// TestNarrowDecimalsStoredAsIntegers: SQE writes decimals of precision 9
// or less as INT32 and 18 or less as INT64; files iceberg-go wrote with
// 16-byte decimals read as before, beside them; the files' statistics
// still prune a decimal filter.
func TestNarrowDecimalsStoredAsIntegers(t *testing.T) {
	ctx := adminCtx(t)
	tbl := tableOfTwoDecimalFiles(t)
	tasks := plannedTasks(t, tbl)
	if len(tasks) != 2 {
		t.Fatalf("%d files, want 2", len(tasks))
	}
	flba, i32, i64 := parquet.Types.FixedLenByteArray, parquet.Types.Int32, parquet.Types.Int64
	for i, want := range [][]parquet.Type{{i64, flba, flba, flba}, {i64, i32, i64, flba}} {
		if got := physicalTypes(t, tbl, tasks[i].File); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("file %d stores %v, want %v", i, got, want)
		}
	}
	decodedBySQE(t, tbl, nil, tasks)
	_, rows := readAll(t, tbl, ScanRequest{})
	wantDecimalRows(t, rows, 0, 100)

	// The new file's bounds on price are its values': 50.00*100.01 and up.
	price := iceberg.Reference("price")
	lit := iceberg.Decimal{Val: decimal128.FromI64(4_000_00), Scale: 2}
	_, rows = readAll(t, tbl, ScanRequest{Filter: iceberg.GreaterThanEqual(price, lit)})
	var ids, want []int64
	for _, r := range rows {
		ids = append(ids, r[0].(int64))
	}
	for i := int64(40); i < 100; i++ {
		if i%7 != 3 {
			want = append(want, i)
		}
	}
	if fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Fatalf("price >= 4000.00: ids %v, want %v", ids, want)
	}
	pruned, err := tbl.planInCommitOrder(ctx, iceberg.LessThan(price, lit), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(pruned) != 1 || pruned[0].File.FilePath() != tasks[0].File.FilePath() {
		t.Fatalf("price < 4000.00 plans %d files, want only the older one", len(pruned))
	}
}

// tableOfTwoDecimalFiles is a table of decimalSchema with rows 0-49 in a
// file iceberg-go wrote (16-byte decimals) and rows 50-99 in one SQE wrote
// (INT32 and INT64 decimals).
func tableOfTwoDecimalFiles(t *testing.T) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "t", decimalSchema, CreateTableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !writesOwnParquet(tbl.tbl, tbl.Schema()) {
		t.Fatal("a table with narrow decimals is written by iceberg-go")
	}

	// An older file: iceberg-go's writer, 16-byte decimals.
	var old []iceberg.DataFile
	batches := func(yield func(arrow.RecordBatch, error) bool) {
		rdr := decimalRows(t, tbl.Schema(), 0, 50)
		for rdr.Next() {
			rec := rdr.RecordBatch()
			rec.Retain()
			if !yield(rec, nil) {
				return
			}
		}
	}
	for df, err := range table.WriteRecords(ctx, tbl.tbl, tbl.Schema(), batches) {
		if err != nil {
			t.Fatal(err)
		}
		old = append(old, df)
	}
	lines, key := tbl.host.commitLines(ctx, tbl.ident)
	committed, err := tbl.commitQueued(ctx, lines, key, newLineChange(tbl.tbl, old, nil, false), -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tbl, err = newTable(tbl.host, tbl.ident, committed); err != nil {
		t.Fatal(err)
	}
	if tbl, err = tbl.Append(ctx, decimalRows(t, tbl.Schema(), 50, 100)); err != nil {
		t.Fatal(err)
	}

	return tbl
}

// TestDecimal64ScanReadsEveryStorage: a scan asking for 64-bit decimals
// gets precision 18 or less as decimal64, precision 30 as decimal128, and
// the same values whichever way the file stores them and whichever reader
// decodes it: SQE's (integers taken as they are, bytes narrowed), and
// iceberg-go's (a row filter applied).
func TestDecimal64ScanReadsEveryStorage(t *testing.T) {
	tbl := tableOfTwoDecimalFiles(t)
	wantTypes := "[int64 decimal64(5, 1) decimal64(15, 2) decimal(30, 4)]"
	for _, req := range []ScanRequest{
		{Decimal64: true},
		{Decimal64: true, Columns: []string{"id", "small", "price", "wide"}, BatchSize: 7},
		{Decimal64: true, Filter: iceberg.GreaterThanEqual(iceberg.Reference("id"), int64(0))},
	} {
		sc, rows := readAll(t, tbl, req)
		var got []string
		for _, f := range sc.Fields() {
			got = append(got, f.Type.String())
		}
		if fmt.Sprint(got) != wantTypes {
			t.Fatalf("%+v: types %v, want %s", req, got, wantTypes)
		}
		wantDecimalRows(t, rows, 0, 100)
	}
	m, err := tbl.Morsels(adminCtx(t), ScanRequest{Decimal64: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var n int64
	for i := range m.Len() {
		st, err := m.Open(adminCtx(t), i)
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := st.Next()
			if err != nil {
				break
			}
			if rec.Column(2).DataType().ID() != arrow.DECIMAL64 {
				t.Fatalf("morsel %d: price is %s", i, rec.Column(2).DataType())
			}
			n += rec.NumRows()
			rec.Release()
		}
		st.Close()
	}
	if n != 100 {
		t.Fatalf("morsels read %d rows, want 100", n)
	}
}

// TestNarrowDecimalsRefusesWideValues: a decimal128 value outside 64 bits
// (a file holding more digits than its type declares) fails the read,
// without the value in the error.
func TestNarrowDecimalsRefusesWideValues(t *testing.T) {
	b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 18, Scale: 0})
	defer b.Release()
	b.Append(decimal128.FromI64(5))
	b.AppendNull()
	b.Append(decimal128.New(1, 0))
	a := b.NewArray()
	defer a.Release()
	to := &arrow.Decimal64Type{Precision: 18, Scale: 0}
	if _, err := narrowDecimals(a, to); err == nil {
		t.Fatal("a value of 2^64 narrowed")
	} else if strings.Contains(err.Error(), "18446744073709551616") {
		// Read before any row filter or mask: the value stays out.
		t.Fatalf("the error shows the value: %v", err)
	}
	ok, err := narrowDecimals(array.NewSlice(a, 0, 2), to)
	if err != nil {
		t.Fatal(err)
	}
	defer ok.Release()
	if d := ok.(*array.Decimal64); d.Len() != 2 || d.Value(0) != 5 || !d.IsNull(1) {
		t.Fatalf("narrowed %s (nulls %d)", ok, ok.NullN())
	}
}
