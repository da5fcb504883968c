package sql

import (
	"strings"
	"testing"
)

// TestACLsAgreeWithPrivilegeFunctions: the aclitems pg_catalog shows are
// the privileges has_table_privilege and has_schema_privilege answer,
// each caller seeing the grants SHOW GRANTS shows it.
func TestACLsAgreeWithPrivilegeFunctions(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, alice := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "alice", "analyst")
	for _, q := range []string{
		"CREATE ROLE analyst",
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"GRANT INSERT ON sales_wh.acdemo.sales TO USER alice",
		"GRANT CREATE TABLE ON SCHEMA sales_wh.acdemo TO USER alice",
		"GRANT SELECT ON sales_wh.acdemo.sales TO USER bob WITH GRANT OPTION",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	tests := []struct {
		s     *Session
		query string
		want  []string
	}{
		{carol, "SELECT relname, relacl FROM pg_class WHERE relnamespace = 'acdemo'::regnamespace ORDER BY relname", []string{
			`orders|["sqe=arwdDxt/sqe","analyst=r/carol"]`,
			`sales|["sqe=arwdDxt/sqe","alice=arwdD/carol","bob=r*/carol"]`,
		}},
		// alice does not see bob's grant.
		{alice, "SELECT relname, relacl FROM pg_class WHERE relnamespace = 'acdemo'::regnamespace ORDER BY relname", []string{
			`orders|["sqe=arwdDxt/sqe","analyst=r/carol"]`,
			`sales|["sqe=arwdDxt/sqe","alice=arwdD/carol"]`,
		}},
		{alice, "SELECT nspacl FROM pg_namespace WHERE nspname = 'acdemo'", []string{`["sqe=UC/sqe","alice=UC/carol","analyst=U/carol"]`}},
		// Every privilege alice's ACL entries give her, she holds.
		{alice, `SELECT count(*), count(*) FILTER (WHERE has_table_privilege(quote_ident(table_schema) || '.' || quote_ident(table_name), privilege_type))
			FROM information_schema.table_privileges WHERE grantee IN ('alice', 'analyst')`, []string{"6|6"}},
		{alice, `SELECT p, has_schema_privilege('acdemo', p) FROM (VALUES ('USAGE'), ('CREATE')) v(p) ORDER BY p`, []string{"CREATE|true", "USAGE|true"}},
		// and every table privilege she holds, her ACL entries give her.
		{alice, `SELECT c.relname, p FROM pg_class c, (VALUES ('SELECT'), ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE'), ('REFERENCES'), ('TRIGGER')) v(p)
			WHERE c.relnamespace = 'acdemo'::regnamespace AND has_table_privilege(c.oid, p)
			  AND NOT EXISTS (SELECT 1 FROM information_schema.table_privileges tp
			                  WHERE tp.table_name = c.relname AND tp.privilege_type = p AND tp.grantee IN ('alice', 'analyst'))`, nil},
	}
	for _, tt := range tests {
		rows, _, err := run(t, tt.s, tt.query)
		if err != nil {
			t.Errorf("%s as %s: %v", tt.query, tt.s.identity.User, err)
			continue
		}
		if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s as %s:\n%s\nwant:\n%s", tt.query, tt.s.identity.User, strings.Join(rows, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

func TestACLFunctions(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol := openAs(t, e, "carol", "sqe_admin")
	for _, q := range []string{
		"CREATE ROLE analyst",
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst WITH GRANT OPTION",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	tests := []struct{ query, want string }{
		{"SELECT acldefault('r', 10), acldefault('n', 10), acldefault('d', 10)", `["sqe=arwdDxt/sqe"]|["sqe=UC/sqe"]|["=c/sqe","sqe=CTc/sqe"]`},
		{"SELECT makeaclitem(0, 10, 'SELECT, insert', true), makeaclitem('carol'::regrole, 10, 'USAGE', false)", "=a*r*/sqe|carol=U/sqe"},
		{`SELECT string_agg(g || ':' || p || ':' || o, ',') FROM (
			SELECT (aclexplode(relacl)).grantee = 10 AS g, (aclexplode(relacl)).privilege_type AS p, (aclexplode(relacl)).is_grantable AS o
			FROM pg_class WHERE relname = 'orders') x`,
			"true:INSERT:false,true:SELECT:false,true:UPDATE:false,true:DELETE:false,true:TRUNCATE:false,true:REFERENCES:false,true:TRIGGER:false,false:SELECT:true"},
		// PUBLIC is grantee 0.
		{"SELECT (aclexplode(acldefault('d', 10))).grantee, (aclexplode(acldefault('d', 10))).privilege_type", "0|CONNECT\n10|CREATE\n10|TEMPORARY\n10|CONNECT"},
	}
	for _, tt := range tests {
		rows, _, err := run(t, carol, tt.query)
		if err != nil {
			t.Errorf("%s: %v", tt.query, err)
			continue
		}
		if got := strings.Join(rows, "\n"); got != tt.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tt.query, got, tt.want)
		}
	}
}
