package sql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// TestDeclaredColumnTypes reads a table whose smallint and varchar(5)
// columns are stored as Iceberg int and string with their declared
// types recorded: the columns are smallint and varchar(5) again, and
// smallint arithmetic overflows as PostgreSQL's does.
func TestDeclaredColumnTypes(t *testing.T) {
	ctx := storage.WithPrincipal(context.Background(), storage.Principal{User: "loader"})
	cat, err := storage.OpenEmbedded(ctx, "wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "i2", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "vc", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "plain", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	}, nil)
	if err := cat.CreateNamespace(ctx, "decl"); err != nil {
		t.Fatal(err)
	}
	tbl, err := cat.CreateTable(ctx, "decl", "small", schema, storage.CreateTableOptions{ColumnProperties: map[string]map[string]string{
		"i2": {storage.DeclaredTypeKey: "smallint"},
		"vc": {storage.DeclaredTypeKey: "character varying(5)"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int16Builder).AppendValues([]int16{32767, -3, 0}, []bool{true, true, false})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"abc", "", "x"}, []bool{true, true, false})
	b.Field(2).(*array.Int16Builder).AppendValues([]int16{1, 2, 3}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	defer rdr.Release()
	if _, err := tbl.Append(ctx, rdr); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(context.Background(), auth.Identity{User: "alice"}, "wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := run(t, s, "SELECT pg_typeof(i2), pg_typeof(vc), pg_typeof(plain), i2, vc, i2 - 1 FROM decl.small ORDER BY i2 NULLS LAST")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"smallint|character varying|integer|-3||-4",
		"smallint|character varying|integer|32767|abc|32766",
		"smallint|character varying|integer|NULL|NULL|NULL",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows %q, want %q", rows, want)
	}
	_, _, err = run(t, s, "SELECT i2 + i2 FROM decl.small WHERE i2 > 0")
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.NumericValueOutOfRange {
		t.Fatalf("i2 + i2 over 32767: got %v, want 22003", err)
	}
}
