package sql

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// newGatedEngine is an engine with both gates embedded over the demo
// tables, auditing into the returned memoryAuditor.
func newGatedEngine(t *testing.T) (*Engine, *memoryAuditor) {
	t.Helper()
	ctx := context.Background()
	gov, err := governance.OpenStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { gov.Close() })
	admin := []string{"sqe_admin"}
	svc, err := access.New(gov, access.Config{AdminRoles: admin})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := storage.OpenEmbedded(ctx, "sales_wh", t.TempDir(), svc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	if err := demo.Load(storage.WithPrincipal(ctx, storage.Principal{User: "loader", Roles: admin}), cat, 100); err != nil {
		t.Fatal(err)
	}
	store, err := policy.NewEmbedded(gov)
	if err != nil {
		t.Fatal(err)
	}
	m := &memoryAuditor{}
	e := NewEngine(EngineConfig{AdminRoles: admin, Access: svc, Auditor: m, Policies: store, Roles: gov},
		[]storage.Catalog{cat}, policy.NewEnforcer(policy.Config{Store: store}))
	return e, m
}

// gateTwoStep is one statement of a gate-two script: its rows ("|"
// between values), or the SQLSTATE and a part of the message it fails
// with.
type gateTwoStep struct {
	s          *Session
	sql        string
	rows       []string
	code, msg  string
	anyRows    bool // rows not checked
	wantNotice string
}

func runGateTwoSteps(t *testing.T, steps []gateTwoStep) {
	t.Helper()
	for _, st := range steps {
		rows, _, err := run(t, st.s, st.sql)
		who := st.s.identity.User
		var notices []string
		for _, n := range st.s.TakeNotices() {
			notices = append(notices, n.Message)
		}
		if st.wantNotice != "" && !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, st.wantNotice) }) {
			t.Errorf("%s: %s: notices %q, want one with %q", who, st.sql, notices, st.wantNotice)
		}
		if st.code != "" {
			if got := pgerror.Code(err); got != st.code || !strings.Contains(pgerror.From(err).Message, st.msg) {
				t.Errorf("%s: %s: %v (%s), want %s %q", who, st.sql, err, got, st.code, st.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %s: %v", who, st.sql, err)
			continue
		}
		if !st.anyRows && !slices.Equal(rows, st.rows) {
			t.Errorf("%s: %s: rows %q, want %q", who, st.sql, rows, st.rows)
		}
	}
}

// TestGateTwoStatements writes policies and tags through SQL and reads
// through them as the principals they name.
func TestGateTwoStatements(t *testing.T) {
	e, m := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob, alice, dave := open("carol", "sqe_admin"), open("bob", "analyst", "engineer"), open("alice", "analyst"), open("dave")
	const raw = "1|EU|111-11-1111"
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst"},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn"},
		{s: carol, sql: "CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')"},
		{s: bob, sql: "SELECT id, region, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|EU|xxx-xx-1111", "3|EU|xxx-xx-3333"}},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders WHERE ssn = '111-11-1111'", rows: []string{"0"}},
		{s: bob, sql: "SELECT id FROM acdemo.orders WHERE 1/(id-2) = 1", rows: []string{"3"}},
		{s: alice, sql: "SELECT id, region, ssn FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{raw}},
		// Only administrators write policies, never in a block, never twice.
		{s: bob, sql: "CREATE POLICY mine ON TABLE acdemo.orders ROW FILTER TO USER bob USING (true)", code: pgerror.InsufficientPrivilege, msg: "permission denied to create policy"},
		{s: bob, sql: "SHOW POLICIES", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "CREATE POLICY eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (true)", code: pgerror.DuplicateObject, msg: `policy "eu" already exists`},
		{s: carol, sql: "CREATE POLICY m2 ON TABLE acdemo.orders COLUMN MASK trino:MASK_NULL TO ROLE engineer ON COLUMN ssn", code: pgerror.InvalidParameterValue, msg: "unsupported mask type"},
		{s: carol, sql: "CREATE POLICY m2 ON TABLE acdemo.orders COLUMN MASK MASK_NULL TO ROLE engineer ON COLUMN nope", code: pgerror.UndefinedColumn},
		{s: carol, sql: "CREATE POLICY m2 ON TABLE acdemo.nowhere COLUMN MASK MASK_NULL TO ROLE engineer ON COLUMN ssn", code: pgerror.UndefinedTable},
		{s: carol, sql: "BEGIN", rows: nil},
		{s: carol, sql: "DROP POLICY eu", code: pgerror.ActiveSQLTransaction},
		{s: carol, sql: "ROLLBACK"},
		{s: carol, sql: "SHOW POLICIES ON TABLE acdemo.orders", rows: []string{
			"eu|table acdemo.orders|ROW FILTER|||region = 'EU'|ROLE engineer",
			"mask_ssn|table acdemo.orders|COLUMN MASK|ssn|MASK_SHOW_LAST_4||ROLE engineer"}},
		// OR REPLACE changes a policy; DROP takes it back.
		{s: carol, sql: "CREATE OR REPLACE POLICY eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'US')"},
		{s: bob, sql: "SELECT id FROM acdemo.orders ORDER BY id", rows: []string{"2"}},
		{s: carol, sql: "DROP POLICY eu"},
		{s: carol, sql: "DROP POLICY eu", code: pgerror.UndefinedObject, msg: `policy "eu" does not exist`},
		{s: carol, sql: "DROP POLICY IF EXISTS eu"},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"3"}},
		// Tags follow the column's field id through a rename.
		{s: carol, sql: "ALTER TABLE acdemo.orders SET TAGS (ssn = ('PII'), region = ('GEO'))"},
		{s: carol, sql: "ALTER TABLE acdemo.orders SET TAGS (ssn = ('SENSITIVE'))"},
		{s: carol, sql: "SHOW TAGS ON acdemo.orders", rows: []string{"region|GEO", "ssn|PII, SENSITIVE"}},
		{s: carol, sql: "CREATE POLICY pii ON TAG PII COLUMN MASK MASK_NULL TO USER alice"},
		{s: alice, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"1|NULL"}},
		{s: carol, sql: "ALTER TABLE acdemo.orders RENAME COLUMN ssn TO tax_id"},
		{s: alice, sql: "SELECT id, tax_id FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"1|NULL"}},
		{s: carol, sql: "ALTER TABLE acdemo.orders UNSET TAGS (tax_id)"},
		{s: carol, sql: "SHOW TAGS ON acdemo.orders", rows: []string{"region|GEO"}},
		{s: alice, sql: "SELECT id, tax_id FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"1|111-11-1111"}},
		{s: carol, sql: "ALTER TABLE acdemo.orders SET TAGS (nope = ('PII'))", code: pgerror.UndefinedColumn},
		{s: bob, sql: "ALTER TABLE acdemo.orders SET TAGS (tax_id = ('PII'))", code: pgerror.InsufficientPrivilege},
		// The older forms grant SELECT with a filter and masks.
		{s: carol, sql: "GRANT SELECT ON acdemo.orders TO USER dave ROWS WHERE region = 'US' MASKED WITH (tax_id AS '***-**-' || right(tax_id, 4))"},
		{s: dave, sql: "SELECT id, region, tax_id FROM acdemo.orders ORDER BY id", rows: []string{"2|US|***-**-2222"}},
		// Errors of the extension grammar point into the whole query, and
		// PostgreSQL's own forms are left to its grammar.
		{s: carol, sql: "SELECT 1; CREATE POLICY p ON TABLE acdemo.orders ROW FILTER TO r USING (region =)", code: pgerror.SyntaxError, msg: `syntax error at or near ")"`},
		{s: carol, sql: "ALTER TABLE IF EXISTS acdemo.orders SET TAGS (ssn = ('PII'))", code: pgerror.SyntaxError, msg: `syntax error at or near "TAGS"`},
	})
	var changes []string
	for _, c := range m.changes {
		changes = append(changes, c.Caller.User+" "+c.Action+" "+c.Object+" "+c.Result)
	}
	for _, want := range []string{
		"carol CREATE POLICY table sales_wh.acdemo.orders ok",
		"bob CREATE POLICY TABLE acdemo.orders 42501",
		"carol DROP POLICY policy eu 42704",
		"carol ALTER TABLE SET TAGS table sales_wh.acdemo.orders ok",
		"carol CREATE POLICY tag PII ok",
	} {
		if !slices.Contains(changes, want) {
			t.Errorf("audit lacks %q; has:\n%s", want, strings.Join(changes, "\n"))
		}
	}
}

// TestGateTwoRestrictedColumn: a column an access policy denies the
// caller is absent from its relation: * leaves it out, naming it is
// 42703, assigning it 42501.
func TestGateTwoRestrictedColumn(t *testing.T) {
	e, _ := newGatedEngine(t)
	ctx := context.Background()
	deny := ranger.Policy{Name: "no_ssn", PolicyType: ranger.PolicyTypeAccess,
		Resources: map[string]ranger.PolicyResource{
			"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}, "column": {Values: []string{"ssn"}}},
		DenyPolicyItems: []ranger.PolicyItem{{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"engineer"}}}}
	if err := e.cfg.Policies.PutPolicy(ctx, deny, false); err != nil {
		t.Fatal(err)
	}
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob := open("carol", "sqe_admin"), open("bob", "analyst", "engineer")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT, UPDATE ON sales_wh.acdemo.orders TO ROLE analyst"},
		{s: bob, sql: "SELECT * FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"1|EU|120.50|2024-01-15"}},
		{s: bob, sql: "SELECT ssn FROM acdemo.orders", code: pgerror.UndefinedColumn},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders WHERE ssn IS NOT NULL", code: pgerror.UndefinedColumn},
		{s: bob, sql: "UPDATE acdemo.orders SET ssn = 'x' WHERE id = 1", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "SELECT ssn FROM acdemo.orders ORDER BY id LIMIT 1", rows: []string{"111-11-1111"}},
	})
}
