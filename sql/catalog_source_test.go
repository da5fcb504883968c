package sql

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// refuseFor refuses alice every action on one namespace, or on one table
// when table is set; everyone else (the demo loader) is allowed.
type refuseFor struct{ namespace, table string }

func (r refuseFor) Authorize(_ context.Context, p storage.Principal, _ storage.Action, target storage.Ident) error {
	if p.User != "alice" || target.Namespace != r.namespace {
		return nil
	}
	if r.table == "" || target.Table == r.table {
		return errors.New("refused by test policy")
	}
	return nil
}

func newCatalogTestSession(t *testing.T, authz storage.Authorizer) *Session {
	t.Helper()
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), authz)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := demo.Load(storage.WithPrincipal(ctx, storage.Principal{User: "loader"}), cat, 10); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(EngineConfig{AdminRoles: []string{"sqe_admin"}}, []storage.Catalog{cat}, governance.Passthrough{})
	s, err := e.NewSession(ctx, auth.Identity{User: "alice", Roles: []string{"analyst"}}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCatalogQueriesThroughSession(t *testing.T) {
	tests := []struct {
		name     string
		query    string
		wantRows []string
		wantCode string
	}{
		{name: "namespaces", query: "SELECT nspname FROM pg_catalog.pg_namespace ORDER BY 1",
			wantRows: []string{"acdemo", "information_schema", "pg_catalog", "public"}},
		{name: "information_schema tables", query: "SELECT table_name FROM information_schema.tables WHERE table_schema = 'acdemo' ORDER BY 1",
			wantRows: []string{"orders", "sales"}},
		{name: "unqualified pg_catalog name", query: "SELECT count(*) FROM pg_tables WHERE schemaname = 'acdemo'",
			wantRows: []string{"2"}},
		{name: "three-part name", query: "SELECT relname FROM sales_wh.pg_catalog.pg_class WHERE relname = 'orders'",
			wantRows: []string{"orders"}},
		{name: "information_schema on search_path", query: "SET search_path = information_schema; SELECT column_name FROM columns WHERE table_name = 'orders' ORDER BY ordinal_position",
			wantRows: []string{"id", "region", "ssn", "amount", "order_date"}},
		{name: "column types", query: "SELECT data_type FROM information_schema.columns WHERE table_name = 'orders' ORDER BY ordinal_position",
			wantRows: []string{"bigint", "text", "text", "numeric", "date"}},
		{name: "caller roles", query: "SELECT rolname FROM pg_roles ORDER BY 1", wantRows: []string{"alice", "analyst", "sqe"}},
		{name: "database", query: "SELECT datname FROM pg_database", wantRows: []string{"sales_wh"}},
		{name: "settings", query: "SELECT setting FROM pg_settings WHERE name = 'TimeZone'", wantRows: []string{"UTC"}},
		{name: "unknown information_schema relation", query: "SELECT * FROM information_schema.nope", wantCode: pgerror.UndefinedTable},
		{name: "unknown pg_catalog relation", query: "SELECT * FROM pg_catalog.pg_nope", wantCode: pgerror.UndefinedTable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newCatalogTestSession(t, storage.AllowAll{})
			rows, _, err := run(t, s, tt.query)
			if tt.wantCode != "" {
				if pgerror.Code(err) != tt.wantCode {
					t.Fatalf("want %s, got %v", tt.wantCode, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows, "\n") != strings.Join(tt.wantRows, "\n") {
				t.Errorf("rows %q, want %q", rows, tt.wantRows)
			}
		})
	}
}

// scanVirtual resolves a catalog relation through the session and scans
// the named columns directly. Filtering on oid columns is done here: the
// engine cannot compare oid with integer literals yet.
func scanVirtual(t *testing.T, s *Session, schema, name string, cols ...string) [][]string {
	t.Helper()
	ctx := context.Background()
	tbl, err := s.catalog.ResolveTable(ctx, planner.TableName{Schema: schema, Name: name})
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, c := range cols {
		for i, tc := range tbl.Columns() {
			if tc.Name == c {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) != len(cols) {
		t.Fatalf("%s.%s lacks one of %v", schema, name, cols)
	}
	st, err := tbl.Scan(ctx, idx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out [][]string
	for {
		b, err := st.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				vals[c] = b.Column(c).ValueStr(r)
			}
			out = append(out, vals)
		}
		b.Release()
	}
}

func TestAttributesOfTable(t *testing.T) {
	s := newCatalogTestSession(t, storage.AllowAll{})
	oid := strconv.FormatUint(uint64(TableOID(storage.Ident{Catalog: "sales_wh", Namespace: "acdemo", Table: "orders"})), 10)
	var got []string
	for _, r := range scanVirtual(t, s, "pg_catalog", "pg_attribute", "attrelid", "attnum", "attname", "atttypid", "attnotnull") {
		if r[0] == oid {
			got = append(got, strings.Join(r[1:], "|"))
		}
	}
	want := []string{"1|id|20|true", "2|region|25|false", "3|ssn|25|false", "4|amount|1700|false", "5|order_date|1082|false"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("attributes %q, want %q", got, want)
	}
	classes := scanVirtual(t, s, "pg_catalog", "pg_class", "oid", "relname")
	found := false
	for _, r := range classes {
		found = found || (r[0] == oid && r[1] == "orders")
	}
	if !found {
		t.Errorf("pg_class has no row for orders with oid %s", oid)
	}
}

// A namespace or table gate one refuses is absent from every catalog
// relation, not an error.
func TestRefusedObjectsAreAbsent(t *testing.T) {
	tests := []struct {
		name   string
		authz  refuseFor
		hidden []string // names that must not appear
		shown  []string // names that must still appear
	}{
		{name: "namespace", authz: refuseFor{namespace: "acdemo"}, hidden: []string{"acdemo", "orders", "sales", "ssn"}, shown: []string{"pg_catalog", "public"}},
		{name: "table", authz: refuseFor{namespace: "acdemo", table: "sales"}, hidden: []string{"sales", "product"}, shown: []string{"acdemo", "orders", "ssn"}},
	}
	relations := []struct{ schema, name, col string }{
		{"pg_catalog", "pg_namespace", "nspname"},
		{"pg_catalog", "pg_class", "relname"},
		{"pg_catalog", "pg_attribute", "attname"},
		{"pg_catalog", "pg_tables", "tablename"},
		{"pg_catalog", "pg_tables", "schemaname"},
		{"pg_catalog", "pg_stat_user_tables", "relname"},
		{"information_schema", "schemata", "schema_name"},
		{"information_schema", "tables", "table_name"},
		{"information_schema", "tables", "table_schema"},
		{"information_schema", "columns", "column_name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newCatalogTestSession(t, tt.authz)
			all := map[string]bool{}
			for _, rel := range relations {
				for _, r := range scanVirtual(t, s, rel.schema, rel.name, rel.col) {
					all[r[0]] = true
					for _, h := range tt.hidden {
						if r[0] == h {
							t.Errorf("%s.%s shows refused %q", rel.name, rel.col, h)
						}
					}
				}
			}
			for _, want := range tt.shown {
				if !all[want] {
					t.Errorf("%q is missing though allowed", want)
				}
			}
		})
	}
}
