package sql

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/policy"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestRenameKeepsPolicies: no schema change takes an object out of a
// policy that covered it. A mask, a row filter and a column restriction
// written by name follow a renamed column and table (and SHOW POLICIES
// names the new names); a row filter's expression follows its column; a
// gate-one denial follows its table; a column dropped and added again
// under its name is still masked; a replaced view still reads through
// the masks of its table. Each change is read as the user the policies
// bind.
func TestRenameKeepsPolicies(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob, alice := open("carol", "analyst", "sqe_admin"), open("bob", "analyst", "engineer"), open("alice", "analyst")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "CREATE SCHEMA s"},
		{s: carol, sql: "CREATE TABLE s.p (id int, email text, region text, phone text)"},
		{s: carol, sql: "INSERT INTO s.p VALUES (1, 'a@x', 'EU', '555-1'), (2, 'b@x', 'US', '555-2')"},
		{s: carol, sql: "GRANT SELECT ON ALL TABLES IN SCHEMA sales_wh.s TO ROLE analyst"},
		{s: carol, sql: "CREATE POLICY m ON TABLE sales_wh.s.p COLUMN MASK MASK_NULL TO ROLE engineer ON COLUMN email"},
		{s: bob, sql: "SELECT id, email FROM s.p ORDER BY id", rows: []string{"1|NULL", "2|NULL"}},

		// RENAME COLUMN: the mask follows the column.
		{s: carol, sql: "ALTER TABLE s.p RENAME COLUMN email TO mail"},
		{s: bob, sql: "SELECT id, mail FROM s.p ORDER BY id", rows: []string{"1|NULL", "2|NULL"}},
		{s: alice, sql: "SELECT id, mail FROM s.p ORDER BY id", rows: []string{"1|a@x", "2|b@x"}},
		{s: carol, sql: "SHOW POLICIES ON TABLE s.p", rows: []string{"m|table s.p|COLUMN MASK|mail|MASK_NULL||ROLE engineer"}},

		// A row filter's expression follows the column it names.
		{s: carol, sql: "CREATE POLICY eu ON TABLE s.p ROW FILTER TO ROLE engineer USING (region = 'EU')"},
		{s: bob, sql: "SELECT id FROM s.p ORDER BY id", rows: []string{"1"}},
		{s: carol, sql: "ALTER TABLE s.p RENAME COLUMN region TO area"},
		{s: bob, sql: "SELECT id, area FROM s.p ORDER BY id", rows: []string{"1|EU"}},
		{s: carol, sql: "SHOW POLICIES ON TABLE s.p", rows: []string{
			"eu|table s.p|ROW FILTER|||area = 'EU'|ROLE engineer",
			"m|table s.p|COLUMN MASK|mail|MASK_NULL||ROLE engineer"}},

		// RENAME TO: masks, filters and a gate-one denial follow the table.
		{s: carol, sql: "DENY SELECT ON TABLE sales_wh.s.p TO USER alice"},
		{s: alice, sql: "SELECT id FROM s.p", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "ALTER TABLE s.p RENAME TO q"},
		{s: bob, sql: "SELECT id, mail, area FROM s.q ORDER BY id", rows: []string{"1|NULL|EU"}},
		{s: alice, sql: "SELECT id FROM s.q", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "SHOW POLICIES ON TABLE s.q", rows: []string{
			"eu|table s.q|ROW FILTER|||area = 'EU'|ROLE engineer",
			"m|table s.q|COLUMN MASK|mail|MASK_NULL||ROLE engineer"}},
		{s: carol, sql: "REVOKE SELECT ON TABLE sales_wh.s.q FROM USER alice"},
		{s: alice, sql: "SELECT id, mail FROM s.q ORDER BY id", rows: []string{"1|a@x", "2|b@x"}},

		// DROP COLUMN and ADD COLUMN of the same name: still masked.
		{s: carol, sql: "ALTER TABLE s.q DROP COLUMN mail"},
		{s: carol, sql: "ALTER TABLE s.q ADD COLUMN mail text"},
		{s: carol, sql: "INSERT INTO s.q VALUES (3, 'EU', '555-3', 'c@x')"},
		{s: bob, sql: "SELECT id, mail FROM s.q ORDER BY id", rows: []string{"1|NULL", "3|NULL"}},

		// A row filter whose column is dropped admits no row.
		{s: carol, sql: "ALTER TABLE s.q DROP COLUMN area"},
		{s: bob, sql: "SELECT count(*) FROM s.q", rows: []string{"0"}},

		// A view replaced under its name keeps its grants and denials and
		// reads through the table's masks.
		{s: carol, sql: "DROP POLICY eu"},
		{s: carol, sql: "CREATE VIEW s.v AS SELECT id, mail FROM s.q"},
		{s: carol, sql: "GRANT SELECT ON VIEW sales_wh.s.v TO ROLE analyst"},
		{s: carol, sql: "DENY SELECT ON VIEW sales_wh.s.v TO USER alice"},
		{s: bob, sql: "SELECT id, mail FROM s.v ORDER BY id", rows: []string{"1|NULL", "2|NULL", "3|NULL"}},
		{s: alice, sql: "SELECT id FROM s.v", code: pgerror.InsufficientPrivilege},
		{s: carol, sql: "CREATE OR REPLACE VIEW s.v AS SELECT id, mail, phone FROM s.q"},
		{s: bob, sql: "SELECT id, mail FROM s.v ORDER BY id", rows: []string{"1|NULL", "2|NULL", "3|NULL"}},
		{s: alice, sql: "SELECT id FROM s.v", code: pgerror.InsufficientPrivilege},

		// A second mask, written after the first rename, follows too.
		{s: carol, sql: "CREATE POLICY m2 ON TABLE s.q COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN phone"},
		{s: bob, sql: "SELECT phone FROM s.q ORDER BY id LIMIT 1", rows: []string{"x55-1"}},
		{s: carol, sql: "ALTER TABLE s.q RENAME COLUMN phone TO tel"},
		{s: bob, sql: "SELECT tel FROM s.q ORDER BY id LIMIT 1", rows: []string{"x55-1"}},

		// ALTER SCHEMA ... RENAME is not a change SQE makes: refused, and
		// the policies stand.
		{s: carol, sql: "ALTER SCHEMA s RENAME TO t", code: pgerror.FeatureNotSupported},
		{s: bob, sql: "SELECT tel, mail FROM s.q ORDER BY id LIMIT 1", rows: []string{"x55-1|NULL"}},
	})

	// A column restriction follows a renamed column: the column stays
	// absent for bob, and REVOKE finds the restriction under the new
	// name.
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "DENY SELECT (tel) ON TABLE s.q TO ROLE engineer"},
		{s: bob, sql: "SELECT * FROM s.q ORDER BY id LIMIT 1", rows: []string{"1|NULL"}},
		{s: carol, sql: "ALTER TABLE s.q RENAME COLUMN tel TO phone"},
		{s: bob, sql: "SELECT * FROM s.q ORDER BY id LIMIT 1", rows: []string{"1|NULL"}},
		{s: bob, sql: "SELECT phone FROM s.q", code: pgerror.UndefinedColumn},
		{s: carol, sql: "SELECT phone FROM s.q ORDER BY id LIMIT 1", rows: []string{"555-1"}},
		{s: carol, sql: "ALTER TABLE s.q RENAME TO r"},
		{s: bob, sql: "SELECT phone FROM s.r", code: pgerror.UndefinedColumn},
		{s: carol, sql: "REVOKE SELECT (phone) ON TABLE s.r FROM ROLE engineer"},
		{s: bob, sql: "SELECT phone FROM s.r ORDER BY id LIMIT 1", rows: []string{"x55-1"}},
	})
}

// projectingStore is the embedded policy store with a tag projection
// that records what it was asked to write, as the Ranger store writes
// column tags for other engines.
type projectingStore struct {
	*policy.Embedded
	projected []string
}

func (p *projectingStore) ProjectColumnTags(_ context.Context, database, table string, columns map[string][]string) error {
	var cols []string
	for c, tags := range columns {
		cols = append(cols, c+"="+strings.Join(tags, "+"))
	}
	slices.Sort(cols)
	p.projected = append(p.projected, database+"."+table+": "+strings.Join(cols, ","))
	return nil
}

// TestRenameProjectsTagsAgain: a store that projects column tags by name
// gets a renamed column's and table's tags again under the new names.
func TestRenameProjectsTagsAgain(t *testing.T) {
	e, _ := newGatedEngine(t)
	store := &projectingStore{Embedded: e.cfg.Policies.(*policy.Embedded)}
	e.cfg.Policies = store
	carol := openAs(t, e, "carol", "sqe_admin")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "ALTER TABLE acdemo.orders SET TAGS (ssn = ('PII'))"},
		{s: carol, sql: "ALTER TABLE acdemo.orders RENAME COLUMN ssn TO tax_id"},
		{s: carol, sql: "ALTER TABLE acdemo.orders RENAME TO orders_2024"},
	})
	want := []string{"acdemo.orders: ssn=PII", "acdemo.orders: tax_id=PII", "acdemo.orders_2024: tax_id=PII"}
	if !slices.Equal(store.projected, want) {
		t.Errorf("projected %q, want %q", store.projected, want)
	}
}
