package storage

import (
	"errors"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestDropNamespaceAndTable(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	createIDTable(t, cat, "ns", "a")

	err := cat.DropNamespace(ctx, "ns")
	if !errors.Is(err, ErrNotEmpty) || pgerror.Code(err) != codeDependentObjects {
		t.Fatalf("DropNamespace of a non-empty namespace: %v", err)
	}
	if err := cat.DropTable(ctx, "ns", "a"); err != nil {
		t.Fatal(err)
	}
	if err := cat.DropTable(ctx, "ns", "a"); !errors.Is(err, ErrNoSuchTable) {
		t.Fatalf("second DropTable: %v", err)
	}
	if err := cat.DropTable(ctx, "nope", "a"); !errors.Is(err, ErrNoSuchNamespace) {
		t.Fatalf("DropTable in a missing namespace: %v", err)
	}
	if err := cat.DropNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	if err := cat.DropNamespace(ctx, "ns"); !errors.Is(err, ErrNoSuchNamespace) {
		t.Fatalf("second DropNamespace: %v", err)
	}
}

func TestRenameTableKeepsData(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "a")
	if _, err := tbl.Append(ctx, idBatches(t, 0, 5, 5)); err != nil {
		t.Fatal(err)
	}
	createIDTable(t, cat, "ns", "taken")
	if _, err := cat.RenameTable(ctx, "ns", "a", "taken"); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("rename onto an existing table: %v", err)
	}
	renamed, err := cat.RenameTable(ctx, "ns", "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	if renamed.Ident().Table != "b" || countRows(t, renamed) != 5 {
		t.Fatalf("renamed table %s has %d rows", renamed.Ident(), countRows(t, renamed))
	}
	if _, err := cat.LoadTable(ctx, "ns", "a"); !errors.Is(err, ErrNoSuchTable) {
		t.Fatalf("old name still loads: %v", err)
	}
}

// TestAlterResolvesByFieldID checks that data follows field ids across a
// rename, an added column and a drop and re-add of the same name.
func TestAlterResolvesByFieldID(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "a")
	tbl, err := tbl.Append(ctx, idBatches(t, 0, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	var addedID, droppedID int
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		if err := a.RenameColumn("name", "label"); err != nil {
			return err
		}
		if addedID, err = a.AddColumn("extra", arrow.PrimitiveTypes.Int32, false, "added later"); err != nil {
			return err
		}
		return a.SetProperties(map[string]string{fmt.Sprintf("sqe.default.%d", addedID): "7"})
	})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readAll(t, tbl, ScanRequest{})
	if fmt.Sprint(rows) != "[[0 n0 <nil>] [1 n1 <nil>]]" {
		t.Fatalf("after rename and add: %v", rows)
	}
	if doc, _ := tbl.Schema().Field(2).Metadata.GetValue("doc"); doc != "added later" {
		t.Fatalf("doc of the added column = %q", doc)
	}
	if tbl.Properties()[fmt.Sprintf("sqe.default.%d", addedID)] != "7" {
		t.Fatalf("properties %v lack the default", tbl.Properties())
	}
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		if droppedID, err = a.DropColumn("label"); err != nil {
			return err
		}
		_, err := a.AddColumn("label", arrow.BinaryTypes.String, false, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if droppedID != 2 {
		t.Fatalf("dropped field id %d, want 2", droppedID)
	}
	_, rows = readAll(t, tbl, ScanRequest{})
	if fmt.Sprint(rows) != "[[0 <nil> <nil>] [1 <nil> <nil>]]" {
		t.Fatalf("after drop and re-add: %v", rows)
	}
	_, err = tbl.Alter(ctx, func(a *Alteration) error { return a.RenameColumn("missing", "x") })
	if pgerror.Code(err) != pgerror.UndefinedColumn {
		t.Fatalf("rename of a missing column: %v", err)
	}
}

func TestTruncate(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "a")
	empty, err := tbl.Truncate(ctx)
	if err != nil || empty.SnapshotID() != 0 {
		t.Fatalf("truncate of an empty table: snapshot %d, %v", empty.SnapshotID(), err)
	}
	for i := int64(0); i < 2; i++ {
		if tbl, err = tbl.Append(ctx, idBatches(t, i*10, i*10+10, 4)); err != nil {
			t.Fatal(err)
		}
	}
	before := tbl.SnapshotID()
	tbl, err = tbl.Truncate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if countRows(t, tbl) != 0 || tbl.SnapshotID() == before || tbl.RowCountEstimate() != 0 {
		t.Fatalf("after truncate: %d rows, snapshot %d (was %d)", countRows(t, tbl), tbl.SnapshotID(), before)
	}
	if tbl, err = tbl.Append(ctx, idBatches(t, 100, 103, 4)); err != nil || countRows(t, tbl) != 3 {
		t.Fatalf("append after truncate: %v", err)
	}
}

func TestCreatePartitioned(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	parts := []PartitionField{{Transform: "day", Column: "d"}, {Transform: "bucket", Param: 16, Column: "id"}, {Transform: "truncate", Param: 3, Column: "s"}}
	tbl, err := cat.CreateTable(ctx, "ns", "p", schema, CreateTableOptions{Partitioning: parts})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.tbl.Spec().String(); got != "[\n\t1000: d_day: day(2)\n\t1001: id_bucket: bucket[16](1)\n\t1002: s_trunc: truncate[3](3)\n]" {
		t.Fatalf("spec %q", got)
	}
	for _, bad := range [][]PartitionField{
		{{Transform: "day", Column: "s"}},
		{{Transform: "bucket", Param: 0, Column: "id"}},
		{{Transform: "week", Column: "d"}},
	} {
		_, err := cat.CreateTable(ctx, "ns", "bad", schema, CreateTableOptions{Partitioning: bad})
		if pgerror.Code(err) != pgerror.InvalidParameterValue {
			t.Errorf("%v: %v", bad, err)
		}
	}
	_, err = cat.CreateTable(ctx, "ns", "bad", schema, CreateTableOptions{Partitioning: []PartitionField{{Transform: "identity", Column: "zz"}}})
	if pgerror.Code(err) != pgerror.UndefinedColumn {
		t.Errorf("unknown partition column: %v", err)
	}
}

// TestCreateTableFieldIDProperties checks that properties derived from the
// columns' field ids are part of the created table, and that failing to
// derive them creates nothing.
func TestCreateTableFieldIDProperties(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		derive  func(ids map[string]int) (map[string]string, error)
		want    string // the property "ids", when created
		wantErr bool
	}{
		{name: "derived", derive: func(ids map[string]int) (map[string]string, error) {
			return map[string]string{"ids": fmt.Sprintf("id=%d name=%d", ids["id"], ids["name"])}, nil
		}, want: "id=1 name=2"},
		{name: "failing", derive: func(map[string]int) (map[string]string, error) {
			return nil, errors.New("cannot derive")
		}, wantErr: true},
	}
	for _, tt := range tests {
		tbl, err := cat.CreateTable(ctx, "ns", tt.name, idSchema, CreateTableOptions{FieldIDProperties: tt.derive})
		if tt.wantErr {
			if err == nil {
				t.Errorf("%s: CreateTable succeeded", tt.name)
			}
			if _, err := cat.LoadTable(ctx, "ns", tt.name); !errors.Is(err, ErrNoSuchTable) {
				t.Errorf("%s: LoadTable after a failed create: %v", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: CreateTable: %v", tt.name, err)
		}
		if got := tbl.Properties()["ids"]; got != tt.want {
			t.Errorf("%s: property ids = %q, want %q", tt.name, got, tt.want)
		}
	}
}
