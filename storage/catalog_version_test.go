package storage

import (
	"context"
	"testing"
	"time"
)

// allowAllUnversioned allows everything without saying a version.
type allowAllUnversioned struct{}

func (allowAllUnversioned) Authorize(context.Context, Principal, Action, Ident) error { return nil }

// TestVisibilityVersionMoves checks that the embedded catalog's version
// moves with every kind of change, including those another process
// makes to the same database (a second catalog over the same folder),
// and that a catalog whose authorizer has no version says so.
func TestVisibilityVersionMoves(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, AllowAll{})
	other := openCatalog(t, "wh", dir, AllowAll{})
	ctx := adminCtx(t)
	timed := Timed(cat, func(string, string, time.Duration, error) {})
	last := CatalogVersion{Objects: -1}
	moved := func(what string) {
		t.Helper()
		for _, c := range []Catalog{cat, timed} {
			v, ok, err := VisibilityVersion(ctx, c)
			if err != nil || !ok {
				t.Fatalf("%s: VisibilityVersion = %v, %v", what, ok, err)
			}
			if v == last {
				t.Errorf("%s: version stayed at %+v", what, v)
			}
		}
		v, _, _ := VisibilityVersion(ctx, cat)
		last = v
	}
	moved("open")
	if err := other.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	moved("namespace created by another process")
	tbl := createIDTable(t, other, "ns", "t")
	moved("table created")
	if _, err := tbl.Append(ctx, idBatches(t, 0, 10, 5)); err != nil {
		t.Fatal(err)
	}
	moved("rows appended")
	if _, err := tbl.Alter(ctx, func(a *Alteration) error { return a.SetProperties(map[string]string{"comment": "x"}) }); err != nil {
		t.Fatal(err)
	}
	moved("property set")
	if _, err := cat.RenameTable(ctx, "ns", "t", "u"); err != nil {
		t.Fatal(err)
	}
	moved("table renamed")
	if err := cat.DropTable(ctx, "ns", "u"); err != nil {
		t.Fatal(err)
	}
	moved("table dropped")
	if err := cat.DropNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	moved("namespace dropped")

	unversioned := openCatalog(t, "wh", dir, allowAllUnversioned{})
	if _, ok, err := VisibilityVersion(ctx, unversioned); ok || err != nil {
		t.Errorf("an authorizer without a version: VisibilityVersion ok = %v, %v", ok, err)
	}
}
