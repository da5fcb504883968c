package storage

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var testAdmin = Principal{User: "carol", Roles: []string{"sqe_admin"}, Token: "secret-token"}

func adminCtx(t testing.TB) context.Context {
	t.Helper()
	return WithPrincipal(t.Context(), testAdmin)
}

// openCatalog opens an embedded catalog in dir (a fresh temp dir when
// empty) and closes it when the test ends.
func openCatalog(t testing.TB, name, dir string, authz Authorizer) Catalog {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	cat, err := OpenEmbedded(t.Context(), name, dir, authz)
	if err != nil {
		t.Fatalf("OpenEmbedded: %v", err)
	}
	t.Cleanup(func() {
		if err := cat.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return cat
}

// idSchema is a two-column table: id bigint NOT NULL, name text.
var idSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

func createIDTable(t testing.TB, cat Catalog, ns, name string) *Table {
	t.Helper()
	ctx := adminCtx(t)
	if ok, err := cat.NamespaceExists(ctx, ns); err != nil {
		t.Fatal(err)
	} else if !ok {
		if err := cat.CreateNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
	}
	tbl, err := cat.CreateTable(ctx, ns, name, idSchema, CreateTableOptions{})
	if err != nil {
		t.Fatalf("CreateTable: %v", err)
	}
	return tbl
}

// idBatches builds a reader over rows ids [from, to) named "n<id>", in
// batches of at most size rows.
func idBatches(t testing.TB, from, to int64, size int64) array.RecordReader {
	t.Helper()
	var recs []arrow.RecordBatch
	for lo := from; lo < to; lo += size {
		hi := min(lo+size, to)
		b := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
		for i := lo; i < hi; i++ {
			b.Field(0).(*array.Int64Builder).Append(i)
			b.Field(1).(*array.StringBuilder).Append("n" + strconv.FormatInt(i, 10))
		}
		recs = append(recs, b.NewRecordBatch())
		b.Release()
	}
	rdr, err := array.NewRecordReader(idSchema, recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		r.Release()
	}
	t.Cleanup(rdr.Release)
	return rdr
}

// readAll drains a scan into rows of Go values (see valueAt).
func readAll(t *testing.T, tbl *Table, req ScanRequest) (*arrow.Schema, [][]any) {
	t.Helper()
	st, err := tbl.Scan(adminCtx(t), req)
	if err != nil {
		t.Fatalf("Scan: %v", err)
	}
	defer st.Close()
	var rows [][]any
	for {
		rec, err := st.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if !rec.Schema().Equal(st.Schema()) {
			t.Fatalf("batch schema %v differs from stream schema %v", rec.Schema(), st.Schema())
		}
		for i := range int(rec.NumRows()) {
			row := make([]any, rec.NumCols())
			for c := range row {
				row[c] = valueAt(rec.Column(c), i)
			}
			rows = append(rows, row)
		}
		rec.Release()
	}
	return st.Schema(), rows
}

// valueAt renders one value as a comparable Go value; nil for NULL.
func valueAt(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Boolean:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(*arrow.Decimal128Type).Scale)
	case *array.Decimal64:
		return decimal128.FromI64(int64(a.Value(i))).ToString(a.DataType().(*arrow.Decimal64Type).Scale)
	case *array.String:
		// The batch is released after the row is read, and a decoded
		// string shares its buffer.
		return strings.Clone(a.Value(i))
	case *array.Date32:
		return a.Value(i).FormattedString()
	case *array.Timestamp:
		return int64(a.Value(i))
	default:
		return a.ValueStr(i)
	}
}

func countRows(t *testing.T, tbl *Table) int {
	t.Helper()
	_, rows := readAll(t, tbl, ScanRequest{Columns: []string{"id"}})
	return len(rows)
}

// appendBuilt commits the rows built in b to tbl in one append and
// returns the table as of that commit.
func appendBuilt(t testing.TB, tbl *Table, b *array.RecordBuilder) *Table {
	t.Helper()
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	tbl, err = tbl.Append(adminCtx(t), rdr)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// createTestTable creates table ns.t of schema with props in a new
// catalog of its own.
func createTestTable(t testing.TB, schema *arrow.Schema, props map[string]string) *Table {
	t.Helper()
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "ns", "t", schema, CreateTableOptions{Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}
