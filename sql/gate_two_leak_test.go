package sql

import (
	"strings"
	"testing"
)

// TestGateTwoLeakProbes: adversarial queries by a caller who sees
// acdemo.orders through a row filter (region = 'EU', hiding row 2) and a
// mask (MASK_SHOW_LAST_4 on ssn). None may error because of the hidden
// row, return it, or show a stored ssn, in rows or in an error message;
// statistics do not count the hidden row.
func TestGateTwoLeakProbes(t *testing.T) {
	e, _ := newGatedEngine(t)
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, bob := open("carol", "sqe_admin"), open("bob", "analyst", "engineer")
	for _, q := range []string{
		"GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst",
		"CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO ROLE engineer ON COLUMN ssn",
		"CREATE POLICY eu ON TABLE sales_wh.acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')",
		"CREATE VIEW acdemo.v AS SELECT id, ssn FROM acdemo.orders",
		"GRANT SELECT ON VIEW sales_wh.acdemo.v TO ROLE analyst",
	} {
		if _, _, err := run(t, carol, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	secrets := []string{"111-11-1111", "222-22-2222", "333-33-3333", "|US|", "US}", "{US", ",US"}
	probes := []struct {
		sql  string
		rows []string // nil: only the absence of secrets is checked
		code string   // an error is expected (from admitted rows only)
	}{
		// Errors a hidden row would raise, wherever the expression sits.
		{sql: "SELECT id FROM acdemo.orders WHERE 1/(id-2) = 1", rows: []string{"3"}},
		{sql: "SELECT id FROM acdemo.orders o JOIN (VALUES (1)) v(x) ON 1/(o.id-2) = x", rows: []string{"3"}},
		{sql: "SELECT id FROM acdemo.orders GROUP BY id HAVING 1/(id-2) > -10 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders ORDER BY 1/(id-2)", rows: []string{"1", "3"}},
		{sql: "SELECT CASE WHEN id = 2 THEN 1/0 ELSE id END FROM acdemo.orders ORDER BY 1", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders o WHERE EXISTS (SELECT 1 WHERE 1/(o.id-2) = 1)", rows: []string{"3"}},
		{sql: "SELECT o.id, l.x FROM acdemo.orders o, LATERAL (SELECT 1/(o.id-2) AS x) l ORDER BY 1", rows: []string{"1|-1", "3|1"}},
		{sql: "SELECT id FROM acdemo.orders WHERE 9223372036854775807 * ((id - 1) * (3 - id) + 1) > 0 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders WHERE CASE WHEN region = 'US' THEN ssn::int ELSE 0 END = 0 ORDER BY id", rows: []string{"1", "3"}},
		{sql: "SELECT id FROM acdemo.orders WHERE region::int = 1", code: "22P02"},
		{sql: "SELECT id FROM acdemo.orders WHERE ssn::int > 0", code: "22P02"},
		{sql: "SELECT id FROM acdemo.orders WHERE ssn ~ '('", code: "2201B"},
		// The masked column, however it is used.
		{sql: "SELECT count(*) FROM acdemo.orders WHERE ssn = '111-11-1111'", rows: []string{"0"}},
		{sql: "SELECT count(*) FROM acdemo.orders WHERE ssn LIKE '111%'", rows: []string{"0"}},
		{sql: "SELECT ssn, count(*) FROM acdemo.orders GROUP BY ssn ORDER BY ssn", rows: []string{"xxx-xx-1111|1", "xxx-xx-3333|1"}},
		{sql: "SELECT DISTINCT ssn FROM acdemo.orders ORDER BY ssn", rows: []string{"xxx-xx-1111", "xxx-xx-3333"}},
		{sql: "SELECT id, count(*) OVER (PARTITION BY ssn), first_value(ssn) OVER (ORDER BY ssn) FROM acdemo.orders ORDER BY id",
			rows: []string{"1|1|xxx-xx-1111", "3|1|xxx-xx-1111"}},
		{sql: "SELECT o.id FROM acdemo.orders o JOIN (VALUES ('111-11-1111')) v(s) ON o.ssn = v.s", rows: nil},
		{sql: "SELECT min(ssn), max(ssn), min(id), max(id), count(*) FROM acdemo.orders", rows: []string{"xxx-xx-1111|xxx-xx-3333|1|3|2"}},
		{sql: "SELECT string_agg(ssn, ',' ORDER BY ssn), array_agg(region) FROM acdemo.orders"},
		{sql: "SELECT id, ssn FROM acdemo.v ORDER BY id", rows: []string{"1|xxx-xx-1111", "3|xxx-xx-3333"}},
		{sql: "SELECT count(*) FROM acdemo.orders o1 JOIN acdemo.orders o2 ON o1.ssn = o2.ssn", rows: []string{"2"}},
		// Statistics and plans do not count the hidden row.
		{sql: "SELECT reltuples FROM pg_class WHERE relname = 'orders'", rows: []string{"-1"}},
		{sql: "EXPLAIN SELECT * FROM acdemo.orders"},
		{sql: "EXPLAIN ANALYZE SELECT * FROM acdemo.orders"},
	}
	for _, p := range probes {
		rows, _, err := run(t, bob, p.sql)
		text := "|" + strings.Join(rows, "|\n|") + "|"
		if err != nil {
			text += err.Error()
		}
		for _, secret := range secrets {
			if strings.Contains(text, secret) {
				t.Errorf("%s: %q reached the caller:\n%s", p.sql, secret, text)
			}
		}
		if strings.HasPrefix(p.sql, "EXPLAIN") && (strings.Contains(text, "rows=3") || strings.Contains(text, "rows=2 loops=1)\n|Planning")) {
			t.Errorf("%s: the plan counts the hidden row:\n%s", p.sql, text)
		}
		switch {
		case p.code != "":
			if err == nil || !strings.Contains(err.Error(), p.code) {
				t.Errorf("%s: %v, want SQLSTATE %s", p.sql, err, p.code)
			}
		case err != nil:
			t.Errorf("%s: %v", p.sql, err)
		case p.rows != nil && strings.Join(rows, "\n") != strings.Join(p.rows, "\n"):
			t.Errorf("%s: rows %q, want %q", p.sql, rows, p.rows)
		}
	}
}
