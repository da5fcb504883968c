package pgcatalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgcatalog/nodetree"
	"github.com/sqe-db/sqe/sql/types"
)

// fakeSource is a small server: database sales_wh with namespaces acdemo
// and hr, unless hidden lists them.
type fakeSource struct {
	hidden map[string]bool // namespaces gate one refuses
	super  bool
	// live is the server's sessions; nil: the session belongs to no server.
	live []Activity
	// prepared are the session's named prepared statements.
	prepared []PreparedStatement
	// grants are the grants the caller sees; nil: the server keeps none.
	grants Grants
}

// regionDefault is orders.region's DEFAULT 'EU' as adbin holds it.
var regionDefault = nodetree.Default("'EU'", types.Text, nodetree.Env{Zone: time.UTC}).Encode()

var fakeTables = map[string][]TableInfo{
	"acdemo": {{Namespace: "acdemo", Name: "orders", OID: 20001, RowEstimate: 3, Columns: []planner.TableColumn{
		{Name: "id", Type: types.Int8},
		{Name: "region", Type: types.Text, Nullable: true},
		{Name: "amount", Type: types.Numeric(12, 2), Nullable: true},
	}, Defaults: []string{"", regionDefault}}},
	"hr": {{Namespace: "hr", Name: "salaries", OID: 20002, RowEstimate: 7, Columns: []planner.TableColumn{
		{Name: "name", Type: types.VarcharN(40), Nullable: true},
		{Name: "paid_on", Type: types.Date, Nullable: true},
	}}},
}

func (f fakeSource) Database() string    { return "sales_wh" }
func (f fakeSource) Databases() []string { return []string{"other", "sales_wh"} }
func (f fakeSource) User() string        { return "alice" }
func (f fakeSource) Roles() []string     { return []string{"analyst", "engineer"} }
func (f fakeSource) Superuser() bool     { return f.super }
func (f fakeSource) Grants(context.Context) (Grants, error) {
	if f.grants == nil {
		return nil, nil
	}
	return f.grants, nil
}
func (f fakeSource) BackendPID() int32 { return 4242 }
func (f fakeSource) Activity() ([]Activity, bool) {
	return f.live, f.live != nil
}
func (f fakeSource) PreparedStatements() []PreparedStatement { return f.prepared }
func (f fakeSource) Settings() [][2]string {
	return [][2]string{{"application_name", "psql"}, {"search_path", `"$user", public`}}
}

func (f fakeSource) Namespaces(context.Context) ([]string, error) {
	var out []string
	for _, ns := range []string{"acdemo", "hr"} {
		if !f.hidden[ns] {
			out = append(out, ns)
		}
	}
	return out, nil
}

func (f fakeSource) Tables(_ context.Context, ns string) ([]TableInfo, error) {
	if f.hidden[ns] {
		return nil, nil
	}
	return fakeTables[ns], nil
}

// scanAll scans every column of schema.name and renders each value as
// text ("NULL" for NULL), by column name.
func scanAll(t *testing.T, src Source, schema, name string) []map[string]string {
	t.Helper()
	rel, ok := Lookup(schema, name)
	if !ok {
		t.Fatalf("no relation %s.%s", schema, name)
	}
	tbl, err := rel.Open(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	cols := make([]int, len(tbl.Columns()))
	for i := range cols {
		cols[i] = i
	}
	return scanColumns(t, tbl, cols)
}

func scanColumns(t *testing.T, tbl planner.Table, cols []int) []map[string]string {
	t.Helper()
	st, err := tbl.Scan(context.Background(), cols, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out []map[string]string
	for {
		b, err := st.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		for r := 0; r < int(b.NumRows()); r++ {
			m := map[string]string{}
			for c := 0; c < int(b.NumCols()); c++ {
				v := "NULL"
				if !b.Column(c).IsNull(r) {
					v = b.Column(c).ValueStr(r)
				}
				m[b.ColumnName(c)] = v
			}
			out = append(out, m)
		}
		b.Release()
	}
}

// column returns the values of one column, optionally only of rows whose
// column key equals val.
func column(rows []map[string]string, col, key, val string) []string {
	var out []string
	for _, r := range rows {
		if key == "" || r[key] == val {
			out = append(out, r[col])
		}
	}
	return out
}

func TestEveryRelationScans(t *testing.T) {
	for _, key := range wantRelations {
		t.Run(key, func(t *testing.T) {
			schema, name, _ := strings.Cut(key, ".")
			rel, _ := Lookup(schema, name)
			rows := scanAll(t, fakeSource{}, schema, name)
			// Every NOT NULL column of PostgreSQL is filled in every row.
			for _, c := range rel.Columns() {
				if c.Nullable {
					continue
				}
				for i, r := range rows {
					if r[c.Name] == "NULL" {
						t.Errorf("row %d: NOT NULL column %s is NULL", i, c.Name)
					}
				}
			}
		})
	}
}

func TestContents(t *testing.T) {
	ordersOID := "20001"
	tests := []struct {
		name                  string
		schema, rel           string
		col, filterCol, equal string
		want                  []string
	}{
		{"namespaces", "pg_catalog", "pg_namespace", "nspname", "", "", []string{"pg_catalog", "public", "information_schema", "acdemo", "hr"}},
		{"system namespace oids", "pg_catalog", "pg_namespace", "oid", "nspname", "information_schema", []string{"13207"}},
		{"user namespace oid", "pg_catalog", "pg_namespace", "oid", "nspname", "acdemo", []string{fmt.Sprint(NamespaceOID("sales_wh", "acdemo"))}},
		{"schemata", "information_schema", "schemata", "schema_name", "catalog_name", "sales_wh", []string{"pg_catalog", "public", "information_schema", "acdemo", "hr"}},
		{"pg_class table", "pg_catalog", "pg_class", "relname", "oid", ordersOID, []string{"orders"}},
		{"pg_class namespace", "pg_catalog", "pg_class", "relnamespace", "oid", ordersOID, []string{fmt.Sprint(NamespaceOID("sales_wh", "acdemo"))}},
		{"pg_class kind", "pg_catalog", "pg_class", "relkind", "oid", ordersOID, []string{"r"}},
		{"pg_class natts", "pg_catalog", "pg_class", "relnatts", "oid", ordersOID, []string{"3"}},
		{"pg_class lists itself", "pg_catalog", "pg_class", "relkind", "relname", "pg_class", []string{"r"}},
		{"pg_class views", "pg_catalog", "pg_class", "relkind", "relname", "pg_roles", []string{"v"}},
		{"attributes", "pg_catalog", "pg_attribute", "attname", "attrelid", ordersOID, []string{"id", "region", "amount"}},
		{"attnum", "pg_catalog", "pg_attribute", "attnum", "attrelid", ordersOID, []string{"1", "2", "3"}},
		{"atttypid", "pg_catalog", "pg_attribute", "atttypid", "attrelid", ordersOID, []string{"20", "25", "1700"}},
		{"atttypmod", "pg_catalog", "pg_attribute", "atttypmod", "attrelid", ordersOID, []string{"-1", "-1", "786438"}},
		{"attnotnull", "pg_catalog", "pg_attribute", "attnotnull", "attrelid", ordersOID, []string{"true", "false", "false"}},
		{"atthasdef", "pg_catalog", "pg_attribute", "atthasdef", "attrelid", ordersOID, []string{"false", "true", "false"}},
		{"attrdef column", "pg_catalog", "pg_attrdef", "adnum", "adrelid", ordersOID, []string{"2"}},
		{"attrdef oid", "pg_catalog", "pg_attrdef", "oid", "adrelid", ordersOID, []string{fmt.Sprint(attrdefOID(20001, 2))}},
		{"attrdef expression", "pg_catalog", "pg_attrdef", "adbin", "adrelid", ordersOID, []string{regionDefault}},
		{"column default", "information_schema", "columns", "column_default", "table_name", "orders", []string{"NULL", "'EU'::text", "NULL"}},
		{"info tables", "information_schema", "tables", "table_name", "table_schema", "acdemo", []string{"orders"}},
		{"info columns", "information_schema", "columns", "data_type", "table_name", "orders", []string{"bigint", "text", "numeric"}},
		{"info columns precision", "information_schema", "columns", "numeric_precision", "table_name", "orders", []string{"64", "NULL", "12"}},
		{"info columns nullable", "information_schema", "columns", "is_nullable", "table_name", "salaries", []string{"YES", "YES"}},
		{"info columns varchar length", "information_schema", "columns", "character_maximum_length", "table_name", "salaries", []string{"40", "NULL"}},
		{"pg_tables", "pg_catalog", "pg_tables", "tablename", "schemaname", "hr", []string{"salaries"}},
		{"stat live tuples", "pg_catalog", "pg_stat_user_tables", "n_live_tup", "", "", []string{"3", "7"}},
		{"databases", "pg_catalog", "pg_database", "datname", "", "", []string{"other", "sales_wh"}},
		// The caller, its roles, and the owner of every object.
		{"roles", "pg_catalog", "pg_roles", "rolname", "", "", []string{"alice", "analyst", "engineer", "sqe"}},
		{"role login", "pg_catalog", "pg_roles", "rolcanlogin", "", "", []string{"true", "false", "false", "false"}},
		{"owner role", "pg_catalog", "pg_roles", "oid", "rolname", "sqe", []string{"10"}},
		{"memberships", "pg_catalog", "pg_auth_members", "roleid", "member", fmt.Sprint(RoleOID("alice")), []string{fmt.Sprint(RoleOID("analyst")), fmt.Sprint(RoleOID("engineer"))}},
		{"membership grantor", "pg_catalog", "pg_auth_members", "grantor", "", "", []string{"10", "10"}},
		{"no publications by schema", "pg_catalog", "pg_publication_namespace", "pnpubid", "", "", nil},
		{"no publications by table", "pg_catalog", "pg_publication_rel", "prrelid", "", "", nil},
		{"no partitioned tables", "pg_catalog", "pg_partitioned_table", "partrelid", "", "", nil},
		{"no foreign tables", "pg_catalog", "pg_foreign_table", "ftrelid", "", "", nil},
		{"user", "pg_catalog", "pg_user", "usename", "", "", []string{"alice"}},
		{"settings", "pg_catalog", "pg_settings", "setting", "name", "application_name", []string{"psql"}},
		{"activity", "pg_catalog", "pg_stat_activity", "application_name", "usename", "alice", []string{"psql"}},
		{"activity pid", "pg_catalog", "pg_stat_activity", "pid", "usename", "alice", []string{"4242"}},
		{"types", "pg_catalog", "pg_type", "typname", "oid", "26", []string{"oid"}},
		{"type array", "pg_catalog", "pg_type", "typarray", "typname", "int8", []string{"1016"}},
		{"type elem", "pg_catalog", "pg_type", "typelem", "typname", "_text", []string{"25"}},
		{"access methods", "pg_catalog", "pg_am", "amname", "amtype", "t", []string{"heap"}},
		{"collations", "pg_catalog", "pg_collation", "collname", "", "", []string{"default", "C", "POSIX"}},
		{"tablespaces", "pg_catalog", "pg_tablespace", "spcname", "", "", []string{"pg_default", "pg_global"}},
		{"aggregates", "pg_catalog", "pg_proc", "proname", "prorettype", "20", []string{"int8in", "sum", "sum", "max", "min", "int8recv", "count"}},
		{"no indexes", "pg_catalog", "pg_index", "indexrelid", "", "", nil},
		{"no constraints", "pg_catalog", "pg_constraint", "conname", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := column(scanAll(t, fakeSource{}, tt.schema, tt.rel), tt.col, tt.filterCol, tt.equal)
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("%s = %q, want %q", tt.col, got, tt.want)
			}
		})
	}
}

func TestSuperuserShows(t *testing.T) {
	for _, super := range []bool{false, true} {
		got := column(scanAll(t, fakeSource{super: super}, "pg_catalog", "pg_roles"), "rolsuper", "rolname", "alice")
		if want := fmt.Sprint(super); len(got) != 1 || got[0] != want {
			t.Errorf("superuser %v: rolsuper %q", super, got)
		}
	}
}

// A namespace gate one refuses is absent from every relation that lists
// namespaces, tables or columns.
func TestHiddenNamespaceIsAbsentEverywhere(t *testing.T) {
	src := fakeSource{hidden: map[string]bool{"hr": true}}
	hrNS := fmt.Sprint(NamespaceOID("sales_wh", "hr"))
	tests := []struct {
		schema, rel, col, hidden string
	}{
		{"pg_catalog", "pg_namespace", "nspname", "hr"},
		{"pg_catalog", "pg_namespace", "oid", hrNS},
		{"pg_catalog", "pg_class", "relname", "salaries"},
		{"pg_catalog", "pg_class", "relnamespace", hrNS},
		{"pg_catalog", "pg_attribute", "attrelid", "20002"},
		{"pg_catalog", "pg_attribute", "attname", "paid_on"},
		{"pg_catalog", "pg_tables", "schemaname", "hr"},
		{"pg_catalog", "pg_stat_user_tables", "relname", "salaries"},
		{"information_schema", "schemata", "schema_name", "hr"},
		{"information_schema", "tables", "table_schema", "hr"},
		{"information_schema", "columns", "table_name", "salaries"},
	}
	for _, tt := range tests {
		t.Run(tt.rel+"."+tt.col, func(t *testing.T) {
			visible := column(scanAll(t, fakeSource{}, tt.schema, tt.rel), tt.col, "", "")
			if !contains(visible, tt.hidden) {
				t.Fatalf("%s not present even when visible", tt.hidden)
			}
			if got := column(scanAll(t, src, tt.schema, tt.rel), tt.col, "", ""); contains(got, tt.hidden) {
				t.Errorf("hidden %s appears in %s.%s", tt.hidden, tt.rel, tt.col)
			}
		})
	}
}

func contains(list []string, s string) bool {
	return slices.Contains(list, s)
}

func TestScanColumnOrderAndTable(t *testing.T) {
	rel, _ := Lookup("pg_catalog", "pg_namespace")
	tbl, err := rel.Open(context.Background(), fakeSource{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tbl.QualifiedName(); got != (planner.TableName{Catalog: "sales_wh", Schema: "pg_catalog", Name: "pg_namespace"}) {
		t.Errorf("QualifiedName %+v", got)
	}
	if tbl.OID() != 2615 {
		t.Errorf("OID %d, want PostgreSQL's 2615", tbl.OID())
	}
	st, err := tbl.Scan(context.Background(), []int{1, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.Next()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if b.ColumnName(0) != "nspname" || b.ColumnName(1) != "oid" {
		t.Fatalf("columns %s, %s", b.ColumnName(0), b.ColumnName(1))
	}
	if got := b.Column(1).DataType().String(); got != "uint32" {
		t.Errorf("oid column is %s", got)
	}
	if _, err := st.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("second Next: %v, want EOF", err)
	}
}

func TestStableOIDs(t *testing.T) {
	tests := []struct {
		name string
		got  uint32
		want uint32
	}{
		{"pg_catalog", NamespaceOID("any", "pg_catalog"), 11},
		{"public", NamespaceOID("any", "public"), 2200},
		{"information_schema", NamespaceOID("any", "information_schema"), 13207},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, tt.got, tt.want)
		}
	}
	a, b := NamespaceOID("sales_wh", "acdemo"), NamespaceOID("sales_wh", "acdemo")
	if a != b || a < firstUserOID {
		t.Errorf("namespace OID %d/%d not stable above %d", a, b, firstUserOID)
	}
	if NamespaceOID("sales_wh", "acdemo") == NamespaceOID("other", "acdemo") {
		t.Error("namespaces of different databases share an OID")
	}
	if RoleOID("alice") == NamespaceOID("", "alice") {
		t.Error("a role and a namespace of one name share an OID")
	}
}
