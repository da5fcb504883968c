package sql

import (
	"strings"
	"testing"
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

func TestRegTypes(t *testing.T) {
	tests := []struct {
		name, query string
		want        []string
	}{
		{"regclass in and out", "SELECT 'acdemo.orders'::regclass::oid = (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'orders' AND n.nspname = 'acdemo'), 'acdemo.orders'::regclass, 'pg_class'::regclass::oid", []string{"true|acdemo.orders|1259"}},
		{"regclass on the search path prints unqualified", "SET search_path = acdemo; SELECT 'orders'::regclass", []string{"orders"}},
		{"regtype", "SELECT 'integer'::regtype::oid, 23::regtype, 'pg_catalog.int8'::regtype::text, 1700::oid::regtype", []string{"23|integer|bigint|numeric"}},
		{"regnamespace", "SELECT 'acdemo'::regnamespace::text, 11::regnamespace", []string{"acdemo|pg_catalog"}},
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
