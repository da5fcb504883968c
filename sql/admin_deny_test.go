package sql

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestDenyBindsAdministrators: an administrator's default access is an
// allow that a deny beats, on its user, a role it holds or the
// administrator role; reading is refused, the table drops out of the
// catalog and the privilege functions, and CHECK ACCESS and SHOW ACCESS
// name the deny. Grant authority is not data access: the denied
// administrator still revokes the deny. Gate two applies to
// administrators as to anyone.
func TestDenyBindsAdministrators(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol := openAs(t, e, "carol", "sqe_admin", "analyst", "engineer")
	const ordersTables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'acdemo' AND table_name = 'orders'"
	erinAccess := func(verdict, policy, reason string) gateTwoStep {
		return gateTwoStep{s: carol, sql: "SHOW ACCESS ON acdemo.orders FOR USER erin", rows: []string{
			"id|raw||||||", "region|raw||||||", "ssn|raw||||||", "amount|raw||||||", "order_date|raw||||||",
			"(table)|" + verdict + "|||" + policy + "|embedded|" + reason,
			"(note)|note||||||roles: sqe_admin (from the governance store; a login token may add more)",
			"(note)|note||||||groups: unknown for another user, as only a login token carries them: policies naming groups are not applied",
		}}
	}
	runGateTwoSteps(t, []gateTwoStep{
		// Gate two: carol, an engineer, reads ssn masked.
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn"},
		{s: carol, sql: "SELECT ssn FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"xxx-xx-1111"}},
		{s: carol, sql: "SELECT count(*) FROM acdemo.orders WHERE ssn = '111-11-1111'", rows: []string{"0"}},

		// A deny on carol herself.
		{s: carol, sql: "DENY SELECT ON acdemo.orders TO USER carol"},
		{s: carol, sql: "SELECT id FROM acdemo.orders", code: pgerror.InsufficientPrivilege, msg: "permission denied for table orders"},
		{s: carol, sql: "CHECK ACCESS SELECT ON sales_wh.acdemo.orders FOR USER carol", rows: []string{"false|Denied via USER 'carol'"}},
		{s: carol, sql: ordersTables, rows: nil},
		{s: carol, sql: "SELECT has_table_privilege('acdemo.orders', 'SELECT')", code: pgerror.UndefinedTable},
		{s: carol, sql: "SELECT has_table_privilege('acdemo.orders', 'SELECT WITH GRANT OPTION')", code: pgerror.UndefinedTable},
		// Still an administrator: carol revokes the deny, named with its
		// schema, though she cannot read the table.
		{s: carol, sql: "SET search_path = acdemo"},
		{s: carol, sql: "REVOKE SELECT ON orders FROM USER carol", code: pgerror.InsufficientPrivilege, msg: "permission denied for table orders"},
		{s: carol, sql: "REVOKE SELECT ON acdemo.orders FROM USER carol"},
		{s: carol, sql: "SELECT count(*) > 0 FROM acdemo.orders", rows: []string{"true"}},
		{s: carol, sql: ordersTables, rows: []string{"orders"}},
		{s: carol, sql: "CHECK ACCESS SELECT ON acdemo.orders FOR USER carol", rows: []string{"true|Allowed: carol holds an administrator role"}},

		// A deny on the administrator role, and on a role she holds.
		{s: carol, sql: "DENY SELECT ON acdemo.orders TO ROLE sqe_admin"},
		{s: carol, sql: "SELECT id FROM acdemo.orders", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "CHECK ACCESS SELECT ON sales_wh.acdemo.orders FOR USER carol", rows: []string{"false|Denied via ROLE 'sqe_admin'"}},
		{s: carol, sql: "REVOKE SELECT ON sales_wh.acdemo.orders FROM ROLE sqe_admin"},
		{s: carol, sql: "DENY SELECT ON acdemo.orders TO ROLE engineer"},
		{s: carol, sql: "SELECT id FROM acdemo.orders", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "REVOKE SELECT ON acdemo.orders FROM ROLE engineer"},

		// Privileges gate one decides are asked of it for administrators
		// too.
		{s: carol, sql: "SELECT has_schema_privilege('acdemo', 'CREATE'), has_table_privilege('acdemo.orders', 'INSERT')", rows: []string{"true|true"}},
		{s: carol, sql: "DENY CREATE TABLE ON SCHEMA acdemo TO USER carol"},
		{s: carol, sql: "SELECT has_schema_privilege('acdemo', 'CREATE'), has_schema_privilege('acdemo', 'CREATE WITH GRANT OPTION'), has_table_privilege('acdemo.orders', 'INSERT')", rows: []string{"false|true|true"}},
		{s: carol, sql: "CREATE TABLE acdemo.refused (id int)", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "REVOKE CREATE TABLE ON SCHEMA acdemo FROM USER carol"},
		{s: carol, sql: "SELECT has_schema_privilege('acdemo', 'CREATE')", rows: []string{"true"}},

		// SHOW ACCESS names the deny that refuses another administrator.
		{s: carol, sql: "CREATE ROLE sqe_admin"},
		{s: carol, sql: "GRANT sqe_admin TO USER erin"},
		erinAccess("allowed", "|", "Allowed: erin holds an administrator role"),
		{s: carol, sql: "DENY SELECT ON acdemo.orders TO USER erin"},
		erinAccess("denied", "sales_wh.acdemo.orders|resource", "Denied via USER 'erin'"),
	})
}
