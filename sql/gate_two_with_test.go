package sql

import (
	"strings"
	"testing"
)

// TestGateTwoMaterializedWithQuery: a WITH query read twice is computed
// once, from the rows and values its caller may see. The row filter and
// the mask inside it hold for both references, in rows, in errors a
// hidden row would raise and in the plan, and the second reference reads
// no stored value the first one's rows were computed from.
func TestGateTwoMaterializedWithQuery(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob := open("carol", "sqe_admin"), open("bob", "engineer")
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE engineer"},
		{s: carol, sql: "CREATE POLICY en_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn"},
		{s: carol, sql: "CREATE POLICY en_eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')"},

		{s: bob, sql: "WITH o AS (SELECT id, ssn FROM acdemo.orders) SELECT a.id, a.ssn, b.ssn FROM o a JOIN o b ON a.id = b.id ORDER BY a.id",
			rows: []string{"1|xxx-xx-1111|xxx-xx-1111", "3|xxx-xx-3333|xxx-xx-3333"}},
		{s: bob, sql: "WITH o AS (SELECT id, ssn FROM acdemo.orders) SELECT count(*), (SELECT count(*) FROM o) FROM o a, o b",
			rows: []string{"4|2"}},
		// A predicate on one reference is not pushed into the query the
		// other reads, nor evaluated on a hidden row or a stored value.
		{s: bob, sql: "WITH o AS (SELECT id, ssn FROM acdemo.orders) SELECT a.id FROM o a JOIN o b ON a.id = b.id WHERE 1/(a.id-2) = 1 AND b.ssn LIKE '%3333'",
			rows: []string{"3"}},
		{s: bob, sql: "WITH o AS (SELECT id, ssn FROM acdemo.orders) SELECT id FROM o WHERE ssn = '222-22-2222' OR ssn = '111-11-1111' UNION ALL SELECT id FROM o WHERE ssn LIKE '2%'"},
		{s: bob, sql: "WITH o AS MATERIALIZED (SELECT id, ssn FROM acdemo.orders) SELECT max(ssn) FROM o", rows: []string{"xxx-xx-3333"}},
	})
	rows, _, err := run(t, bob, "EXPLAIN WITH o AS (SELECT id, ssn FROM acdemo.orders) SELECT a.id FROM o a JOIN o b ON a.id = b.id")
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(rows, "\n")
	for _, want := range []string{"CTE o", "CTE Scan on o a", "CTE Scan on o b"} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
	if strings.Count(plan, "Scan {sales_wh acdemo orders}") != 1 {
		t.Errorf("the table is not read once:\n%s", plan)
	}
}
