package sql

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// TestAnalyze: ANALYZE completes with PostgreSQL's tag once its names
// check out, and fails as PostgreSQL 15 does when they do not.
func TestAnalyze(t *testing.T) {
	tests := []struct {
		query, code, message string
		tag                  string // ANALYZE when empty
	}{
		{query: "ANALYZE"},
		{query: "ANALYZE acdemo.orders"},
		{query: "ANALYZE VERBOSE acdemo.orders (id, region)"},
		{query: "ANALYZE acdemo.orders, acdemo.sales"},
		{query: "BEGIN; ANALYZE acdemo.orders; COMMIT"},
		{query: "ANALYZE nope", code: pgerror.UndefinedTable, message: `relation "nope" does not exist`},
		{query: "ANALYZE acdemo.orders, acdemo.nope", code: pgerror.UndefinedTable, message: `relation "acdemo.nope" does not exist`},
		{query: "ANALYZE acdemo.orders (nope)", code: pgerror.UndefinedColumn, message: `column "nope" of relation "orders" does not exist`},
		{query: "ANALYZE acdemo.orders (id, id)", code: pgerror.DuplicateColumn, message: `column "id" of relation "orders" appears more than once`},
		{query: "VACUUM", code: pgerror.FeatureNotSupported, message: "VACUUM is not supported: Iceberg tables are maintained by procedures"},
		{query: "VACUUM ANALYZE acdemo.orders", tag: "VACUUM"},
		{query: "VACUUM (ANALYZE) acdemo.orders (id)", tag: "VACUUM"},
		{query: "VACUUM FULL acdemo.orders", code: pgerror.FeatureNotSupported, message: "VACUUM is not supported: Iceberg tables are maintained by procedures"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			s := newTestSession(t)
			_, tags, err := run(t, s, tt.query)
			if tt.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				want := tt.tag
				if want == "" {
					want = "ANALYZE"
				}
				if !slices.Contains(tags, want) {
					t.Fatalf("tags %q, want %s", tags, want)
				}
				return
			}
			if pgerror.Code(err) != tt.code || !strings.HasPrefix(err.Error(), tt.message) {
				t.Fatalf("err = %v, want %s %q", err, tt.code, tt.message)
			}
		})
	}
}

// TestVacuumNamesProcedures: the VACUUM error tells which procedures do
// its work.
func TestVacuumNamesProcedures(t *testing.T) {
	s := newTestSession(t)
	_, _, err := run(t, s, "VACUUM acdemo.orders")
	pe, ok := err.(*pgerror.Error)
	if !ok || !strings.Contains(pe.Hint, "system.rewrite_data_files") || !strings.Contains(pe.Hint, "system.expire_snapshots") {
		t.Fatalf("err = %#v, want a hint naming the maintenance procedures", err)
	}
}

// TestAnalyzeRefusedTable: a table the caller may not use fails ANALYZE
// with the very error a SELECT of it gets (42P01 where its schema is
// hidden), and says nothing more.
func TestAnalyzeRefusedTable(t *testing.T) {
	for _, policy := range []refuseFor{{namespace: "acdemo"}, {namespace: "acdemo", table: "sales"}} {
		s := newCatalogTestSession(t, policy)
		_, _, selErr := run(t, s, "SELECT 1 FROM acdemo.sales")
		_, _, err := run(t, s, "ANALYZE acdemo.sales")
		a, ok1 := err.(*pgerror.Error)
		b, ok2 := selErr.(*pgerror.Error)
		if !ok1 || !ok2 || a.Code != b.Code || a.Message != b.Message || a.Detail != b.Detail || a.Hint != b.Hint {
			t.Fatalf("%+v: ANALYZE says %v, SELECT %v: want the same error", policy, err, selErr)
		}
		if policy.table == "" && a.Code != pgerror.UndefinedTable {
			t.Fatalf("hidden schema: ANALYZE says %v, want 42P01", err)
		}
		if policy.table != "" {
			if _, tags, err := run(t, s, "ANALYZE acdemo.orders"); err != nil || !reflect.DeepEqual(tags, []string{"ANALYZE"}) {
				t.Fatalf("ANALYZE of a visible table: %q, %v", tags, err)
			}
		}
	}
}

// fruitRows are six rows whose statistics PostgreSQL 15 computes as
// fruitStats says (ANALYZE samples every row of so small a table).
const fruitRows = `CREATE TABLE acdemo.fruit (id int, name text, qty bigint, tag text);
INSERT INTO acdemo.fruit VALUES (1, 'apple', 5, NULL), (2, 'banana', 5, NULL), (3, 'apple', 7, 'x'),
	(4, NULL, 5, NULL), (5, 'cherry', 9, NULL), (6, 'banana', NULL, NULL)`

// fruitStats are pg_stats' attname, null_frac, avg_width, n_distinct
// and whether most_common_vals and histogram_bounds are NULL, as
// PostgreSQL 15 shows them for fruitRows (where it has no sample of
// values, SQE shows none).
var fruitStats = []string{
	"id|0|4|-1|true|true",
	"name|0.16666667|6|-0.5|true|true",
	"qty|0.16666667|8|-0.5|true|true",
	"tag|0.8333333|2|-0.16666669|true|true",
}

const fruitStatsQuery = `SELECT attname, null_frac, avg_width, n_distinct, most_common_vals IS NULL, histogram_bounds IS NULL
	FROM pg_stats WHERE schemaname = 'acdemo' AND tablename = 'fruit' ORDER BY attname`

// TestAnalyzeFillsPgStats: pg_stats shows nothing of a table before
// ANALYZE, PostgreSQL's numbers after it, only the columns named when
// some are, and the newest statistics after another ANALYZE; a write
// leaves the last statistics shown until the next ANALYZE, and ANALYZE
// of one column keeps the others' statistics (the numbers checked
// against PostgreSQL 15).
func TestAnalyzeFillsPgStats(t *testing.T) {
	s := newTestSession(t)
	steps := []struct {
		sql  string
		rows []string
	}{
		{sql: fruitRows},
		{sql: fruitStatsQuery, rows: nil},
		{sql: "ANALYZE acdemo.fruit (name)"},
		{sql: fruitStatsQuery, rows: fruitStats[1:2]},
		{sql: "ANALYZE acdemo.fruit"},
		{sql: fruitStatsQuery, rows: fruitStats},
		{sql: "INSERT INTO acdemo.fruit VALUES (7, 'date', 1, 'y')"},
		{sql: fruitStatsQuery, rows: fruitStats},
		{sql: "VACUUM ANALYZE acdemo.fruit (tag)"},
		{sql: fruitStatsQuery, rows: []string{fruitStats[0], fruitStats[1], fruitStats[2], "tag|0.71428573|2|-0.28571427|true|true"}},
	}
	for _, st := range steps {
		rows, _, err := run(t, s, st.sql)
		if err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if strings.HasPrefix(st.sql, "SELECT") && !slices.Equal(rows, st.rows) {
			t.Fatalf("%s:\n got %q\nwant %q", st.sql, rows, st.rows)
		}
	}
}

// TestPgStatsGoverned: pg_stats shows a caller only what gate two lets
// it see. A hidden table has no rows; a restricted column no row; a
// masked column a row with every statistic NULL; a table under the
// caller's row filter rows with every statistic NULL. ANALYZE needs
// UPDATE on the table: a caller with SELECT only is told the table is
// skipped, and ANALYZE without names skips it without a word.
func TestPgStatsGoverned(t *testing.T) {
	e, _ := newGatedEngine(t)
	deny := ranger.Policy{Name: "no_ssn", PolicyType: ranger.PolicyTypeAccess,
		Resources: map[string]ranger.PolicyResource{
			"database": {Values: []string{"acdemo"}}, "table": {Values: []string{"orders"}}, "column": {Values: []string{"ssn"}}},
		DenyPolicyItems: []ranger.PolicyItem{{Accesses: []ranger.PolicyItemAccess{{Type: "select"}}, Roles: []string{"auditor"}}}}
	if err := e.cfg.Policies.PutPolicy(context.Background(), deny, false); err != nil {
		t.Fatal(err)
	}
	open := func(user string, roles ...string) *Session { return openAs(t, e, user, roles...) }
	carol, alice, bob := open("carol", "sqe_admin"), open("alice", "analyst"), open("bob", "analyst", "engineer")
	erin, dave := open("erin", "analyst", "auditor"), open("dave")
	const stats = "SELECT attname, null_frac IS NULL, avg_width IS NULL, n_distinct, histogram_bounds IS NULL FROM pg_stats WHERE tablename = 'orders' ORDER BY attname"
	all := []string{"amount|false|false|-1|true", "id|false|false|-1|true", "order_date|false|false|-1|true", "region|false|false|-0.6666667|true", "ssn|false|false|-1|true"}
	runGateTwoSteps(t, []gateTwoStep{
		{s: carol, sql: "GRANT SELECT ON sales_wh.acdemo.orders TO ROLE analyst"},
		{s: carol, sql: "CREATE POLICY mask_ssn ON TABLE acdemo.orders COLUMN MASK MASK_SHOW_LAST_4 TO USER alice ON COLUMN ssn"},
		{s: carol, sql: "CREATE POLICY eu ON TABLE acdemo.orders ROW FILTER TO ROLE engineer USING (region = 'EU')"},
		// SELECT alone does not let a caller change the statistics.
		{s: alice, sql: "ANALYZE acdemo.orders", wantNotice: `skipping "orders" --- only table or database owner can analyze it`},
		{s: alice, sql: "ANALYZE"},
		{s: carol, sql: stats, rows: nil},
		{s: carol, sql: "ANALYZE acdemo.orders"},
		{s: carol, sql: stats, rows: all},
		// The masked column's statistics describe the values the mask hides.
		{s: alice, sql: stats, rows: []string{all[0], all[1], all[2], all[3], "ssn|true|true|NULL|true"}},
		// Under a row filter, NULL fractions and distinct counts would tell
		// of the rows it hides.
		{s: bob, sql: stats, rows: []string{"amount|true|true|NULL|true", "id|true|true|NULL|true", "order_date|true|true|NULL|true", "region|true|true|NULL|true", "ssn|true|true|NULL|true"}},
		// A restricted column is not there at all.
		{s: erin, sql: stats, rows: all[:4]},
		// Nor is a table the caller may not see.
		{s: dave, sql: stats, rows: nil},
		{s: dave, sql: "ANALYZE acdemo.orders", code: pgerror.UndefinedTable},
		{s: dave, sql: "ANALYZE"},
	})
	if n := alice.TakeNotices(); len(n) != 0 {
		t.Errorf("notices left: %v", n)
	}
}

// TestAnalyzeInformsEstimates: after ANALYZE the planner's group
// estimate is the column's distinct count (2 regions) rather than the
// guess (every one of the 3 rows a group).
func TestAnalyzeInformsEstimates(t *testing.T) {
	s := newCatalogTestSession(t, storage.AllowAll{})
	const explain = "EXPLAIN SELECT region, count(*) FROM acdemo.orders GROUP BY region"
	aggregate := func() string {
		rows, _, err := run(t, s, explain)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if strings.Contains(r, "Aggregate") {
				return r
			}
		}
		t.Fatalf("no aggregate in %q", rows)
		return ""
	}
	if got := aggregate(); !strings.Contains(got, "rows=3 ") {
		t.Fatalf("before ANALYZE: %s", got)
	}
	if _, _, err := run(t, s, "ANALYZE acdemo.orders"); err != nil {
		t.Fatal(err)
	}
	if got := aggregate(); !strings.Contains(got, "rows=2 ") {
		t.Fatalf("after ANALYZE: %s", got)
	}
}
