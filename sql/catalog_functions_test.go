package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/auth"
	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// psql 15's \dn and \dt queries, verbatim from a capture.
const (
	psqlListSchemas = `SELECT n.nspname AS "Name",
  pg_catalog.pg_get_userbyid(n.nspowner) AS "Owner"
FROM pg_catalog.pg_namespace n
WHERE n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
ORDER BY 1;`
	psqlListTables = `SELECT n.nspname as "Schema",
  c.relname as "Name",
  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "Type",
  pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
FROM pg_catalog.pg_class c
     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
WHERE c.relkind IN ('r','p','')
      AND n.nspname <> 'pg_catalog'
      AND n.nspname !~ '^pg_toast'
      AND n.nspname <> 'information_schema'
  AND pg_catalog.pg_table_is_visible(c.oid)
ORDER BY 1,2;`
)

// psql 15's \du and \df queries, verbatim.
const (
	psqlListRoles = `SELECT r.rolname, r.rolsuper, r.rolinherit,
  r.rolcreaterole, r.rolcreatedb, r.rolcanlogin,
  r.rolconnlimit, r.rolvaliduntil,
  ARRAY(SELECT b.rolname
        FROM pg_catalog.pg_auth_members m
        JOIN pg_catalog.pg_roles b ON (m.roleid = b.oid)
        WHERE m.member = r.oid) as memberof
, r.rolreplication
, r.rolbypassrls
FROM pg_catalog.pg_roles r
WHERE r.rolname !~ '^pg_'
ORDER BY 1;`
	psqlListFunctions = `SELECT n.nspname as "Schema",
  p.proname as "Name",
  pg_catalog.pg_get_function_result(p.oid) as "Result data type",
  pg_catalog.pg_get_function_arguments(p.oid) as "Argument data types",
 CASE p.prokind
  WHEN 'a' THEN 'agg'
  WHEN 'w' THEN 'window'
  WHEN 'p' THEN 'proc'
  ELSE 'func'
 END as "Type"
FROM pg_catalog.pg_proc p
     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
WHERE pg_catalog.pg_function_is_visible(p.oid)
      AND n.nspname <> 'pg_catalog'
      AND n.nspname <> 'information_schema'
ORDER BY 1, 2, 4;`
)

func TestPsqlCatalogQueries(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"\\dn", psqlListSchemas, []string{"acdemo|sqe", "public|sqe"}},
		{"\\dt outside the search path", psqlListTables, nil},
		{"\\dt on the search path", "SET search_path = acdemo; " + psqlListTables, []string{"acdemo|orders|table|sqe", "acdemo|sales|table|sqe"}},
		{"current_schemas", "SET search_path = nope, acdemo, public; SELECT current_schemas(true), current_schemas(false), 'acdemo' = ANY (current_schemas(false))",
			[]string{`["pg_catalog","acdemo","public"]|["acdemo","public"]|true`}},
		{"catalog functions", "SELECT pg_get_userbyid(10), pg_table_is_visible(1259), has_table_privilege('acdemo.orders', 'SELECT'), obj_description(1259, 'pg_class') IS NULL",
			[]string{"sqe|true|true|true"}},
		// Values checked against PostgreSQL 15.
		{"function signatures", "SELECT pg_get_function_result(42), pg_get_function_arguments(42), pg_get_function_arguments(750), pg_get_function_identity_arguments(2905), pg_get_function_result(1) IS NULL",
			[]string{"integer|cstring|cstring, oid, integer|cstring[]|true"}},
		{"publishable", "SELECT pg_relation_is_publishable('pg_class'::regclass), pg_relation_is_publishable('acdemo.orders'::regclass), pg_relation_is_publishable(1) IS NULL, pg_get_statisticsobjdef_columns(1) IS NULL",
			[]string{"false|true|true|true"}},
		{"\\du", psqlListRoles, []string{`alice|false|true|false|false|true|-1|NULL|["analyst"]|false|false`, "analyst|false|true|false|false|false|-1|NULL|[]|false|false",
			"sqe|true|true|true|true|false|-1|NULL|[]|false|false"}},
		{"\\df", psqlListFunctions, nil},
		// oidvector and int2vector subscripts start at 0, as in PostgreSQL.
		{"vector subscripts", "SELECT proargtypes[0], proargtypes[1], proargtypes[3] IS NULL, (SELECT proargtypes::oid[] FROM pg_proc WHERE oid = 2803) FROM pg_proc WHERE oid = 750",
			[]string{"2275|26|true|[]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t)
			rows, _, err := run(t, s, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("rows %q, want %q", rows, tt.want)
			}
		})
	}
}

// A non-empty vector cast to an array would keep its lower bound 0 in
// PostgreSQL, which SQE's arrays cannot carry: it is refused, not renumbered.
func TestVectorBoundsRefused(t *testing.T) {
	s := newTestSession(t)
	for _, q := range []string{
		"SELECT proargtypes::oid[] FROM pg_proc WHERE oid = 750",
		"SELECT array_upper(proargtypes, 1) FROM pg_proc WHERE oid = 750",
	} {
		_, _, err := run(t, s, q)
		var pe *pgerror.Error
		if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported {
			t.Errorf("%s: err = %v, want SQLSTATE 0A000", q, err)
		}
	}
}

func TestRegTypes(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"regclass in and out", "SELECT 'acdemo.orders'::regclass::oid = (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'orders' AND n.nspname = 'acdemo'), 'acdemo.orders'::regclass, 'pg_class'::regclass::oid", []string{"true|acdemo.orders|1259"}},
		{"regclass on the search path prints unqualified", "SET search_path = acdemo; SELECT 'orders'::regclass", []string{"orders"}},
		{"regtype", "SELECT 'integer'::regtype::oid, 23::regtype, 'pg_catalog.int8'::regtype::text, 1700::oid::regtype", []string{"23|integer|bigint|numeric"}},
		{"regnamespace", "SELECT 'acdemo'::regnamespace::text, 11::regnamespace", []string{"acdemo|pg_catalog"}},
		{"a number is an OID", "SELECT '1259'::regclass, ' 23'::regtype, '11'::regnamespace", []string{"pg_class|integer|pg_catalog"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t)
			rows, _, err := run(t, s, tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("rows %q, want %q", rows, tt.want)
			}
		})
	}
}

// The size functions answer the bytes of a table's data files, as the
// catalog's metadata totals them; a caller under a row filter on the table
// gets NULL (the size tells of the rows the filter hides), as it gets an
// unknown reltuples.
func TestRelationSizes(t *testing.T) {
	ctx := context.Background()
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), storage.AllowAll{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	loader := storage.WithPrincipal(ctx, storage.Principal{User: "loader"})
	if err := demo.Load(loader, cat, 1000); err != nil {
		t.Fatal(err)
	}
	orders, err := cat.LoadTable(loader, "acdemo", "orders")
	if err != nil {
		t.Fatal(err)
	}
	size := orders.FilesSize()
	if size <= 0 {
		t.Fatalf("acdemo.orders has %d bytes of files", size)
	}
	e := NewEngine(EngineConfig{}, []storage.Catalog{cat}, governance.Passthrough{})
	alice, err := e.NewSession(ctx, auth.Identity{User: "alice"}, "sales_wh", nil)
	if err != nil {
		t.Fatal(err)
	}
	bob := policySession(t, cat, rowPolicy{filter: "id % 2 = 0"})
	tests := []struct {
		name    string
		s       *Session
		query   string
		want    []string
		sqlcode string
	}{
		{name: "every size function", s: alice,
			query: "SELECT pg_relation_size('acdemo.orders'), pg_relation_size('acdemo.orders', 'main'), pg_table_size('acdemo.orders'), pg_total_relation_size('acdemo.orders'), pg_indexes_size('acdemo.orders'), pg_relation_size('acdemo.orders', 'fsm'), pg_relation_size(1) IS NULL",
			want:  []string{fmt.Sprintf("%d|%d|%d|%d|0|0|true", size, size, size, size)}},
		{name: "database size", s: alice,
			query: "SELECT pg_database_size(current_database()) >= pg_relation_size('acdemo.orders'), pg_database_size(current_database()) = pg_database_size((SELECT oid FROM pg_database WHERE datname = current_database()))",
			want:  []string{"true|true"}},
		{name: "pretty", s: alice, query: "SELECT pg_size_pretty(pg_total_relation_size('acdemo.orders')) ~ '^[0-9]+ (bytes|kB)$'", want: []string{"true"}},
		{name: "under a row filter", s: bob,
			query: "SELECT pg_relation_size('acdemo.orders') IS NULL, pg_table_size('acdemo.orders') IS NULL, pg_total_relation_size('acdemo.orders') IS NULL, pg_database_size(current_database()) IS NULL",
			want:  []string{"true|true|true|true"}},
		{name: "bad fork", s: alice, query: "SELECT pg_relation_size('acdemo.orders', 'heap')", sqlcode: pgerror.InvalidParameterValue},
		{name: "another database", s: alice, query: "SELECT pg_database_size('nope')", sqlcode: pgerror.InvalidCatalogName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, _, err := run(t, tt.s, tt.query)
			if tt.sqlcode != "" {
				if code := pgerror.Code(err); code != tt.sqlcode {
					t.Fatalf("SQLSTATE %s (%v), want %s", code, err, tt.sqlcode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("rows %q, want %q", rows, tt.want)
			}
		})
	}
}
