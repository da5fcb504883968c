package compattests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// privilegeGrants are made by carol, an administrator of the demo, before
// the privilege clients' queries run: with the demo's SELECT for analyst,
// orders then has three grantees besides its owner.
var privilegeGrants = []string{
	"GRANT INSERT ON sales_wh.acdemo.orders TO USER alice",
	"GRANT SELECT ON sales_wh.acdemo.orders TO USER dave WITH GRANT OPTION",
}

// readPrivilegeQuery reads a client's query from testdata/privileges,
// without its leading comment lines (where it comes from).
func readPrivilegeQuery(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "privileges", name))
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "--") {
			keep = append(keep, l)
		}
	}
	return strings.TrimSpace(strings.Join(keep, "\n"))
}

// queryRows runs sql with args and renders each row as its values joined
// by "|", NULL as "NULL", in the order given by the query (sorted when
// sorted is set).
func queryRows(t *testing.T, ctx context.Context, conn *pgx.Conn, sorted bool, sql string, args ...any) []string {
	t.Helper()
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				parts[i] = "NULL"
				continue
			}
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if sorted {
		slices.Sort(out)
	}
	return out
}

// TestPrivilegeClientQueries replays the privilege tabs' queries of
// pgAdmin and DBeaver against sqe serve --demo after carol's grants: each
// must run and list the grants.
func TestPrivilegeClientQueries(t *testing.T) {
	ctx := testContext(t, 2*time.Minute)
	srv, carol := demoAsCarol(t, ctx)
	for _, g := range privilegeGrants {
		if _, err := carol.Exec(ctx, g); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
	}
	aliceToken, err := srv.mintCLI("alice")
	if err != nil {
		t.Fatal(err)
	}
	alice := connectConfig(t, ctx, pgxConfig(t, srv, "alice", demoDatabase, "disable", aliceToken))
	var nsOID, relOID uint32
	if err := carol.QueryRow(ctx, "SELECT relnamespace, oid FROM pg_class WHERE oid = 'acdemo.orders'::regclass").Scan(&nsOID, &relOID); err != nil {
		t.Fatal(err)
	}
	pgadmin := readPrivilegeQuery(t, "pgadmin_table_acl.sql")
	dbeaverTable := readPrivilegeQuery(t, "dbeaver_table_privileges.sql")
	dbeaverRole := readPrivilegeQuery(t, "dbeaver_role_privileges.sql")

	tests := []struct {
		name string
		conn *pgx.Conn
		sql  string
		args []any
		want []string
	}{
		// pgAdmin groups by grantee and grantor names from pg_roles,
		// which lists the owner (OID 10) and the grantors of the grants
		// the caller sees, as PostgreSQL's lists every role.
		{name: "pgAdmin table acl as carol", conn: carol, sql: pgadmin, args: []any{nsOID, relOID},
			want: []string{
				"relacl|alice|sqe-demo-loader|[d a r D w]|[false false false false false]",
				"relacl|analyst|sqe-demo-loader|[r]|[false]",
				"relacl|dave|sqe-demo-loader|[r]|[true]",
				"relacl|sqe|sqe|[d a x r t D w]|[false false false false false false false]",
			}},
		{name: "pgAdmin table acl as alice", conn: alice, sql: pgadmin, args: []any{nsOID, relOID},
			want: []string{
				"relacl|alice|sqe-demo-loader|[d a r D w]|[false false false false false]",
				"relacl|analyst|sqe-demo-loader|[r]|[false]",
				"relacl|sqe|sqe|[d a x r t D w]|[false false false false false false false]",
			}},
		{name: "DBeaver table permissions as carol", conn: carol, sql: dbeaverTable, args: []any{demoDatabase, "acdemo", "orders"},
			want: []string{
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|DELETE|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|INSERT|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|SELECT|NO|YES",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|TRUNCATE|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|UPDATE|NO|NO",
				"sqe-demo-loader|analyst|sales_wh|acdemo|orders|SELECT|NO|YES",
				"sqe-demo-loader|dave|sales_wh|acdemo|orders|SELECT|YES|YES",
				"sqe|sqe|sales_wh|acdemo|orders|DELETE|YES|NO",
				"sqe|sqe|sales_wh|acdemo|orders|INSERT|YES|NO",
				"sqe|sqe|sales_wh|acdemo|orders|REFERENCES|YES|NO",
				"sqe|sqe|sales_wh|acdemo|orders|SELECT|YES|YES",
				"sqe|sqe|sales_wh|acdemo|orders|TRIGGER|YES|NO",
				"sqe|sqe|sales_wh|acdemo|orders|TRUNCATE|YES|NO",
				"sqe|sqe|sales_wh|acdemo|orders|UPDATE|YES|NO",
			}},
		// alice sees neither dave's grant nor the owner's rows.
		{name: "DBeaver table permissions as alice", conn: alice, sql: dbeaverTable, args: []any{demoDatabase, "acdemo", "orders"},
			want: []string{
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|DELETE|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|INSERT|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|SELECT|NO|YES",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|TRUNCATE|NO|NO",
				"sqe-demo-loader|alice|sales_wh|acdemo|orders|UPDATE|NO|NO",
				"sqe-demo-loader|analyst|sales_wh|acdemo|orders|SELECT|NO|YES",
			}},
		{name: "DBeaver role permissions of analyst", conn: carol, sql: dbeaverRole, args: []any{demoDatabase, "analyst"},
			want: []string{
				"sqe-demo-loader|analyst|sales_wh|acdemo|orders|SELECT|NO|YES",
				"sqe-demo-loader|analyst|sales_wh|acdemo|sales|SELECT|NO|YES",
			}},
		{name: "DBeaver role permissions of dave as alice", conn: alice, sql: dbeaverRole, args: []any{demoDatabase, "dave"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := queryRows(t, ctx, tt.conn, true, tt.sql, tt.args...)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestACLItemsMatchPostgres makes the same grants in SQE and in
// PostgreSQL 15 and compares each grantee's aclitem on acdemo.orders and
// on the schema acdemo, and their table and column privileges. The owners (sqe, alice) and the grantors differ
// between the two and are left out. SQE's INSERT, UPDATE, DELETE and
// MODIFY share one access type, so PostgreSQL is granted all of them
// where SQE grants MODIFY; and a table grant in SQE gives USAGE on its
// schema, which PostgreSQL is granted explicitly.
func TestACLItemsMatchPostgres(t *testing.T) {
	ctx := testContext(t, 3*time.Minute)
	_, carol := demoAsCarol(t, ctx)
	for _, g := range []string{
		`CREATE ROLE "data-eng"`,
		"GRANT MODIFY ON sales_wh.acdemo.orders TO USER frank",
		`GRANT SELECT ON sales_wh.acdemo.orders TO USER "Grace" WITH GRANT OPTION`,
		`GRANT SELECT ON sales_wh.acdemo.orders TO ROLE "data-eng"`,
		"GRANT CREATE TABLE ON SCHEMA sales_wh.acdemo TO ROLE engineer",
	} {
		if _, err := carol.Exec(ctx, g); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
	}

	ref := startRefPostgres(t, ctx)
	pg, err := pgx.Connect(ctx, fmt.Sprintf("host=127.0.0.1 port=%s user=alice dbname=%s sslmode=disable", ref.port, demoDatabase))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	for _, stmt := range []string{
		`CREATE ROLE frank`, `CREATE ROLE "Grace"`, `CREATE ROLE "data-eng"`, `CREATE ROLE analyst`, `CREATE ROLE engineer`,
		`GRANT USAGE ON SCHEMA acdemo TO analyst, engineer, frank, "Grace", "data-eng"`,
		`GRANT CREATE ON SCHEMA acdemo TO engineer`,
		`GRANT SELECT ON acdemo.orders TO analyst`,
		`GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON acdemo.orders TO frank`,
		`GRANT SELECT ON acdemo.orders TO "Grace" WITH GRANT OPTION`,
		`GRANT SELECT ON acdemo.orders TO "data-eng"`,
	} {
		if _, err := pg.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}

	// Each aclitem of the object but the owner's, without its grantor.
	const items = `SELECT split_part(a::text, '/', 1) FROM (SELECT unnest(%s) AS a FROM %s WHERE %s) x
		WHERE a::text NOT LIKE 'sqe=%%' AND a::text NOT LIKE 'alice=%%'`
	for _, q := range []struct{ name, sql string }{
		{"relacl of orders", fmt.Sprintf(items, "relacl", "pg_class", "oid = 'acdemo.orders'::regclass")},
		{"nspacl of acdemo", fmt.Sprintf(items, "nspacl", "pg_namespace", "nspname = 'acdemo'")},
		{"table_privileges of orders", `SELECT grantee, privilege_type, is_grantable, with_hierarchy FROM information_schema.table_privileges
			WHERE table_schema = 'acdemo' AND table_name = 'orders' AND grantee IN ('analyst', 'frank', 'Grace', 'data-eng')`},
		{"column_privileges of orders", `SELECT grantee, column_name, privilege_type, is_grantable FROM information_schema.column_privileges
			WHERE table_schema = 'acdemo' AND table_name = 'orders' AND grantee IN ('analyst', 'frank', 'Grace', 'data-eng')`},
	} {
		t.Run(q.name, func(t *testing.T) {
			got := queryRows(t, ctx, carol, true, q.sql)
			want := queryRows(t, ctx, pg, true, q.sql)
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Errorf("SQE:\n%s\nPostgreSQL:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// demoAsCarol starts sqe serve --demo and connects as carol, the demo's
// administrator.
func demoAsCarol(t *testing.T, ctx context.Context) (*server, *pgx.Conn) {
	t.Helper()
	srv := startTestServer(t, true)
	token, err := srv.mintCLI("carol")
	if err != nil {
		t.Fatal(err)
	}
	return srv, connectConfig(t, ctx, pgxConfig(t, srv, "carol", demoDatabase, "disable", token))
}
