package storage

import (
	"errors"
	"testing"
	"time"
)

// A timed catalog reports each operation with its outcome and keeps the
// optional interfaces of the catalog it wraps.
func TestTimedCatalogReportsCalls(t *testing.T) {
	type call struct {
		catalog, op string
		failed      bool
	}
	var calls []call
	cat := Timed(openCatalog(t, "wh", "", AllowAll{}), func(catalog, op string, took time.Duration, err error) {
		if took < 0 {
			t.Errorf("%s took %s", op, took)
		}
		calls = append(calls, call{catalog, op, err != nil})
	})
	if _, ok := cat.(ViewCatalog); !ok {
		t.Error("the timed embedded catalog is no ViewCatalog")
	}
	if _, ok := cat.(AccessProbe); !ok {
		t.Error("the timed embedded catalog is no AccessProbe")
	}
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.LoadTable(ctx, "ns", "missing"); !errors.Is(err, ErrNoSuchTable) {
		t.Fatalf("LoadTable of a missing table: %v", err)
	}
	if _, err := cat.(ViewCatalog).ListViews(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	want := []call{{"wh", "create_namespace", false}, {"wh", "load_table", true}, {"wh", "list_views", false}}
	if len(calls) != len(want) {
		t.Fatalf("calls = %v, want %v", calls, want)
	}
	for i := range want {
		if calls[i] != want[i] {
			t.Errorf("call %d = %v, want %v", i, calls[i], want[i])
		}
	}
}
