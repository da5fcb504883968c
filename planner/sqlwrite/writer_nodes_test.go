package sqlwrite_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
