package storage

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// twoFileTable has ids 0..99 in one data file and 1000..1099 in another.
func twoFileTable(t *testing.T) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	ctx := adminCtx(t)
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 100, 40))
	if err != nil {
		t.Fatal(err)
	}
	tbl, err = tbl.Append(ctx, idBatches(t, 1000, 1100, 40))
	if err != nil {
		t.Fatal(err)
	}
	if tbl.RowCountEstimate() != 200 {
		t.Fatalf("RowCountEstimate = %d, want 200", tbl.RowCountEstimate())
	}
	return tbl
}

func TestScanEmptyTable(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	sc, rows := readAll(t, tbl, ScanRequest{Columns: []string{"name", "id"}})
	if len(rows) != 0 {
		t.Fatalf("empty table gave %d rows", len(rows))
	}
	if sc.NumFields() != 2 || sc.Field(0).Name != "name" || sc.Field(1).Name != "id" {
		t.Fatalf("schema = %v", sc)
	}
}

func TestScanColumnSelection(t *testing.T) {
	tbl := twoFileTable(t)
	tests := []struct {
		name    string
		columns []string
		want    []string
		first   []any
	}{
		{"all", nil, []string{"id", "name"}, []any{int64(0), "n0"}},
		{"reversed", []string{"name", "id"}, []string{"name", "id"}, []any{"n0", int64(0)}},
		{"one", []string{"name"}, []string{"name"}, []any{"n0"}},
		{"repeated", []string{"id", "name", "id"}, []string{"id", "name", "id"}, []any{int64(0), "n0", int64(0)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, rows := readAll(t, tbl, ScanRequest{Columns: tt.columns})
			var names []string
			for _, f := range sc.Fields() {
				names = append(names, f.Name)
				if _, ok := f.Metadata.GetValue("PARQUET:field_id"); !ok {
					t.Errorf("field %s lacks its field id", f.Name)
				}
			}
			if !slices.Equal(names, tt.want) {
				t.Fatalf("columns %v, want %v", names, tt.want)
			}
			if len(rows) != 200 || !slices.Equal(rows[0], tt.first) {
				t.Fatalf("%d rows, first %v; want 200, %v", len(rows), rows[0], tt.first)
			}
		})
	}
}

func TestScanUnknownColumn(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	_, err := tbl.Scan(adminCtx(t), ScanRequest{Columns: []string{"id", "nope"}})
	if pgerror.Code(err) != pgerror.UndefinedColumn {
		t.Fatalf("Scan(unknown column) = %v, want 42703", err)
	}
}

func TestScanFilter(t *testing.T) {
	tbl := twoFileTable(t)
	id := iceberg.Reference("id")
	tests := []struct {
		name    string
		filter  iceberg.BooleanExpression
		columns []string
		files   int // data files left after pruning
		ids     []int64
	}{
		{"second file only", iceberg.GreaterThanEqual(id, int64(1098)), []string{"id"}, 1, []int64{1098, 1099}},
		{"first file only", iceberg.LessThan(id, int64(3)), []string{"id"}, 1, []int64{0, 1, 2}},
		{"no file", iceberg.EqualTo(id, int64(500)), []string{"id"}, 0, nil},
		{"both files", iceberg.IsIn(id, int64(5), int64(1005)), []string{"id"}, 2, []int64{5, 1005}},
		// "n7" sorts after the second file's max name "n1099": pruned by stats.
		{"filter on unselected column", iceberg.EqualTo(iceberg.Reference("name"), "n7"), []string{"id"}, 1, []int64{7}},
		{"all", nil, []string{"id"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []table.ScanOption
			if tt.filter != nil {
				opts = append(opts, table.WithRowFilter(tt.filter))
			}
			tasks, err := tbl.tbl.Scan(opts...).PlanFiles(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != tt.files {
				t.Errorf("planned %d files, want %d", len(tasks), tt.files)
			}
			_, rows := readAll(t, tbl, ScanRequest{Columns: tt.columns, Filter: tt.filter})
			if tt.filter == nil {
				if len(rows) != 200 {
					t.Fatalf("%d rows, want 200", len(rows))
				}
				return
			}
			var got []int64
			for _, r := range rows {
				got = append(got, r[0].(int64))
			}
			if !slices.Equal(got, tt.ids) {
				t.Fatalf("ids %v, want %v", got, tt.ids)
			}
		})
	}
}

// With a limit, iceberg-go may stop planning after the newest manifest, so
// which rows come back is not fixed; the count, batch sizes and the order
// within the stream are.
func TestScanLimitAndBatchSize(t *testing.T) {
	tbl := twoFileTable(t)
	tests := []struct {
		name     string
		req      ScanRequest
		rows     int
		maxBatch int64
		minID    int64
	}{
		{"limit within first batch", ScanRequest{Limit: 3, BatchSize: 10}, 3, 10, 0},
		{"limit across batches", ScanRequest{Limit: 25, BatchSize: 10}, 25, 10, 0},
		{"limit across files", ScanRequest{Limit: 150, BatchSize: 64}, 150, 64, 0},
		{"limit above rows", ScanRequest{Limit: 1000}, 200, 8192, 0},
		{"no limit", ScanRequest{BatchSize: 7}, 200, 7, 0},
		{"limit with filter", ScanRequest{Limit: 4, Filter: iceberg.GreaterThan(iceberg.Reference("id"), int64(1010))}, 4, 8192, 1011},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := tbl.Scan(adminCtx(t), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var ids []int64
			for {
				rec, err := st.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if rec.NumRows() > tt.maxBatch {
					t.Errorf("batch of %d rows, want at most %d", rec.NumRows(), tt.maxBatch)
				}
				for i := range int(rec.NumRows()) {
					ids = append(ids, valueAt(rec.Column(0), i).(int64))
				}
				rec.Release()
			}
			if len(ids) != tt.rows {
				t.Fatalf("got %d rows, want %d", len(ids), tt.rows)
			}
			if !slices.IsSorted(ids) || ids[0] < tt.minID {
				t.Fatalf("ids %v: want ascending (table order), all >= %d", ids, tt.minID)
			}
			if _, err := st.Next(); !errors.Is(err, io.EOF) {
				t.Fatalf("Next after end = %v, want io.EOF", err)
			}
		})
	}
}

func TestScanStopsOnCancel(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(adminCtx(t), idBatches(t, 0, 50_000, 10_000))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(adminCtx(t))
	defer cancel()
	st, err := tbl.Scan(ctx, ScanRequest{BatchSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Next()
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	cancel()
	_, err = st.Next()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Next after cancel = %v, want context.Canceled", err)
	}
	if pgerror.Code(err) != pgerror.QueryCanceled {
		t.Fatalf("SQLSTATE %s, want 57014", pgerror.Code(err))
	}
	if _, err := st.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after stop = %v, want io.EOF", err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestScanCloseEarly(t *testing.T) {
	tbl := twoFileTable(t)
	st, err := tbl.Scan(adminCtx(t), ScanRequest{BatchSize: 5})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.Next()
	if err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after Close = %v, want io.EOF", err)
	}
}
