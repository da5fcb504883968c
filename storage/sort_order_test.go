package storage

import (
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestCreateTableSortOrder(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	if err := cat.CreateNamespace(ctx, "ns"); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true},
		{Name: "Tag", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
	}, nil)
	tests := []struct {
		name    string
		order   []SortField
		code    string // SQLSTATE of the refusal, "" when created
		iceberg string // the created table's order, as iceberg-go prints it
	}{
		{name: "none", order: nil, iceberg: "0: []"},
		{name: "one", order: []SortField{{Column: "id", NullsFirst: true}}, iceberg: "1: [\n1 asc nulls-first\n]"},
		{name: "two", order: []SortField{{Column: "id", NullsFirst: true}, {Column: "ts", Descending: true}},
			iceberg: "1: [\n1 asc nulls-first\n2 desc nulls-last\n]"},
		{name: "quoted", order: []SortField{{Column: "Tag"}}, iceberg: "1: [\n3 asc nulls-last\n]"},
		{name: "unknown", order: []SortField{{Column: "zz"}}, code: pgerror.UndefinedColumn},
		{name: "twice", order: []SortField{{Column: "id"}, {Column: "id", Descending: true}}, code: pgerror.DuplicateColumn},
		{name: "nested", order: []SortField{{Column: "xs"}}, code: pgerror.FeatureNotSupported},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "t" + string(rune('a'+i))
			tbl, err := cat.CreateTable(ctx, "ns", name, schema, CreateTableOptions{SortOrder: tc.order})
			if tc.code != "" {
				if pgerror.Code(err) != tc.code {
					t.Fatalf("got %v, want SQLSTATE %s", err, tc.code)
				}
				if _, err := cat.LoadTable(ctx, "ns", name); err == nil {
					t.Fatal("refused table was created")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tbl.tbl.SortOrder().String(); got != tc.iceberg {
				t.Errorf("iceberg order %q, want %q", got, tc.iceberg)
			}
			if got := tbl.SortOrder(); !slices.Equal(got, tc.order) {
				t.Errorf("SortOrder() = %v, want %v", got, tc.order)
			}
			loaded, err := cat.LoadTable(ctx, "ns", name)
			if err != nil {
				t.Fatal(err)
			}
			if got := loaded.SortOrder(); !slices.Equal(got, tc.order) {
				t.Errorf("loaded SortOrder() = %v, want %v", got, tc.order)
			}
		})
	}
}

func TestAlterSortOrder(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	steps := []struct {
		name  string
		set   []SortField
		want  []SortField
		order int // the default sort order id after the step
		code  string
	}{
		{name: "set", set: []SortField{{Column: "id", NullsFirst: true}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1},
		{name: "change", set: []SortField{{Column: "name", Descending: true}, {Column: "id"}},
			want: []SortField{{Column: "name", Descending: true}, {Column: "id"}}, order: 2},
		{name: "same again", set: []SortField{{Column: "name", Descending: true}, {Column: "id"}},
			want: []SortField{{Column: "name", Descending: true}, {Column: "id"}}, order: 2},
		{name: "back to the first", set: []SortField{{Column: "id", NullsFirst: true}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1},
		{name: "unknown column", set: []SortField{{Column: "nope"}}, want: []SortField{{Column: "id", NullsFirst: true}}, order: 1, code: pgerror.UndefinedColumn},
		{name: "unsorted", set: nil, want: nil, order: 0},
	}
	for _, st := range steps {
		altered, err := tbl.Alter(ctx, func(a *Alteration) error { return a.SetSortOrder(st.set) })
		if pgerror.Code(err) != st.code && (st.code != "" || err != nil) {
			t.Fatalf("%s: got %v, want SQLSTATE %q", st.name, err, st.code)
		}
		if err == nil {
			tbl = altered
		}
		if got := tbl.SortOrder(); !slices.Equal(got, st.want) {
			t.Errorf("%s: SortOrder() = %v, want %v", st.name, got, st.want)
		}
		if got := tbl.tbl.Metadata().DefaultSortOrder(); got != st.order {
			t.Errorf("%s: default sort order id %d, want %d", st.name, got, st.order)
		}
	}
}

func TestDropSortColumn(t *testing.T) {
	cat := openCatalog(t, "wh", "", AllowAll{})
	ctx := adminCtx(t)
	tbl := createIDTable(t, cat, "ns", "t")
	tbl, err := tbl.Alter(ctx, func(a *Alteration) error { return a.SetSortOrder([]SortField{{Column: "name"}}) })
	if err != nil {
		t.Fatal(err)
	}
	_, err = tbl.Alter(ctx, func(a *Alteration) error { _, err := a.DropColumn("name"); return err })
	if pgerror.Code(err) != pgerror.DependentObjectsStillExist {
		t.Fatalf("drop of the sort column: %v", err)
	}
	// In one alteration the order can be changed first.
	tbl, err = tbl.Alter(ctx, func(a *Alteration) error {
		if err := a.SetSortOrder([]SortField{{Column: "id"}}); err != nil {
			return err
		}
		_, err := a.DropColumn("name")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.SortOrder(); !slices.Equal(got, []SortField{{Column: "id"}}) {
		t.Fatalf("SortOrder() = %v", got)
	}
}

func TestFormatSortOrder(t *testing.T) {
	got := FormatSortOrder([]SortField{{Column: "id", NullsFirst: true}, {Column: "Ts", Descending: true}, {Column: `a"b`}})
	if want := `id ASC NULLS FIRST, "Ts" DESC NULLS LAST, "a""b" ASC NULLS LAST`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
