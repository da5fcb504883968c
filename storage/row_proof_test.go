package storage

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/iceberg-go"
)

// namedRows builds a one-batch reader of idSchema rows: ids from 0 and
// the given names, nil for NULL.
func namedRows(t *testing.T, first int64, names ...any) array.RecordReader {
	t.Helper()
	b := array.NewRecordBuilder(memory.DefaultAllocator, idSchema)
	defer b.Release()
	for i, n := range names {
		b.Field(0).(*array.Int64Builder).Append(first + int64(i))
		if n == nil {
			b.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(n.(string))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(idSchema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

func TestAdmitsEveryRow(t *testing.T) {
	ctx := adminCtx(t)
	cat := openCatalog(t, "wh", "", AllowAll{})
	// Two files: ids 0-2 named EU / US / APAC, ids 10-11 named EU / LATAM.
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Append(ctx, namedRows(t, 0, "EU", "US", "APAC"))
	if err != nil {
		t.Fatal(err)
	}
	if tbl, err = tbl.Append(ctx, namedRows(t, 10, "EU", "LATAM")); err != nil {
		t.Fatal(err)
	}
	withNull, err := tbl.Append(ctx, namedRows(t, 20, nil, "EU"))
	if err != nil {
		t.Fatal(err)
	}
	name, id := iceberg.Reference("name"), iceberg.Reference("id")
	tests := []struct {
		name   string
		tbl    *Table
		filter iceberg.BooleanExpression
		want   bool
	}{
		{"value no file holds, above every upper bound", tbl, iceberg.NotEqualTo(name, "XX"), true},
		{"value below every lower bound", tbl, iceberg.NotEqualTo(name, "AA"), true},
		{"value inside a file's bounds", tbl, iceberg.NotEqualTo(name, "EU"), false},
		{"equality on a file of several values", tbl, iceberg.EqualTo(name, "EU"), false},
		{"range holding every id", tbl, iceberg.LessThan(id, int64(12)), true},
		{"range missing the last id", tbl, iceberg.LessThan(id, int64(11)), false},
		{"range on the lower bound", tbl, iceberg.GreaterThanEqual(id, int64(0)), true},
		{"IS NOT NULL without NULLs", tbl, iceberg.NotNull(name), true},
		{"AND of proven parts", tbl, iceberg.NewAnd(iceberg.NotNull(name), iceberg.GreaterThan(id, int64(-1))), true},
		{"AND with an unproven part", tbl, iceberg.NewAnd(iceberg.NotNull(name), iceberg.GreaterThan(id, int64(0))), false},
		{"OR with one proven side", tbl, iceberg.NewOr(iceberg.EqualTo(name, "EU"), iceberg.GreaterThan(id, int64(-1))), true},
		{"NOT is judged after rewriting", tbl, iceberg.NewNot(iceberg.EqualTo(name, "XX")), true},
		{"a NULL is doubt (SQL does not admit NULL <> 'XX')", withNull, iceberg.NotEqualTo(name, "XX"), false},
		{"IS NOT NULL with a NULL", withNull, iceberg.NotNull(name), false},
		{"a filter pruning every file", tbl, iceberg.GreaterThan(id, int64(100)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.tbl.AdmitsEveryRow(ctx, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("AdmitsEveryRow(%s) = %v, want %v", tt.filter, got, tt.want)
			}
		})
	}
}

// TestAdmitsEveryRowCountsStagedRows checks that rows a transaction wrote
// and has not committed are judged too: its own reads see them.
func TestAdmitsEveryRowCountsStagedRows(t *testing.T) {
	ctx := adminCtx(t)
	tbl := createIDTable(t, openCatalog(t, "wh", "", AllowAll{}), "ns", "t")
	tbl, err := tbl.Append(ctx, namedRows(t, 0, "EU", "US"))
	if err != nil {
		t.Fatal(err)
	}
	notXX := iceberg.NotEqualTo(iceberg.Reference("name"), "XX")
	if ok, err := tbl.AdmitsEveryRow(ctx, notXX); err != nil || !ok {
		t.Fatalf("committed rows only: %v, %v; want true", ok, err)
	}
	w, err := tbl.Stage(ctx, namedRows(t, 5, "XX"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Discard(ctx)
	staged, err := tbl.WithStaged([]*StagedWrite{w})
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := staged.AdmitsEveryRow(ctx, notXX); err != nil || ok {
		t.Fatalf("with a staged XX row: %v, %v; want false", ok, err)
	}
}

// BenchmarkAdmitsEveryRow proves a filter over a table of six files, as
// every query under a row filter asks (the plan is cached).
func BenchmarkAdmitsEveryRow(b *testing.B) {
	tbl := createIDTable(b, openCatalog(b, "wh", "", AllowAll{}), "ns", "t")
	for lo := int64(0); lo < 60; lo += 10 {
		tbl = appendIDs(b, tbl, lo, lo+10)
	}
	ctx := adminCtx(b)
	filter := iceberg.NotEqualTo(iceberg.Reference("name"), "XX")
	for b.Loop() {
		if ok, err := tbl.AdmitsEveryRow(ctx, filter); err != nil || !ok {
			b.Fatalf("AdmitsEveryRow: %v, %v", ok, err)
		}
	}
}
