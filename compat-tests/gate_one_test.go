package compattests

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// gateOneStep is one statement of the gate-one walkthrough, run as user:
// rows are the expected rows ("|" between columns, one string a row), or
// code the expected SQLSTATE, and msg a text the error message holds.
type gateOneStep struct {
	user string
	sql  string
	rows []string
	code string
	msg  string
}

// The gate-one walkthrough of spec/002 Part 1 against sqe serve --demo
// with the embedded backend, through pgx as the named users (their roles
// come from the demo: analyst = alice, bob, carol; sqe_admin = carol; dave
// none).
func TestGateOneWalkthrough(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sqe.toml"), []byte("[access_control]\nbackend = \"embedded\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startTestServerIn(t, filepath.Join(dir, "data"), true)
	ctx := testContext(t, 3*time.Minute)
	conns := map[string]*pgx.Conn{}
	as := func(user string) *pgx.Conn {
		if c, ok := conns[user]; ok {
			return c
		}
		token, err := srv.mintCLI(user)
		if err != nil {
			t.Fatal(err)
		}
		c := connectConfig(t, ctx, pgxConfig(t, srv, user, demoDatabase, "disable", token))
		conns[user] = c
		return c
	}
	// The demo grants analyst and engineer discovery of acdemo and analyst
	// SELECT on acdemo.orders; the walkthrough grants on a table of its own.
	const orders = "sales_wh.acdemo.payments"
	steps := []gateOneStep{
		{user: "dave", sql: "SELECT count(*) FROM sales_wh.acdemo.orders", code: "42P01", msg: `relation "sales_wh.acdemo.orders" does not exist`},
		{user: "dave", sql: "SELECT count(*) FROM pg_namespace WHERE nspname = 'acdemo'", rows: []string{"0"}},
		{user: "alice", sql: "SELECT count(*) FROM sales_wh.acdemo.orders", rows: []string{"3"}},
		{user: "carol", sql: "CREATE TABLE acdemo.payments (id int, amount numeric(10,2))"},
		{user: "carol", sql: "INSERT INTO acdemo.payments VALUES (1, 10.50), (2, 20), (3, 7.25)"},
		// Before the grant alice sees the table but may not read it.
		{user: "alice", sql: "SELECT count(*) FROM " + orders, code: "42501", msg: "permission denied for table payments"},
		{user: "alice", sql: "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'acdemo' AND table_name = 'payments'", rows: []string{"0"}},
		// Only administrators grant.
		{user: "alice", sql: "GRANT SELECT ON " + orders + " TO ROLE analyst", code: "42501"},
		{user: "carol", sql: "GRANT SELECT ON " + orders + " TO ROLE analyst"},
		{user: "alice", sql: "SELECT count(*) FROM " + orders, rows: []string{"3"}},
		{user: "alice", sql: "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'acdemo' AND table_name = 'payments'", rows: []string{"1"}},
		{user: "dave", sql: "SELECT count(*) FROM " + orders, code: "42P01"},
		// Deny beats the role's allow; the namespace stays visible, so the
		// load is refused rather than absent.
		{user: "carol", sql: "DENY SELECT ON " + orders + " TO USER alice"},
		{user: "carol", sql: "DENY SELECT ON " + orders + " TO USER alice"},
		{user: "alice", sql: "SELECT count(*) FROM " + orders, code: "42501", msg: "permission denied for table payments"},
		{user: "bob", sql: "SELECT count(*) FROM " + orders, rows: []string{"3"}},
		{user: "carol", sql: "REVOKE SELECT ON " + orders + " FROM USER alice"},
		{user: "alice", sql: "SELECT count(*) FROM " + orders, rows: []string{"3"}},
		{user: "carol", sql: "SELECT privilege, object, grantee_type, grantee, effect FROM (SHOW GRANTS ON " + orders + ") g", code: "42601"},
		{user: "carol", sql: "SHOW GRANTS ON " + orders, rows: []string{
			"table-data-read|sales_wh.acdemo.payments|ROLE|analyst|ALLOW|NO|carol",
			"table-list|sales_wh.acdemo.payments|ROLE|analyst|ALLOW|NO|carol",
			"table-properties-read|sales_wh.acdemo.payments|ROLE|analyst|ALLOW|NO|carol"}},
		{user: "carol", sql: `CHECK ACCESS SELECT ON ` + orders + ` FOR USER "alice"`, rows: []string{"true|Allowed via ROLE 'analyst'"}},
		{user: "carol", sql: `CHECK ACCESS SELECT ON ` + orders + ` FOR USER dave`, rows: []string{
			"false|No matching grant for dave table-data-read, table-list, table-properties-read on sales_wh.acdemo.payments"}},
		// A privilege that binds wider than the object named is refused.
		{user: "carol", sql: "GRANT ALL ON " + orders + " TO USER bob", code: "0LP01"},
		{user: "carol", sql: "GRANT SELECT ON " + orders + " TO GROUP eng", code: "0A000"},
		// ALL TABLES IN SCHEMA covers a table created after the grant.
		{user: "carol", sql: "GRANT SELECT ON ALL TABLES IN SCHEMA sales_wh.acdemo TO ROLE analyst"},
		{user: "carol", sql: "CREATE TABLE acdemo.later (id int)"},
		{user: "carol", sql: "INSERT INTO acdemo.later VALUES (7)"},
		{user: "alice", sql: "SELECT id FROM acdemo.later", rows: []string{"7"}},
		{user: "alice", sql: "INSERT INTO acdemo.later VALUES (8)", code: "42501"},
		// A view is not a privilege boundary: erin needs its base table too.
		{user: "carol", sql: "CREATE VIEW acdemo.big_payments AS SELECT id FROM acdemo.payments WHERE amount > 10"},
		{user: "carol", sql: "GRANT SELECT ON VIEW sales_wh.acdemo.big_payments TO USER erin"},
		{user: "erin", sql: "SELECT count(*) FROM acdemo.big_payments", code: "42501", msg: "payments"},
		{user: "carol", sql: "GRANT SELECT ON " + orders + " TO USER erin"},
		{user: "erin", sql: "SELECT count(*) FROM acdemo.big_payments", rows: []string{"2"}},
		// Roles of the embedded backend.
		{user: "carol", sql: "CREATE ROLE auditors"},
		{user: "carol", sql: "CREATE ROLE auditors", code: "42710"},
		{user: "carol", sql: "GRANT auditors TO USER frank"},
		{user: "carol", sql: "GRANT SELECT ON " + orders + " TO ROLE auditors"},
		{user: "frank", sql: "SELECT count(*) FROM " + orders, rows: []string{"3"}},
		{user: "carol", sql: "BEGIN; GRANT SELECT ON " + orders + " TO USER bob", code: "25001"},
		{user: "carol", sql: "ROLLBACK"},
	}
	for i, st := range steps {
		rows, err := queryRows(ctx, as(st.user), st.sql)
		where := fmt.Sprintf("step %d (%s: %s)", i+1, st.user, st.sql)
		if st.code != "" {
			if err == nil {
				t.Fatalf("%s: succeeded with %v, want SQLSTATE %s", where, rows, st.code)
			}
			pe := asPgError(t, err)
			if pe.Code != st.code || !strings.Contains(pe.Message, st.msg) {
				t.Fatalf("%s: %s %q, want %s %q", where, pe.Code, pe.Message, st.code, st.msg)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if st.rows != nil && strings.Join(rows, "\n") != strings.Join(st.rows, "\n") {
			t.Fatalf("%s: rows\n%s\nwant\n%s", where, strings.Join(rows, "\n"), strings.Join(st.rows, "\n"))
		}
	}
}

// queryRows runs sql (simple protocol, so that several statements may be
// sent at once) and returns its rows as "|"-joined text.
func queryRows(ctx context.Context, c *pgx.Conn, sql string) ([]string, error) {
	rows, err := c.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return nil, err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rows.Err()
}
