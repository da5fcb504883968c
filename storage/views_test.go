package storage

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// denyViews refuses every view action, and allows the rest.
type denyViews struct{}

func (denyViews) Authorize(_ context.Context, _ Principal, a Action, _ Ident) error {
	switch a {
	case ActionListViews, ActionLoadView, ActionCreateView, ActionReplaceView, ActionDropView:
		return errors.New("no views for you")
	}
	return nil
}

func TestViewsLifecycle(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	vc := cat.(ViewCatalog)
	ctx := adminCtx(t)
	createIDTable(t, cat, "ns", "a")
	def := ViewDefinition{
		SQL: "SELECT id FROM ns.a",
		Schema: arrow.NewSchema([]arrow.Field{
			{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			// Iceberg has no interval type: stored as a string column.
			{Name: "iv", Type: arrow.FixedWidthTypes.MonthDayNanoInterval, Nullable: true},
		}, nil),
		Properties: map[string]string{"k": "v1"},
	}
	if err := vc.CreateView(ctx, "ns", "v", def, false); err != nil {
		t.Fatal(err)
	}
	if err := vc.CreateView(ctx, "ns", "v", def, false); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("second CreateView: %v", err)
	}
	if err := vc.CreateView(ctx, "ns", "a", def, false); !errors.Is(err, ErrAlreadyExists) {
		t.Fatalf("CreateView over a table: %v", err)
	}
	if err := vc.CreateView(ctx, "nope", "v", def, false); !errors.Is(err, ErrNoSuchNamespace) {
		t.Fatalf("CreateView in a missing namespace: %v", err)
	}
	v, err := vc.LoadView(ctx, "ns", "v")
	if err != nil {
		t.Fatal(err)
	}
	if v.SQL != def.SQL || !slices.Equal(v.Columns, []string{"id", "iv"}) || v.Properties["k"] != "v1" {
		t.Fatalf("loaded view %+v", v)
	}
	if _, err := cat.LoadTable(ctx, "ns", "v"); !errors.Is(err, ErrNoSuchTable) {
		t.Fatalf("LoadTable of a view: %v", err)
	}
	if _, err := vc.LoadView(ctx, "ns", "a"); !errors.Is(err, ErrNoSuchView) {
		t.Fatalf("LoadView of a table: %v", err)
	}
	tables, _ := cat.ListTables(ctx, "ns")
	views, _ := vc.ListViews(ctx, "ns")
	if !slices.Equal(tables, []string{"a"}) || !slices.Equal(views, []string{"v"}) {
		t.Fatalf("tables %v, views %v", tables, views)
	}

	def.SQL = "SELECT id, name FROM ns.a"
	def.Properties = map[string]string{"k": "v2"}
	if err := vc.CreateView(ctx, "ns", "v", def, true); err != nil {
		t.Fatal(err)
	}
	if err := vc.SetViewProperties(ctx, "ns", "v", map[string]string{"comment": "c", "k": ""}); err != nil {
		t.Fatal(err)
	}
	v, err = vc.LoadView(ctx, "ns", "v")
	if err != nil || v.SQL != def.SQL || v.Properties["comment"] != "c" || v.Properties["k"] != "" {
		t.Fatalf("replaced view %+v: %v", v, err)
	}

	if err := cat.DropNamespace(ctx, "ns"); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("DropNamespace with a view: %v", err)
	}
	if err := vc.DropView(ctx, "ns", "v"); err != nil {
		t.Fatal(err)
	}
	if err := vc.DropView(ctx, "ns", "v"); !errors.Is(err, ErrNoSuchView) {
		t.Fatalf("second DropView: %v", err)
	}
	if err := vc.DropView(ctx, "nope", "v"); !errors.Is(err, ErrNoSuchNamespace) {
		t.Fatalf("DropView in a missing namespace: %v", err)
	}
}

func TestViewsAskGateOne(t *testing.T) {
	dir := t.TempDir()
	cat := openCatalog(t, "wh", dir, denyViews{})
	vc := cat.(ViewCatalog)
	ctx := adminCtx(t)
	createIDTable(t, cat, "ns", "a")
	def := ViewDefinition{SQL: "SELECT 1", Schema: arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)}
	for name, err := range map[string]error{
		"create": vc.CreateView(ctx, "ns", "v", def, false),
		"drop":   vc.DropView(ctx, "ns", "v"),
		"set":    vc.SetViewProperties(ctx, "ns", "v", nil),
	} {
		if !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: %v, want forbidden", name, err)
		}
	}
	// A view that does not exist is absent whoever asks; a listing leaves
	// out the views the caller may not load.
	if _, err := vc.LoadView(ctx, "ns", "v"); !errors.Is(err, ErrNoSuchView) {
		t.Errorf("load: %v", err)
	}
	if names, err := vc.ListViews(ctx, "ns"); err != nil || len(names) != 0 {
		t.Errorf("list: %v, %v", names, err)
	}
	// One that exists is refused, and stays out of the listing.
	open := openCatalog(t, "wh", dir, AllowAll{})
	if err := open.(ViewCatalog).CreateView(ctx, "ns", "w", def, false); err != nil {
		t.Fatal(err)
	}
	if _, err := vc.LoadView(ctx, "ns", "w"); !errors.Is(err, ErrForbidden) {
		t.Errorf("load of an existing view: %v", err)
	}
	if names, err := vc.ListViews(ctx, "ns"); err != nil || len(names) != 0 {
		t.Errorf("list with an existing view: %v, %v", names, err)
	}
}
