package storage

import (
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestIdentString(t *testing.T) {
	tests := []struct {
		id   Ident
		want string
	}{
		{Ident{"cat", "ns", "t"}, "cat.ns.t"},
		{Ident{"cat", "ns", ""}, "cat.ns"},
		{Ident{Catalog: "cat"}, "cat"},
	}
	for _, tt := range tests {
		if got := tt.id.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.id, got, tt.want)
		}
	}
}

func TestCatalogNamespacesAndTables(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if cat.Name() != "wh" {
		t.Fatalf("Name() = %q", cat.Name())
	}

	for _, ns := range []string{"zeta", "alpha", "mid"} {
		if err := cat.CreateNamespace(ctx, ns); err != nil {
			t.Fatalf("CreateNamespace(%s): %v", ns, err)
		}
	}
	err := cat.CreateNamespace(ctx, "alpha")
	if !errors.Is(err, ErrAlreadyExists) || pgerror.Code(err) != pgerror.DuplicateSchema {
		t.Fatalf("second CreateNamespace: %v (code %s), want ErrAlreadyExists/42P06", err, pgerror.Code(err))
	}
	nss, err := cat.ListNamespaces(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"alpha", "mid", "zeta"}; !slices.Equal(nss, want) {
		t.Fatalf("ListNamespaces = %v, want %v", nss, want)
	}
	for ns, want := range map[string]bool{"alpha": true, "nope": false} {
		got, err := cat.NamespaceExists(ctx, ns)
		if err != nil || got != want {
			t.Errorf("NamespaceExists(%s) = %v, %v; want %v", ns, got, err, want)
		}
	}

	for _, name := range []string{"orders", "accounts"} {
		createIDTable(t, cat, "alpha", name)
	}
	tables, err := cat.ListTables(ctx, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"accounts", "orders"}; !slices.Equal(tables, want) {
		t.Fatalf("ListTables = %v, want %v", tables, want)
	}
	if tables, err := cat.ListTables(ctx, "mid"); err != nil || len(tables) != 0 {
		t.Fatalf("ListTables(empty ns) = %v, %v", tables, err)
	}

	tbl, err := cat.LoadTable(ctx, "alpha", "orders")
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.Ident(); got != (Ident{"wh", "alpha", "orders"}) {
		t.Fatalf("Ident = %v", got)
	}
	if tbl.SnapshotID() != 0 || tbl.RowCountEstimate() != 0 {
		t.Fatalf("new table: snapshot %d, rows %d", tbl.SnapshotID(), tbl.RowCountEstimate())
	}
	props := tbl.Properties()
	if props["write.delete.mode"] != "copy-on-write" {
		t.Fatalf("write.delete.mode = %q", props["write.delete.mode"])
	}
	if v := tbl.tbl.Metadata().Version(); v != 2 {
		t.Fatalf("format version = %d, want 2", v)
	}
}

func TestCatalogErrors(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	createIDTable(t, cat, "ns", "t")

	tests := []struct {
		name     string
		call     func() error
		sentinel error
		code     string
	}{
		{"load missing table", func() error { _, err := cat.LoadTable(ctx, "ns", "nope"); return err }, ErrNoSuchTable, pgerror.UndefinedTable},
		{"load in missing namespace", func() error { _, err := cat.LoadTable(ctx, "nope", "t"); return err }, ErrNoSuchNamespace, pgerror.InvalidSchemaName},
		{"list tables of missing namespace", func() error { _, err := cat.ListTables(ctx, "nope"); return err }, ErrNoSuchNamespace, pgerror.InvalidSchemaName},
		{"create in missing namespace", func() error {
			_, err := cat.CreateTable(ctx, "nope", "t", idSchema, CreateTableOptions{})
			return err
		}, ErrNoSuchNamespace, pgerror.InvalidSchemaName},
		{"create existing table", func() error {
			_, err := cat.CreateTable(ctx, "ns", "t", idSchema, CreateTableOptions{})
			return err
		}, ErrAlreadyExists, pgerror.DuplicateTable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v does not wrap %v", err, tt.sentinel)
			}
			if got := pgerror.Code(err); got != tt.code {
				t.Fatalf("SQLSTATE %s, want %s (%v)", got, tt.code, err)
			}
		})
	}
}

func TestCatalogRejectsBadNames(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	for _, ns := range []string{"", "a.b"} {
		if err := cat.CreateNamespace(ctx, ns); pgerror.Code(err) != pgerror.InvalidName {
			t.Errorf("CreateNamespace(%q) = %v, want 42602", ns, err)
		}
	}
	if _, err := cat.CreateTable(ctx, "ns", "t", arrow.NewSchema(nil, nil), CreateTableOptions{}); err == nil {
		t.Error("CreateTable with no columns succeeded")
	}
}

func TestCatalogsShareOneDatabase(t *testing.T) {
	dir := t.TempDir()
	a := openCatalog(t, "a", dir, AllowAll{})
	b := openCatalog(t, "b", dir, AllowAll{})
	ctx := adminCtx(t)
	if err := a.CreateNamespace(ctx, "only_a"); err != nil {
		t.Fatal(err)
	}
	if err := b.CreateNamespace(ctx, "only_b"); err != nil {
		t.Fatal(err)
	}
	for cat, want := range map[Catalog][]string{a: {"only_a"}, b: {"only_b"}} {
		got, err := cat.ListNamespaces(ctx)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%s.ListNamespaces = %v, %v; want %v", cat.Name(), got, err, want)
		}
	}
}

func TestCatalogReopenKeepsData(t *testing.T) {
	dir := t.TempDir()
	ctx := adminCtx(t)
	first, err := OpenEmbedded(ctx, "wh", dir, AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	tbl := createIDTable(t, first, "ns", "t")
	if _, err := tbl.Append(ctx, idBatches(t, 0, 10, 10)); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second := openCatalog(t, "wh", dir, AllowAll{})
	tbl, err = second.LoadTable(ctx, "ns", "t")
	if err != nil {
		t.Fatal(err)
	}
	if got := countRows(t, tbl); got != 10 {
		t.Fatalf("rows after reopen = %d, want 10", got)
	}
}

func TestOpenEmbeddedNeedsAuthorizer(t *testing.T) {
	if _, err := OpenEmbedded(t.Context(), "wh", t.TempDir(), nil); err == nil {
		t.Fatal("OpenEmbedded with nil authorizer succeeded")
	}
}
