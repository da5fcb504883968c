package sql

import (
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestPrivilegeFunctionsAnswerFromGateOne: has_*_privilege asks gate one
// what enforcement would decide, for the session user and (administrators
// only) for others; errors are PostgreSQL's.
func TestPrivilegeFunctionsAnswerFromGateOne(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, alice, dave := open("carol", "sqe_admin"), open("alice", "analyst"), open("dave")
	for _, q := range []string{
		// alice's analyst role comes from her token in her own sessions,
		// from the store when an administrator asks about her.
		"CREATE ROLE analyst",
		"GRANT analyst TO USER alice",
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"GRANT INSERT ON sales_wh.acdemo.sales TO USER alice",
		"GRANT CREATE TABLE ON SCHEMA sales_wh.acdemo TO USER alice",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	tests := []struct {
		s     *Session
		query string
		want  string // one row, "|" between values
		code  string // or an error's SQLSTATE
	}{
		{s: alice, query: "SELECT has_table_privilege('acdemo.orders', 'SELECT'), has_table_privilege('acdemo.orders', 'insert'), has_table_privilege('acdemo.orders', 'SELECT WITH GRANT OPTION')", want: "true|false|false"},
		{s: alice, query: "SELECT has_table_privilege('acdemo.sales', 'INSERT'), has_table_privilege('acdemo.sales', 'delete, insert'), has_table_privilege('acdemo.sales', 'REFERENCES')", want: "true|true|false"},
		{s: alice, query: "SELECT has_table_privilege(current_user, 'acdemo.orders', 'UPDATE'), has_any_column_privilege('acdemo.orders', 'SELECT'), has_column_privilege('acdemo.sales', 'region', 'INSERT')", want: "false|true|true"},
		{s: alice, query: "SELECT has_table_privilege('acdemo.orders'::regclass, 'SELECT'), has_table_privilege(1, 'SELECT') IS NULL, has_table_privilege('pg_class', 'SELECT'), has_table_privilege('pg_class', 'INSERT')", want: "true|true|true|false"},
		{s: alice, query: "SELECT has_schema_privilege('acdemo', 'USAGE'), has_schema_privilege('acdemo', 'CREATE'), has_schema_privilege('pg_catalog', 'CREATE')", want: "true|true|false"},
		{s: alice, query: "SELECT has_database_privilege('sales_wh', 'CONNECT'), has_database_privilege('sales_wh', 'CREATE'), has_database_privilege('sales_wh', 'TEMP')", want: "true|false|false"},
		{s: carol, query: "SELECT has_table_privilege('acdemo.orders', 'DELETE'), has_database_privilege('sales_wh', 'CREATE'), has_schema_privilege('acdemo', 'CREATE')", want: "true|true|true"},
		// An administrator asks about others as CHECK ACCESS evaluates.
		{s: carol, query: "SELECT has_table_privilege('alice', 'acdemo.orders', 'SELECT'), has_table_privilege('dave', 'acdemo.orders', 'SELECT'), has_schema_privilege('alice', 'acdemo', 'CREATE'), has_database_privilege('dave', 'sales_wh', 'CONNECT')", want: "true|false|true|true"},
		{s: alice, query: "SELECT has_table_privilege('bob', 'acdemo.orders', 'SELECT')", code: pgerror.InsufficientPrivilege},
		// dave sees nothing of acdemo: its objects do not exist for him.
		{s: dave, query: "SELECT has_table_privilege('acdemo.orders', 'SELECT')", code: pgerror.UndefinedTable},
		{s: dave, query: "SELECT has_schema_privilege('acdemo', 'USAGE')", code: pgerror.UndefinedSchema},
		{s: alice, query: "SELECT has_table_privilege('acdemo.orders', 'SELEKT')", code: pgerror.InvalidParameterValue},
		{s: alice, query: "SELECT has_column_privilege('acdemo.orders', 'nope', 'SELECT')", code: pgerror.UndefinedColumn},
		{s: alice, query: "SELECT has_database_privilege('nope', 'CONNECT')", code: pgerror.InvalidCatalogName},
		{s: alice, query: "SELECT has_sequence_privilege('acdemo.orders', 'USAGE')", code: pgerror.WrongObjectType},
		{s: alice, query: "SELECT has_column_privilege('acdemo.orders', 99::int2, 'SELECT') IS NULL, has_table_privilege(NULL, 'SELECT') IS NULL", want: "true|true"},
	}
	for _, tt := range tests {
		rows, _, err := run(t, tt.s, tt.query)
		if tt.code != "" {
			if got := pgerror.Code(err); got != tt.code {
				t.Errorf("%s as %s: %v (%s), want SQLSTATE %s", tt.query, tt.s.identity.User, err, got, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s as %s: %v", tt.query, tt.s.identity.User, err)
			continue
		}
		if got := strings.Join(rows, "\n"); got != tt.want {
			t.Errorf("%s as %s: %s, want %s", tt.query, tt.s.identity.User, got, tt.want)
		}
	}
}
