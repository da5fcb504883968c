package sql

import (
	"testing"
)

// TestGateTwoUnreadMasks reads through a masking projection that the
// optimizer narrows: a query that reads no masked column computes no
// mask, and a predicate on an unmasked column is pushed into the scan
// below the mask. The answers must be those of the policies as written.
func TestGateTwoUnreadMasks(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, erin, bob := open("carol", "sqe_admin"), open("erin", "masked_only"), open("bob", "engineer")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE masked_only"},
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE engineer"},
		{s: carol, sql: "CREATE POLICY mo_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE masked_only ON COLUMN ssn"},
		{s: carol, sql: "CREATE POLICY mo_amount ON TABLE acdemo.orders COLUMN MASK MASK_NULL TO ROLE masked_only ON COLUMN amount"},
		{s: carol, sql: "CREATE POLICY en_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn"},
		{s: carol, sql: "CREATE POLICY en_eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')"},

		// Masks only: nothing read but the row count.
		{s: erin, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"3"}},
		{s: erin, sql: "SELECT count(*) FROM acdemo.orders WHERE region = 'EU'", rows: []string{"2"}},
		{s: erin, sql: "SELECT id FROM acdemo.orders WHERE id >= 2 ORDER BY id", rows: []string{"2", "3"}},
		// A masked column still reads masked, in the select list and in
		// a predicate, next to a pushed one.
		{s: erin, sql: "SELECT id, ssn, amount FROM acdemo.orders WHERE region = 'US'", rows: []string{"2|xxx-xx-2222|NULL"}},
		{s: erin, sql: "SELECT count(*) FROM acdemo.orders WHERE ssn = '111-11-1111'", rows: []string{"0"}},
		{s: erin, sql: "SELECT count(*) FROM acdemo.orders WHERE amount IS NULL AND region = 'EU'", rows: []string{"2"}},
		{s: erin, sql: "SELECT count(amount) FROM acdemo.orders", rows: []string{"0"}},

		// A row filter and a mask: the user's predicate is pushed next to
		// the policy's and both hold.
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders", rows: []string{"2"}},
		{s: bob, sql: "SELECT count(*) FROM acdemo.orders WHERE region = 'US'", rows: []string{"0"}},
		{s: bob, sql: "SELECT sum(amount) FROM acdemo.orders WHERE id > 1", rows: []string{"310.25"}},
		{s: bob, sql: "SELECT id FROM acdemo.orders WHERE ssn LIKE '%3333'", rows: []string{"3"}},
		{s: bob, sql: "SELECT id FROM acdemo.orders WHERE ssn LIKE '333%'", rows: nil},
	})
}
