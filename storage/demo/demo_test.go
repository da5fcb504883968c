package demo

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqe-db/sqe/storage"
)

func adminCtx(t *testing.T) context.Context {
	return storage.WithPrincipal(t.Context(), storage.Principal{User: "carol", Roles: []string{"sqe_admin"}})
}

func openCatalog(t *testing.T) storage.Catalog {
	t.Helper()
	cat, err := storage.OpenEmbedded(t.Context(), "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cat.Close() })
	return cat
}

// scanRows reads a table into rows of strings (NULL as "NULL").
func scanRows(t *testing.T, cat storage.Catalog, name string) [][]string {
	t.Helper()
	ctx := adminCtx(t)
	tbl, err := cat.LoadTable(ctx, Namespace, name)
	if err != nil {
		t.Fatal(err)
	}
	st, err := tbl.Scan(ctx, storage.ScanRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var rows [][]string
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := range int(rec.NumRows()) {
			row := make([]string, rec.NumCols())
			for c := range row {
				// A text value shares the batch's buffer, reused once
				// the batch is released.
				row[c] = strings.Clone(rec.Column(c).ValueStr(i))
				if rec.Column(c).IsNull(i) {
					row[c] = "NULL"
				}
			}
			rows = append(rows, row)
		}
		rec.Release()
	}
}

func TestLoadIsIdempotent(t *testing.T) {
	cat := openCatalog(t)
	ctx := adminCtx(t)
	const salesRows = 10_000
	if err := Load(ctx, cat, salesRows); err != nil {
		t.Fatalf("first Load: %v", err)
	}
	orders1 := scanRows(t, cat, "orders")
	sales1 := scanRows(t, cat, "sales")
	salesTbl, err := cat.LoadTable(ctx, Namespace, "sales")
	if err != nil {
		t.Fatal(err)
	}
	snap := salesTbl.SnapshotID()

	if err := Load(ctx, cat, salesRows); err != nil {
		t.Fatalf("second Load: %v", err)
	}
	orders2 := scanRows(t, cat, "orders")
	sales2 := scanRows(t, cat, "sales")
	if len(orders2) != 3 || len(sales2) != salesRows {
		t.Fatalf("after second Load: %d orders, %d sales; want 3, %d", len(orders2), len(sales2), salesRows)
	}
	if !slices.EqualFunc(orders1, orders2, slices.Equal) || !slices.EqualFunc(sales1, sales2, slices.Equal) {
		t.Fatal("second Load changed the data")
	}
	salesTbl, err = cat.LoadTable(ctx, Namespace, "sales")
	if err != nil {
		t.Fatal(err)
	}
	if salesTbl.SnapshotID() != snap {
		t.Fatal("second Load committed to sales")
	}
	if tables, err := cat.ListTables(ctx, Namespace); err != nil || !slices.Equal(tables, []string{"orders", "sales"}) {
		t.Fatalf("ListTables = %v, %v", tables, err)
	}
}

func TestOrdersRows(t *testing.T) {
	cat := openCatalog(t)
	if err := Load(adminCtx(t), cat, 0); err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"1", "EU", "111-11-1111", "120.5", "2024-01-15"},
		{"2", "US", "222-22-2222", "75", "2024-02-03"},
		{"3", "EU", "333-33-3333", "310.25", "2024-03-22"},
	}
	if got := scanRows(t, cat, "orders"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("orders = %v, want %v", got, want)
	}
	tbl, err := cat.LoadTable(adminCtx(t), Namespace, "orders")
	if err != nil {
		t.Fatal(err)
	}
	sc := tbl.Schema()
	if sc.Field(0).Nullable || !sc.Field(1).Nullable {
		t.Fatalf("orders nullability wrong: %v", sc)
	}
	if !arrow.TypeEqual(sc.Field(3).Type, &arrow.Decimal128Type{Precision: 12, Scale: 2}) {
		t.Fatalf("amount type %s", sc.Field(3).Type)
	}
}

func TestSalesIsDeterministicAndInRange(t *testing.T) {
	const rows = 5_000
	a, b := openCatalog(t), openCatalog(t)
	for _, cat := range []storage.Catalog{a, b} {
		if err := Load(adminCtx(t), cat, rows); err != nil {
			t.Fatal(err)
		}
	}
	ra, rb := scanRows(t, a, "sales"), scanRows(t, b, "sales")
	if !slices.EqualFunc(ra, rb, slices.Equal) {
		t.Fatal("two loads with the same row count differ")
	}

	tbl, err := a.LoadTable(adminCtx(t), Namespace, "sales")
	if err != nil {
		t.Fatal(err)
	}
	st, err := tbl.Scan(adminCtx(t), storage.ScanRequest{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	products := map[string]bool{}
	regionsSeen := map[string]bool{}
	nullDiscounts, n := 0, int64(0)
	lo, hi := arrow.Date32FromTime(mustDate("2023-01-01")), arrow.Date32FromTime(mustDate("2024-12-31"))
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ids := rec.Column(0).(*array.Int64)
		reg := rec.Column(1).(*array.String)
		prod := rec.Column(2).(*array.String)
		qty := rec.Column(3).(*array.Int32)
		disc := rec.Column(5).(*array.Float64)
		sold := rec.Column(6).(*array.Date32)
		for i := range int(rec.NumRows()) {
			n++
			if ids.Value(i) != n {
				t.Fatalf("row %d has id %d", n, ids.Value(i))
			}
			regionsSeen[strings.Clone(reg.Value(i))] = true
			products[strings.Clone(prod.Value(i))] = true
			if q := qty.Value(i); q < 1 || q > 20 {
				t.Fatalf("quantity %d", q)
			}
			if disc.IsNull(i) {
				nullDiscounts++
			} else if d := disc.Value(i); d < 0 || d > 0.3 {
				t.Fatalf("discount %v", d)
			}
			if d := sold.Value(i); d < lo || d > hi {
				t.Fatalf("sold_on %s", d.FormattedString())
			}
		}
		rec.Release()
	}
	if n != rows {
		t.Fatalf("%d rows, want %d", n, rows)
	}
	if len(regionsSeen) != 4 || len(products) < 45 || len(products) > 50 {
		t.Fatalf("%d regions, %d products", len(regionsSeen), len(products))
	}
	if nullDiscounts == 0 || nullDiscounts > rows/5 {
		t.Fatalf("%d NULL discounts of %d", nullDiscounts, rows)
	}
}

func TestSalesSplitsIntoCommits(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 300k rows")
	}
	dir := t.TempDir()
	cat, err := storage.OpenEmbedded(t.Context(), "sales_wh", dir, storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	const rows = rowsPerCommit + 50_000
	if err := Load(adminCtx(t), cat, rows); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.LoadTable(adminCtx(t), Namespace, "sales")
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.RowCountEstimate(); got != rows {
		t.Fatalf("RowCountEstimate = %d, want %d", got, rows)
	}
	if got := tbl.Properties()["write.delete.mode"]; got != "copy-on-write" {
		t.Fatalf("write.delete.mode = %q", got)
	}
	files, err := filepath.Glob(filepath.Join(dir, "warehouse", Namespace+".db", "sales", "data", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("%d data files, want one per commit (2)", len(files))
	}
}

func TestLoadNeedsPrincipal(t *testing.T) {
	cat := openCatalog(t)
	err := Load(t.Context(), cat, 10)
	if !errors.Is(err, storage.ErrForbidden) {
		t.Fatalf("Load without principal = %v, want ErrForbidden", err)
	}
}

func mustDate(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

// denyLoad refuses loading one table and allows everything else.
type denyLoad struct{ table string }

func (d denyLoad) Authorize(_ context.Context, _ storage.Principal, a storage.Action, target storage.Ident) error {
	if a == storage.ActionLoadTable && target.Table == d.table {
		return errors.New("denied")
	}
	return nil
}

// TestLoadLeavesADeniedTable: a deny binds administrators too, so the
// loader may be refused a demo table loaded before; Load leaves it as it
// is rather than fail the server's start.
func TestLoadLeavesADeniedTable(t *testing.T) {
	dir := t.TempDir()
	open := func(authz storage.Authorizer) storage.Catalog {
		cat, err := storage.OpenEmbedded(t.Context(), "sales_wh", dir, authz)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cat.Close() })
		return cat
	}
	if err := Load(adminCtx(t), open(storage.AllowAll{}), 10); err != nil {
		t.Fatalf("first Load: %v", err)
	}
	if err := Load(adminCtx(t), open(denyLoad{table: "orders"}), 10); err != nil {
		t.Fatalf("Load with orders denied: %v", err)
	}
}
