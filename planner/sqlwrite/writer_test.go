package sqlwrite_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var catalogs = sqlwrite.Catalogs{"lake": "remote_lake"}

// goldenQueries are written in both dialects, from the bound plan and the
// optimized one, and compared with testdata/<dialect>.sql.
var goldenQueries = []struct {
	name, sql string
	// optimizedOnly: the bound plan holds a subquery expression, which
	// the optimizer turns into a join.
	optimizedOnly bool
}{
	{"select masked", "SELECT id, ssn FROM people", false},
	{"guarded division", "SELECT id FROM people WHERE 1/(id-2) > 0", false},
	{"order and limit", "SELECT id, ssn FROM people WHERE id > 1 ORDER BY name DESC LIMIT 3 OFFSET 1", false},
	{"join an open table", "SELECT p.name, d.title FROM people p JOIN dept d ON p.dept = d.dept", false},
	{"left join guarded", "SELECT d.title, 10 / p.dept FROM dept d LEFT JOIN people p ON p.dept = d.dept", false},
	{"aggregate", "SELECT region, count(*), count(DISTINCT ssn), max(name) FROM people GROUP BY region HAVING count(*) > 1", false},
	{"count", "SELECT count(*) FROM people", false},
	{"sort only", "SELECT name, ssn FROM people ORDER BY name", false},
	{"full join", "SELECT d.title, p.id / 2 FROM people p FULL JOIN dept d ON p.dept = d.dept", false},
	{"negative integers", "SELECT id - -5, -dept FROM people WHERE dept > -1", false},
	{"semi join", "SELECT id FROM people WHERE dept IN (SELECT dept FROM dept WHERE title <> 'x')", true},
	{"anti join", "SELECT id FROM people p WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.dept = p.dept AND 100 / d.dept > 1)", true},
	{"quoting", "SELECT name FROM people WHERE name = 'O''Brien\\ \"q\"'", false},
}

func TestWriteGolden(t *testing.T) {
	sec := peoplePolicy{mask: ssnMask}
	for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
		path := filepath.Join("testdata", strings.ToLower(d.String())+".sql")
		var b strings.Builder
		for _, q := range goldenQueries {
			for _, opt := range []bool{false, true} {
				if q.optimizedOnly && !opt {
					continue
				}
				out, err := sqlwrite.Write(bind(t, q.sql, sec, opt), d, catalogs)
				if err != nil {
					out = "ERROR: " + err.Error()
				}
				fmt.Fprintf(&b, "-- %s (optimized=%v)\n-- %s\n%s;\n\n", q.name, opt, q.sql, out)
			}
		}
		checkGolden(t, path, b.String())
	}
}

// TestRawColumnOnlyInMask checks that the stored ssn appears in the
// written SQL only inside its mask, and the hidden rows' filter is
// computed before any expression that can fail reads a row.
func TestRawColumnOnlyInMask(t *testing.T) {
	sec := peoplePolicy{mask: ssnMask}
	rawSSN := regexp.MustCompile(`"ssn"`)
	for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
		for _, q := range goldenQueries {
			for _, opt := range []bool{false, true} {
				if q.optimizedOnly && !opt {
					continue
				}
				out, err := sqlwrite.Write(bind(t, q.sql, sec, opt), d, catalogs)
				if err != nil {
					t.Fatalf("%s %s: %v", d, q.name, err)
				}
				masked := strings.ReplaceAll(out, `CASE WHEN ("ssn" IS NULL) THEN CAST(NULL AS `, "")
				if n := len(rawSSN.FindAllStringIndex(out, -1)); n != strings.Count(out, `CASE WHEN ("ssn" IS NULL)`) {
					t.Errorf("%s %s: ssn read outside its mask:\n%s", d, q.name, out)
				}
				if strings.Contains(masked, `"ssn"`) {
					t.Errorf("%s %s: ssn read outside its mask:\n%s", d, q.name, out)
				}
			}
		}
	}
}

// TestDivisionGuarded checks that 1/(id-2) is computed only on rows the
// row filter keeps, in both dialects and plans.
func TestDivisionGuarded(t *testing.T) {
	guard := regexp.MustCompile(`CASE WHEN s\d+\.__sqe_visible_1 THEN \(\(CAST\(1 AS bigint\) / \(s\d+\.c1 - CAST\(2 AS bigint\)\)\) > CAST\(0 AS bigint\)\) END`)
	for _, sec := range []peoplePolicy{{mask: ssnMask}, {}} {
		for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
			for _, opt := range []bool{false, true} {
				out, err := sqlwrite.Write(bind(t, "SELECT id FROM people WHERE 1/(id-2) > 0", sec, opt), d, catalogs)
				if err != nil {
					t.Fatalf("mask %q, %s optimized=%v: %v", sec.mask, d, opt, err)
				}
				if !guard.MatchString(out) {
					t.Errorf("mask %q, %s optimized=%v: division not guarded by the row filter:\n%s", sec.mask, d, opt, out)
				}
				if strings.Count(out, "/") != 1 {
					t.Errorf("mask %q, %s optimized=%v: division written more than once:\n%s", sec.mask, d, opt, out)
				}
			}
		}
	}
}

// TestRefusals checks that what the writer does not know exactly is
// refused with 0A000 naming it.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name    string
		mask    string
		sql     string
		dialect sqlwrite.Dialect
		names   string
	}{
		{"keyed mask", "mask_hash(ssn)", "SELECT ssn FROM people", sqlwrite.PostgreSQL, "mask_hash"},
		{"keyed mask, Trino", "mask_hash(ssn)", "SELECT ssn FROM people", sqlwrite.Trino, "mask_hash"},
		{"unknown function", ssnMask, "SELECT upper(name) FROM people", sqlwrite.Trino, "function upper"},
		{"volatile WITH query read twice, Trino", ssnMask, "WITH r AS (SELECT random() AS x FROM people) SELECT a.x FROM r a, r b", sqlwrite.Trino, "WITH query calling random() read more than once"},
		{"mask replacing other characters", "mask_show_last_n(ssn, 4, 'x', 'x', 'x', '#', '1')", "SELECT ssn FROM people", sqlwrite.Trino, "function mask_show_last_n replacing characters other"},
		{"mask of an integer", ssnMask, "SELECT mask(id) FROM people", sqlwrite.PostgreSQL, "function mask on type bigint"},
		{"unbounded numeric in Trino", ssnMask, "SELECT id::numeric FROM people", sqlwrite.Trino, "type numeric"},
		{"inexact division in Trino", ssnMask, "SELECT id::float8 / 2 FROM people", sqlwrite.Trino, "operator / on double precision"},
		{"inexact sum in Trino", ssnMask, "SELECT sum(id) FROM people", sqlwrite.Trino, "type numeric"},
		{"inexact sum of integers in Trino", ssnMask, "SELECT sum(dept) FROM people", sqlwrite.Trino, "aggregate sum"},
		{"cast to text, Trino", ssnMask, "SELECT id::text FROM people", sqlwrite.Trino, "cast from bigint to text"},
		{"text to bytea", ssnMask, "SELECT name::bytea FROM people", sqlwrite.PostgreSQL, "cast from text to bytea"},
		{"float to text, Trino", ssnMask, "SELECT id::float8::text FROM people", sqlwrite.Trino, "cast from double precision to text"},
		{"set-returning function, Trino", ssnMask, "SELECT generate_series(1, id) FROM people", sqlwrite.Trino, "ProjectSet"},
		{"grouping sets, Trino", ssnMask, "SELECT region, count(*) FROM people GROUP BY ROLLUP (region)", sqlwrite.Trino, "GROUPING SETS"},
		{"repeated grouping sets", ssnMask, "SELECT region, count(*) FROM people GROUP BY GROUPING SETS ((region), (region))", sqlwrite.PostgreSQL, "GROUPING SETS"},
		{"type without an equivalent", ssnMask, "SELECT '{}'::jsonb FROM people", sqlwrite.Trino, "type jsonb"},
		{"no result columns", ssnMask, "SELECT FROM people", sqlwrite.PostgreSQL, "without result columns"},
		{"table SQE alone reads", ssnMask, `SELECT snapshot_id FROM "people$snapshots"`, sqlwrite.PostgreSQL, "people$snapshots is read by SQE alone"},
		{"failing constant in a CASE branch", ssnMask, "SELECT CASE WHEN id = 2 THEN 1/0 ELSE id END FROM people", sqlwrite.PostgreSQL, "constant expression that can fail in a CASE branch"},
		{"LIKE with an escape, Trino", ssnMask, `SELECT id FROM people WHERE name LIKE 'a\_%'`, sqlwrite.Trino, "function like"},
		{"LIKE with a pattern column, Trino", ssnMask, "SELECT id FROM people WHERE name LIKE region", sqlwrite.Trino, "function like"},
		{"substr from the end, Trino", ssnMask, "SELECT substr(name, -2) FROM people", sqlwrite.Trino, "function substr"},
		{"replace of the empty string, Trino", ssnMask, "SELECT replace(name, '', 'x') FROM people", sqlwrite.Trino, "function replace"},
		{"concat, Trino", ssnMask, "SELECT concat(name, region) FROM people", sqlwrite.Trino, "function concat"},
		{"substr with a bigint column", ssnMask, "SELECT substr(name, id) FROM people", sqlwrite.PostgreSQL, "function substr"},
		{"ARRAY subquery", ssnMask, "SELECT ARRAY(SELECT dept FROM dept) FROM people", sqlwrite.PostgreSQL, "ARRAY subquery"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sqlwrite.Write(bind(t, tt.sql, peoplePolicy{mask: tt.mask}, false), tt.dialect, catalogs)
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

func TestUnmappedCatalogRefused(t *testing.T) {
	_, err := sqlwrite.Write(bind(t, "SELECT id FROM people", peoplePolicy{mask: ssnMask}, false), sqlwrite.Trino, sqlwrite.Catalogs{})
	var pe *pgerror.Error
	if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported || !strings.Contains(pe.Message, `"lake"`) {
		t.Fatalf("got %v, want a 0A000 error naming the catalog", err)
	}
}

var _ = planner.Explain

// checkGolden compares the written SQL with the golden file at path, or
// writes the file under -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the written SQL (run with -update to see):\n%s", path, got)
	}
}
