package sql

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/types"
)

// callSnapshot runs a CALL of create_tag or create_branch and returns the
// snapshot id it answered.
func callSnapshot(t *testing.T, s *Session, q string) string {
	t.Helper()
	rows, _, err := run(t, s, q)
	if err != nil || len(rows) != 1 {
		t.Fatalf("%s: %q, %v", q, rows, err)
	}
	parts := strings.Split(rows[0], "|")
	return parts[len(parts)-1]
}

// TestTimeTravelUnderTodaysPolicies: bob reads acdemo.orders as it was
// through his current mask and row filter, a policy added after the
// snapshot hides its rows too, a renamed column is masked as today,
// expired snapshots are errors naming them, and dave still sees nothing.
func TestTimeTravelUnderTodaysPolicies(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob, dave := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer"), openAs(t, e, "dave")
	setup := []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst", anyRows: true},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn", anyRows: true},
		{s: carol, sql: "CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')", anyRows: true},
		{s: carol, sql: "CREATE VIEW acdemo.v AS SELECT id, ssn FROM acdemo.orders", anyRows: true},
		{s: carol, sql: "GRANT SELECT ON VIEW sales_wh.acdemo.v TO ROLE analyst", anyRows: true},
	}
	runGateTwoSteps(t, setup)
	before := callSnapshot(t, carol, "CALL system.create_tag(table => 'acdemo.orders', tag => 'before')")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "UPDATE acdemo.orders SET ssn = '999-99-9999' WHERE id = 1", anyRows: true},
	})
	updated := callSnapshot(t, carol, "CALL system.create_tag(table => 'acdemo.orders', tag => 'updated')")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "CALL system.drop_tag('acdemo.orders', 'updated')", rows: []string{"updated|tag"}},
		{s: carol, sql: "INSERT INTO acdemo.orders SELECT 4, region, '444-44-4444', amount, order_date FROM acdemo.orders WHERE id = 3", anyRows: true},
	})

	byID := "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF " + before + " ORDER BY id"
	steps := []gateTwoStep{
		// Today, and as it was, through the same mask and row filter.
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|xxx-xx-9999", "3|xxx-xx-3333", "4|xxx-xx-4444"}},
		{s: bob, sql: byID, rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF 'before' ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "SELECT o.id, o.ssn FROM acdemo.orders FOR VERSION AS OF 'before' o WHERE o.id = 1", rows: []string{"1|xxx-xx-1111"}},
		{s: bob, sql: "SELECT id FROM acdemo.orders FOR SYSTEM_VERSION AS OF 'before' AS o ORDER BY o.id", rows: []string{"1", "3"}},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'before' a JOIN acdemo.orders b ON a.id = b.id AND a.ssn <> b.ssn", rows: []string{"1"}},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders FOR TIMESTAMP AS OF now()", rows: []string{"3"}},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders FOR SYSTEM_TIME AS OF now() + interval '1 day'", rows: []string{"3"}},
		{s: bob, sql: "SELECT count(*) FROM (SELECT * FROM acdemo.orders FOR VERSION AS OF 'before') s", rows: []string{"2"}},
		{s: carol, sql: "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF 'before' ORDER BY id",
			rows: []string{"1|111-11-1111", "2|222-22-2222", "3|333-33-3333"}},
		{s: carol, sql: "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF " + updated + " ORDER BY id",
			rows: []string{"1|999-99-9999", "2|222-22-2222", "3|333-33-3333"}},
		// The session setting, for clients that parse SQL themselves.
		{s: bob, sql: "SET sqe.read_as_of = 'before'", anyRows: true},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.v ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "SELECT count(*) FROM pg_class WHERE relname = 'orders'", rows: []string{"1"}},
		{s: bob, sql: "SET sqe.read_as_of = " + before, anyRows: true},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"2"}},
		{s: bob, sql: "RESET sqe.read_as_of", anyRows: true},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"3"}},
		// Errors.
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR TIMESTAMP AS OF '2000-01-01'", code: "22023", msg: "no snapshot at or before 2000-01-01"},
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF 'nope'", code: "42704", msg: `no branch or tag "nope"`},
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF 42", code: "22023", msg: "snapshot 42 of table acdemo.orders does not exist"},
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF NULL", code: "22004"},
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF 1.5", code: "42804"},
		{s: bob, sql: "SELECT * FROM acdemo.v FOR VERSION AS OF 'before'", code: "0A000", msg: `view "v" has no versions`},
		{s: bob, sql: "WITH w AS (SELECT 1) SELECT * FROM w FOR VERSION AS OF 1", code: "0A000"},
		{s: bob, sql: "SELECT * FROM pg_class FOR VERSION AS OF 1", code: "0A000"},
		{s: bob, sql: "SELECT * FROM acdemo.orders o FOR VERSION AS OF 1", code: "42601"},
		{s: bob, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF", code: "42601"},
		{s: carol, sql: "DELETE FROM acdemo.orders FOR VERSION AS OF 'before'", code: "0A000", msg: "as of a past version"},
		{s: dave, sql: "SELECT * FROM acdemo.orders FOR VERSION AS OF 'before'", code: "42P01"},
		{s: carol, sql: "CREATE VIEW acdemo.old AS SELECT * FROM acdemo.orders FOR VERSION AS OF 'before'", code: "0A000"},
		{s: carol, sql: "CREATE TABLE acdemo.snap AS SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF 'before'", anyRows: true},
		{s: carol, sql: "SELECT id, ssn FROM acdemo.snap ORDER BY id", rows: []string{"1|111-11-1111", "2|222-22-2222", "3|333-33-3333"}},
		{s: carol, sql: "DROP TABLE acdemo.snap", anyRows: true},
		{s: bob, sql: "EXPLAIN (COSTS OFF) SELECT id FROM acdemo.orders FOR VERSION AS OF " + before, anyRows: true},
		{s: bob, sql: "PREPARE old AS SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'before' WHERE id > $1", anyRows: true},
		{s: bob, sql: "EXECUTE old(0)", rows: []string{"2"}},
		{s: bob, sql: "DEALLOCATE old", anyRows: true},
		// The version as a parameter: a tag's name or a snapshot id (a
		// parameter nothing else types is text), an instant.
		{s: bob, sql: "PREPARE byv AS SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF $1 ORDER BY id", anyRows: true},
		{s: bob, sql: "EXECUTE byv('before')", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "EXECUTE byv(" + before + ")", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{s: bob, sql: "EXECUTE byv('" + updated + "')", rows: []string{"1|xxx-xx-9999", "3|xxx-xx-3333"}},
		{s: bob, sql: "EXECUTE byv('nope')", code: "42704", msg: `no branch or tag "nope"`},
		{s: bob, sql: "EXECUTE byv(NULL)", code: "22004"},
		{s: bob, sql: "PREPARE byt AS SELECT count(*) FROM acdemo.orders FOR TIMESTAMP AS OF $1 WHERE id > $2", anyRows: true},
		{s: bob, sql: "SELECT parameter_types::text FROM pg_prepared_statements WHERE name IN ('byv', 'byt') ORDER BY name",
			rows: []string{`{"timestamp with time zone",bigint}`, "{text}"}},
		{s: bob, sql: "EXECUTE byt(now(), 0)", rows: []string{"3"}},
		{s: bob, sql: "EXECUTE byt('2000-01-01', 0)", code: "22023", msg: "no snapshot at or before 2000-01-01"},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF $1", code: "42P02"},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'before' TABLESAMPLE BERNOULLI (100)", rows: []string{"2"}},
		// Text that only looks like a clause is left alone.
		{s: bob, sql: "SELECT substring('abcdef' from 2 for 3) AS of", rows: []string{"bcd"}},
	}
	runGateTwoSteps(t, steps)

	// Through the protocol's Parse and Bind: the version's parameter is
	// described as text, and takes a tag's name or a snapshot id.
	ps, err := bob.Prepare(context.Background(), "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF $1 WHERE id > $2 ORDER BY id", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.ParamTypes) != 2 || ps.ParamTypes[0] != types.Text || ps.ParamTypes[1].OID != types.OIDInt8 {
		t.Fatalf("parameter types %v, want text and bigint", ps.ParamTypes)
	}
	for _, version := range []string{"before", before} {
		res, err := bob.Bind(context.Background(), ps, [][]byte{[]byte(version), []byte("0")}, nil)
		if err != nil {
			t.Fatalf("Bind(%s): %v", version, err)
		}
		if got := drain(t, res); strings.Join(got, ",") != "1|xxx-xx-1111,3|xxx-xx-3333" {
			t.Errorf("Bind(%s): rows %q", version, got)
		}
	}

	// A policy added today hides the rows of yesterday's snapshot; a
	// column renamed since is read, and masked, under its current name.
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "CREATE POLICY not3 ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (id <> 3)", anyRows: true},
		{s: bob, sql: byID, rows: []string{"1|xxx-xx-1111"}},
		{s: carol, sql: "ALTER TABLE acdemo.orders RENAME COLUMN ssn TO social", anyRows: true},
		{s: bob, sql: "SELECT id, social FROM acdemo.orders FOR VERSION AS OF 'before' ORDER BY id", rows: []string{"1|xxx-xx-1111"}},
		{s: carol, sql: "SELECT id, social FROM acdemo.orders FOR VERSION AS OF 'before' ORDER BY id",
			rows: []string{"1|111-11-1111", "2|222-22-2222", "3|333-33-3333"}},
	})

	// Expiry: the tagged snapshot stays; the untagged one is an error
	// naming it.
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "CALL system.expire_snapshots(table => 'acdemo.orders', older_than => now() + interval '1 hour', retain_last => 1)", anyRows: true},
		{s: bob, sql: "SELECT id FROM acdemo.orders FOR VERSION AS OF " + updated, code: "22023", msg: fmt.Sprintf("snapshot %s of table acdemo.orders does not exist or has been expired", updated)},
		{s: bob, sql: "SELECT id FROM acdemo.orders FOR VERSION AS OF 'before'", rows: []string{"1"}},
	})
}

// TestRefProcedures: tags and branches through CALL, and who may make
// them.
func TestRefProcedures(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst", anyRows: true},
	})
	first := callSnapshot(t, carol, "CALL system.create_branch('acdemo.orders', 'audit')")
	runGateTwoSteps(t, []gateTwoStep{
		{s: bob, sql: "CALL system.create_tag('acdemo.orders', 'mine')", code: "42501"},
		{s: carol, sql: "CALL system.create_branch('acdemo.orders', 'audit')", code: "42710", msg: `branch "audit" of table acdemo.orders already exists`},
		{s: carol, sql: "CALL system.create_tag('acdemo.orders', 'audit')", code: "42710"},
		{s: carol, sql: "CALL system.create_tag('acdemo.orders', 'main')", code: "22023"},
		{s: carol, sql: "CALL system.create_tag('acdemo.orders', 't1', snapshot_id => 7)", code: "22023", msg: "has no snapshot 7"},
		{s: carol, sql: "INSERT INTO acdemo.orders SELECT 4, region, ssn, amount, order_date FROM acdemo.orders WHERE id = 3", anyRows: true},
		{s: carol, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'audit'", rows: []string{"3"}},
		{s: carol, sql: "CALL system.fast_forward('acdemo.orders', 'main', 'audit')", code: "55000"},
		{s: carol, sql: "CALL system.drop_branch('acdemo.orders', 'main')", code: "22023"},
		{s: carol, sql: "CALL system.drop_tag('acdemo.orders', 'audit')", code: "42809"},
		{s: carol, sql: "BEGIN", anyRows: true},
		{s: carol, sql: "CALL system.create_tag('acdemo.orders', 'x')", code: "25001"},
		{s: carol, sql: "ROLLBACK", anyRows: true},
	})
	ff, _, err := run(t, carol, "CALL system.fast_forward('acdemo.orders', 'audit', 'main')")
	if err != nil || len(ff) != 1 || !strings.HasPrefix(ff[0], "audit|"+first+"|") || strings.HasSuffix(ff[0], "|"+first) {
		t.Fatalf("fast_forward: %q, %v", ff, err)
	}
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'audit'", rows: []string{"4"}},
		{s: carol, sql: "CALL system.drop_branch('acdemo.orders', 'audit')", rows: []string{"audit|branch"}},
		{s: carol, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'audit'", code: "42704"},
	})
}

// TestWriteAuditPublish: writes under sqe.write_branch change the branch
// only; the branch is read (still governed) before fast_forward
// publishes it to main.
func TestWriteAuditPublish(t *testing.T) {
	e, _ := newGatedEngine(t)
	carol, bob := openAs(t, e, "carol", "sqe_admin"), openAs(t, e, "bob", "analyst", "engineer")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst", anyRows: true},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn", anyRows: true},
		{s: carol, sql: "CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')", anyRows: true},
		{s: carol, sql: "CALL system.create_branch('acdemo.orders', 'audit')", anyRows: true},
		{s: carol, sql: "CALL system.create_tag('acdemo.orders', 'v0')", anyRows: true},
		{s: carol, sql: "SET sqe.write_branch = 'audit'", anyRows: true},
		{s: carol, sql: "INSERT INTO acdemo.orders SELECT 4, region, '444-44-4444', amount, order_date FROM acdemo.orders WHERE id = 3", anyRows: true},
		{s: carol, sql: "UPDATE acdemo.orders SET ssn = '999-99-9999' WHERE id = 1", anyRows: true},
		{s: carol, sql: "DELETE FROM acdemo.orders WHERE id = 2", anyRows: true},
		{s: carol, sql: "BEGIN", anyRows: true},
		{s: carol, sql: "INSERT INTO acdemo.orders SELECT 5, 'US', '555-55-5555', amount, order_date FROM acdemo.orders WHERE id = 3", anyRows: true},
		{s: carol, sql: "UPDATE acdemo.orders SET ssn = '555-00-5555' WHERE id = 5", anyRows: true},
		{s: carol, sql: "COMMIT", anyRows: true},
		// Main is untouched; the branch holds the changes.
		{s: carol, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|111-11-1111", "2|222-22-2222", "3|333-33-3333"}},
		{s: carol, sql: "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF 'audit' ORDER BY id",
			rows: []string{"1|999-99-9999", "3|333-33-3333", "4|444-44-4444", "5|555-00-5555"}},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders FOR VERSION AS OF 'audit' ORDER BY id",
			rows: []string{"1|xxx-xx-9999", "3|xxx-xx-3333", "4|xxx-xx-4444"}},
		{s: carol, sql: "SET sqe.write_branch = 'nope'", anyRows: true},
		{s: carol, sql: "DELETE FROM acdemo.orders", code: "42704", msg: `branch "nope" of table acdemo.orders does not exist`},
		{s: carol, sql: "SET sqe.write_branch = 'v0'", anyRows: true},
		{s: carol, sql: "INSERT INTO acdemo.orders (id) VALUES (9)", code: "42809"},
		{s: carol, sql: "RESET sqe.write_branch", anyRows: true},
		// Publish.
		{s: carol, sql: "CALL system.fast_forward('acdemo.orders', 'main', 'audit')", anyRows: true},
		{s: bob, sql: "SELECT id, ssn FROM acdemo.orders ORDER BY id", rows: []string{"1|xxx-xx-9999", "3|xxx-xx-3333", "4|xxx-xx-4444"}},
		{s: carol, sql: "SELECT count(*) FROM acdemo.orders FOR VERSION AS OF 'v0'", rows: []string{"3"}},
	})
}
