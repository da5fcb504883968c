package sqlwrite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
	sqeexec "github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// nodeGoldenQueries are set operations and window functions, written in
// both dialects from the optimized plan and compared with
// testdata/<dialect>_nodes.sql.
var nodeGoldenQueries = []struct{ name, sql string }{
	{"union all", "SELECT id FROM people UNION ALL SELECT dept FROM dept"},
	{"union", "SELECT region FROM people UNION SELECT title FROM dept"},
	{"intersect", "SELECT dept, ssn FROM people INTERSECT SELECT dept, title FROM dept"},
	{"intersect all", "SELECT dept FROM people INTERSECT ALL SELECT dept FROM dept"},
	{"except", "SELECT dept FROM people EXCEPT SELECT dept FROM dept"},
	{"except all", "SELECT dept FROM dept EXCEPT ALL SELECT dept FROM people"},
	{"guarded above union all", "SELECT * FROM (SELECT id FROM people UNION ALL SELECT dept FROM dept) u WHERE 12 / (id - 2) > 0"},
	{"guarded above union", "SELECT x FROM (SELECT id AS x FROM people UNION SELECT dept FROM dept) t WHERE 12 / (x - 2) > 0"},
	{"ranking", "SELECT id, row_number() OVER (ORDER BY id), rank() OVER (PARTITION BY dept ORDER BY name), dense_rank() OVER (ORDER BY dept NULLS FIRST) FROM people"},
	{"window aggregates", "SELECT id, count(*) OVER (PARTITION BY dept), max(name) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM people"},
	{"lag and lead", "SELECT id, lag(name) OVER (ORDER BY id), lead(id, 2, -1) OVER (ORDER BY id) FROM people"},
	{"frame values", "SELECT id, first_value(ssn) OVER (ORDER BY name DESC), last_value(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM people"},
	{"guarded window arguments", "SELECT id, min(12 / (id - 2)) OVER (PARTITION BY 10 / (id - 2) ORDER BY id) FROM people"},
	{"distinct on", "SELECT DISTINCT ON (dept) dept, id FROM people ORDER BY dept, id DESC"},
	{"scalar subquery", "SELECT id, (SELECT max(12 / (id - 2)) FROM people) FROM people"},
	{"exists and in subqueries", "SELECT title, EXISTS (SELECT 1 FROM people WHERE 10 / (id - 2) > 1), dept IN (SELECT dept FROM people) FROM dept"},
	{"sample of a computed 100 percent", "SELECT count(*) FROM people TABLESAMPLE BERNOULLI (50 * 2) REPEATABLE (1 + 2)"},
	{"sample of 0 percent", "SELECT id FROM people TABLESAMPLE SYSTEM (0)"},
	{"random", "SELECT random() >= 0 AND random() < 1"},
	{"random in a WITH query read once", "WITH r AS (SELECT id, random() AS x FROM people) SELECT id, x FROM r"},
	{"random in a WITH query read twice", "WITH r AS (SELECT random() AS x) SELECT a.x FROM r a, r b"},
	{"lateral over a secured relation", "SELECT p.id, x.title, x.q FROM people p CROSS JOIN LATERAL (SELECT d.title, 10 / (p.id - 2) AS q FROM dept d WHERE d.dept = p.dept ORDER BY d.title LIMIT 1) x"},
	{"left lateral reading a secured relation", "SELECT d.title, x.ssn, x.n FROM dept d LEFT JOIN LATERAL (SELECT max(p.ssn) AS ssn, count(*) AS n FROM people p WHERE p.dept = d.dept) x ON true WHERE 10 / (d.dept - 2) > 0"},
	{"left lateral over VALUES", "SELECT v.a, x.n FROM (VALUES (10), (30)) v(a) LEFT JOIN LATERAL (SELECT count(*) AS n FROM people p WHERE p.dept = v.a) x ON true"},
	{"count of distinct rows", "SELECT count(DISTINCT (region, name)), count((ssn, dept)) FROM people"},
}

func TestWriteNodesGolden(t *testing.T) {
	sec := peoplePolicy{mask: ssnMask}
	for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
		path := filepath.Join("testdata", strings.ToLower(d.String())+"_nodes.sql")
		var b strings.Builder
		for _, q := range nodeGoldenQueries {
			out, err := sqlwrite.Write(bind(t, q.sql, sec, true), d, catalogs)
			if err != nil {
				out = "ERROR: " + err.Error()
			}
			fmt.Fprintf(&b, "-- %s\n-- %s\n%s;\n\n", q.name, q.sql, out)
		}
		checkGolden(t, path, b.String())
	}
}

// TestNodesGuarded checks, in both dialects, that a division over the
// rows of a set operation or a window is computed only behind a
// visibility column, and that each set operation's branch keeps only its
// visible rows.
func TestNodesGuarded(t *testing.T) {
	guard := regexp.MustCompile(`CASE WHEN s\d+\.__sqe_visible_\d+ THEN [^/]*\(CAST\(12 AS bigint\) / `)
	for _, sec := range []peoplePolicy{{mask: ssnMask}, {}} {
		for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
			for _, q := range []string{
				"SELECT * FROM (SELECT id FROM people UNION ALL SELECT dept FROM dept) u WHERE 12 / (id - 2) > 0",
				"SELECT x FROM (SELECT id AS x FROM people INTERSECT SELECT dept FROM dept) t WHERE 12 / (x - 2) > 0",
				"SELECT x FROM (SELECT id AS x FROM people UNION SELECT dept FROM dept) t WHERE 12 / (x - 2) > 0",
				"SELECT * FROM (SELECT id, count(*) OVER (PARTITION BY id) AS n FROM people) t WHERE 12 / (id - 2) > 0",
				"SELECT id, min(12 / (id - 2)) OVER (ORDER BY id) FROM people",
			} {
				out, err := sqlwrite.Write(bind(t, q, sec, true), d, catalogs)
				if err != nil {
					t.Fatalf("%s, mask %q: %s: %v", d, sec.mask, q, err)
				}
				if !guard.MatchString(out) || strings.Count(out, "/") != 1 {
					t.Errorf("%s, mask %q: %s: division not guarded once:\n%s", d, sec.mask, q, out)
				}
				if strings.Contains(q, "UNION") || strings.Contains(q, "INTERSECT") {
					branch := regexp.MustCompile(`WHERE s\d+\.__sqe_visible_1 (UNION|INTERSECT)`)
					if !branch.MatchString(out) {
						t.Errorf("%s, mask %q: %s: the secured branch does not keep its visible rows:\n%s", d, sec.mask, q, out)
					}
				}
			}
		}
	}
}

// TestNodeRefusals checks that set operations and window functions the
// dialect does not compute exactly as SQE does are refused with 0A000
// naming what.
func TestNodeRefusals(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		dialect sqlwrite.Dialect
		names   string
	}{
		{"intersect of doubles, Trino", "SELECT dept::float8 FROM people INTERSECT SELECT dept::float8 FROM dept", sqlwrite.Trino, "INTERSECT or EXCEPT over double precision"},
		{"negative lag offset, Trino", "SELECT lag(id, -1) OVER (ORDER BY id) FROM people", sqlwrite.Trino, "window function lag"},
		{"computed lag offset, Trino", "SELECT lead(id, dept) OVER (ORDER BY id) FROM people", sqlwrite.Trino, "window function lead"},
		{"lag without ORDER BY, Trino", "SELECT lag(id) OVER () FROM people", sqlwrite.Trino, "window function lag"},
		{"ntile, Trino", "SELECT ntile(2) OVER (ORDER BY id) FROM people", sqlwrite.Trino, "window function ntile"},
		{"nth_value, Trino", "SELECT nth_value(id, 2) OVER (ORDER BY id) FROM people", sqlwrite.Trino, "window function nth_value"},
		{"window FILTER, Trino", "SELECT count(*) FILTER (WHERE id > 1) OVER () FROM people", sqlwrite.Trino, "FILTER"},
		{"window sum of integers, Trino", "SELECT sum(dept) OVER () FROM people", sqlwrite.Trino, "aggregate sum"},
		{"window sum of bigints, Trino", "SELECT sum(id) OVER () FROM people", sqlwrite.Trino, "type numeric"},
		{"EXCLUDE, Trino", "SELECT count(*) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM people", sqlwrite.Trino, "EXCLUDE"},
		{"GROUPS, Trino", "SELECT count(*) OVER (ORDER BY id GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people", sqlwrite.Trino, "GROUPS"},
		{"RANGE offset, Trino", "SELECT count(*) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people", sqlwrite.Trino, "RANGE window frame with an offset"},
		{"RANGE offset over a double", "SELECT count(*) OVER (ORDER BY dept::float8 RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people", sqlwrite.PostgreSQL, "RANGE window frame with an offset over a key"},
		{"negative frame offset", "SELECT count(*) OVER (ORDER BY id ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM people", sqlwrite.PostgreSQL, "window frame offset"},
		{"ranking with a frame, Trino", "SELECT row_number() OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people", sqlwrite.Trino, "row_number with a frame clause"},
		{"IN of two columns, Trino", "SELECT (dept, title) IN (SELECT dept, name FROM people) FROM dept", sqlwrite.Trino, "IN subquery of 2 columns"},
		{"ARRAY subquery", "SELECT ARRAY(SELECT dept FROM dept) FROM people", sqlwrite.PostgreSQL, ""},
		{"set operation over a set-returning function", "SELECT id FROM people UNION ALL SELECT generate_series(1::bigint, 2)", sqlwrite.Trino, "ProjectSet"},
		{"sample of 50 percent", "SELECT count(*) FROM people TABLESAMPLE BERNOULLI (50)", sqlwrite.PostgreSQL, "TABLESAMPLE of other than 0 or 100 percent"},
		{"sample of a function's percentage", "SELECT count(*) FROM people TABLESAMPLE BERNOULLI (abs(-100))", sqlwrite.PostgreSQL, "TABLESAMPLE whose arguments are not constants"},
		{"invalid sample under LIMIT 0", "SELECT count(*) FROM (SELECT id FROM people TABLESAMPLE BERNOULLI (200) LIMIT 0) s", sqlwrite.PostgreSQL, "TABLESAMPLE whose arguments fail"},
		{"invalid sample in a join", "SELECT count(*) FROM people TABLESAMPLE BERNOULLI (NULL) JOIN dept ON people.dept = dept.dept", sqlwrite.PostgreSQL, "TABLESAMPLE whose arguments fail"},
		{"random in a WITH query read twice, Trino", "WITH r AS (SELECT id, random() AS x FROM people) SELECT a.x FROM r a JOIN r b ON a.id = b.id", sqlwrite.Trino, "WITH query calling random() read more than once"},
		{"random in a WITH query read by one reading twice, Trino", "WITH r AS (SELECT random() AS x), s AS (SELECT x FROM r) SELECT a.x FROM s a, s b", sqlwrite.Trino, "WITH query calling random() read more than once"},
		{"random in a WITH query read per row, Trino", "WITH r AS MATERIALIZED (SELECT random() AS x) SELECT (SELECT x FROM r WHERE p.id > 0) FROM people p", sqlwrite.Trino, "WITH query calling random() read more than once"},
		{"lateral, Trino", "SELECT p.id, x.title FROM people p CROSS JOIN LATERAL (SELECT d.title FROM dept d WHERE d.dept = p.dept) x", sqlwrite.Trino, "LATERAL join"},
		{"lateral limit reading the left row", "SELECT p.id, x.title FROM people p CROSS JOIN LATERAL (SELECT d.title FROM dept d LIMIT p.dept) x", sqlwrite.PostgreSQL, "LIMIT or OFFSET reading an enclosing query's row"},
		{"aggregate of the left row alone under LATERAL", "SELECT p.id, x.m FROM people p CROSS JOIN LATERAL (SELECT max(p.id) AS m FROM dept d) x", sqlwrite.PostgreSQL, "aggregate over an enclosing query's columns alone"},
		{"aggregate of the enclosing row alone in a subquery", "SELECT p.id, (SELECT count(*) FILTER (WHERE p.id > 2) FROM dept d) FROM people p", sqlwrite.PostgreSQL, "aggregate over an enclosing query's columns alone"},
		{"count of distinct rows, Trino", "SELECT count(DISTINCT (region, name)) FROM people", sqlwrite.Trino, "aggregate count with these arguments"},
		{"count of a row of jsonb", "SELECT count(DISTINCT (name, '{}'::jsonb)) FROM people", sqlwrite.PostgreSQL, "count of a row holding jsonb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sqlwrite.Write(bind(t, tt.sql, peoplePolicy{mask: ssnMask}, true), tt.dialect, catalogs)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported {
				t.Fatalf("got %v, want a 0A000 error", err)
			}
			if !strings.Contains(pe.Message, tt.names) {
				t.Errorf("error %q does not name %q", pe.Message, tt.names)
			}
		})
	}
}

// TestSampleErrorsAreSQEs checks that a TABLESAMPLE whose arguments SQE
// rejects when the sample starts is rejected by the writer, in both
// dialects, with SQE's SQLSTATE and message.
func TestSampleErrorsAreSQEs(t *testing.T) {
	ctx := context.Background()
	for _, q := range []string{
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI (100.5)",
		"SELECT count(*) FROM people TABLESAMPLE SYSTEM (-1)",
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI ('NaN')",
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI (NULL)",
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI (10) REPEATABLE (NULL)",
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI ('NaN') REPEATABLE (NULL)",
		"SELECT count(*) FROM people TABLESAMPLE BERNOULLI (NULL) REPEATABLE (NULL)",
		"SELECT id FROM people TABLESAMPLE BERNOULLI (150 + 50) WHERE id > 1 ORDER BY id LIMIT 2",
		"SELECT region, count(*) FROM people TABLESAMPLE SYSTEM (1 / 0) GROUP BY region",
	} {
		root := bindIn(t, rowsCatalog{}, q, peoplePolicy{mask: ssnMask})
		want := localError(t, ctx, root)
		if want == nil || want.Code == pgerror.FeatureNotSupported {
			t.Fatalf("%s: SQE answers %v, want an error", q, want)
		}
		for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
			_, err := sqlwrite.Write(root, d, catalogs)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != want.Code || pe.Message != want.Message {
				t.Errorf("%s, %s: got %v, want SQE's %s: %s", q, d, err, want.Code, want.Message)
			}
		}
	}
}

// localError runs root in SQE and returns the error it raises.
func localError(t *testing.T, ctx context.Context, root planner.Node) *pgerror.Error {
	t.Helper()
	op, err := sqeexec.Build(ctx, root)
	if err == nil {
		defer op.Close()
		for {
			var b interface{ Release() }
			if b, err = op.Next(ctx); err != nil || b == nil {
				break
			}
			b.Release()
		}
	}
	if err == nil {
		return nil
	}
	var pe *pgerror.Error
	if !errors.As(err, &pe) {
		t.Fatalf("SQE raised %v, without a SQLSTATE", err)
	}
	return pe
}

// TestLateralGuarded checks that in a LATERAL join's right side an
// expression that can fail is computed only behind the visibility of the
// left row it is computed for (and of its own rows), and that the stored
// ssn is read there only inside its mask.
func TestLateralGuarded(t *testing.T) {
	tests := []struct {
		sql   string
		guard string
	}{
		// The left row is secured: its visibility guards the right side.
		{"SELECT p.id, x.title, x.q FROM people p CROSS JOIN LATERAL (SELECT d.title, 10 / (p.id - 2) AS q FROM dept d WHERE d.dept = p.dept ORDER BY d.title LIMIT 1) x",
			`CASE WHEN s\d+\.__sqe_visible_1 THEN \(CAST\(10 AS bigint\) / \(s\d+\.c1 - `},
		// Two LATERAL joins deep: the outer one's left row still guards.
		{"SELECT p.id, x.q FROM people p CROSS JOIN LATERAL (SELECT y.q FROM dept d CROSS JOIN LATERAL (SELECT 10 / (p.id - 2) + d.dept AS q) y) x",
			`CASE WHEN s\d+\.__sqe_visible_1 THEN \(\(CAST\(10 AS bigint\) / \(s\d+\.c1 - `},
		// VALUES reading the left row.
		{"SELECT p.id, x.v FROM people p CROSS JOIN LATERAL (VALUES (10 / (p.id - 2)), (p.id)) x(v)",
			`CASE WHEN s\d+\.__sqe_visible_1 THEN \(CAST\(10 AS bigint\) / \(s\d+\.c1 - `},
		// The right side is secured: its own visibility guards it, and,
		// above the LEFT JOIN, NULL for a left row without right rows.
		{"SELECT d.title, x.ssn, x.q FROM dept d LEFT JOIN LATERAL (SELECT p.ssn, 12 / (p.id - 2) AS q FROM people p WHERE p.dept = d.dept) x ON true WHERE 10 / (x.q - 2) > 0",
			`CASE WHEN COALESCE\(s\d+\.__sqe_visible_1, TRUE\) THEN \(\(CAST\(10 AS bigint\) / `},
	}
	for _, tt := range tests {
		out, err := sqlwrite.Write(bind(t, tt.sql, peoplePolicy{mask: ssnMask}, true), sqlwrite.PostgreSQL, catalogs)
		if err != nil {
			t.Fatalf("%s: %v", tt.sql, err)
		}
		if !regexp.MustCompile(tt.guard).MatchString(out) {
			t.Errorf("%s: not guarded by %s:\n%s", tt.sql, tt.guard, out)
		}
		if n := strings.Count(out, "/"); n != strings.Count(tt.sql, "/") || n != strings.Count(out, " THEN (CAST(1")+strings.Count(out, " THEN ((CAST(1") {
			t.Errorf("%s: a division not behind a guard:\n%s", tt.sql, out)
		}
		if strings.Count(out, `"ssn"`) != strings.Count(out, `CASE WHEN ("ssn" IS NULL)`) {
			t.Errorf("%s: ssn read outside its mask:\n%s", tt.sql, out)
		}
		if !strings.Contains(out, " JOIN LATERAL (") {
			t.Errorf("%s: no LATERAL join:\n%s", tt.sql, out)
		}
	}
}
