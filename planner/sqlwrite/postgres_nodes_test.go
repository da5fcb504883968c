package sqlwrite_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/planner"
)

// costlyFilterPolicy keeps the rows peoplePolicy keeps, by a row filter
// PostgreSQL costs above a division: unguarded, a division from above
// would be computed first, on the hidden row too, and fail there.
type costlyFilterPolicy struct{}

func (costlyFilterPolicy) Secure(ctx context.Context, t planner.Table) (*planner.SecuredRelation, error) {
	rel, err := peoplePolicy{mask: ssnMask}.Secure(ctx, t)
	if err != nil || t.QualifiedName().Name != "people" {
		return rel, err
	}
	rel.RowFilters = []string{"coalesce(length(region || region || region || region), 0) + 1 + 1 + 1 + 1 > 4 AND region = 'EU'"}
	return rel, nil
}

// nodeQueries exercise set operations and window functions. Person 2 is
// hidden (region US), so 12/(id-2) and 10/(id-2) fail on it alone: the
// statements that compute them only behind the visibility guard answer.
// ordered marks a query whose rows must come in order.
var nodeQueries = []struct {
	sql     string
	ordered bool
}{
	// Set operations.
	{"SELECT id FROM people UNION ALL SELECT dept FROM dept", false},
	{"SELECT region FROM people UNION SELECT title FROM dept", false},
	{"SELECT dept FROM people INTERSECT SELECT dept FROM dept", false},
	{"SELECT dept FROM people INTERSECT ALL SELECT dept FROM people WHERE id <> 1", false},
	{"SELECT dept FROM people EXCEPT SELECT dept FROM dept", false},
	{"SELECT dept FROM people EXCEPT ALL SELECT dept FROM dept", false},
	{"SELECT dept, region FROM people INTERSECT SELECT dept, region FROM people WHERE id > 3", false},
	{"SELECT name FROM people UNION ALL SELECT ssn FROM people ORDER BY 1", true},
	{"SELECT * FROM (SELECT id FROM people UNION ALL SELECT dept FROM dept) u WHERE 12 / (id - 2) > 0", false},
	{"SELECT x, 12 / (x - 2) FROM (SELECT id AS x FROM people INTERSECT SELECT id FROM people WHERE id < 5) t", false},
	{"SELECT x FROM (SELECT id AS x FROM people INTERSECT SELECT id FROM people WHERE id < 5) t WHERE 12 / (x - 2) > 0", false},
	{"SELECT x FROM (SELECT id AS x FROM people UNION SELECT dept FROM dept) t WHERE 12 / (x - 2) > 0", false},
	{"SELECT x, n FROM (SELECT id AS x, count(*) AS n FROM people GROUP BY id) t WHERE 12 / (x - 2) > 0", false},
	{"SELECT x, 12 / (x - 2) FROM (SELECT id AS x FROM people EXCEPT ALL SELECT dept FROM dept) t", false},
	{"SELECT ssn, count(*) FROM (SELECT ssn FROM people UNION ALL SELECT title FROM dept) u GROUP BY ssn", false},
	{"SELECT id, ssn FROM people UNION SELECT dept, title FROM dept ORDER BY 1 DESC LIMIT 4", true},
	// Window functions.
	{"SELECT id, row_number() OVER (ORDER BY id), rank() OVER (PARTITION BY dept ORDER BY region), dense_rank() OVER (ORDER BY dept NULLS FIRST) FROM people", false},
	{"SELECT id, count(*) OVER (PARTITION BY dept), count(name) OVER (ORDER BY name), sum(dept) OVER (ORDER BY id), avg(dept::float8) OVER (), max(name) OVER (PARTITION BY region) FROM people", false},
	{"SELECT id, min(name) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), sum(dept) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 2 PRECEDING) FROM people", false},
	{"SELECT id, lag(name) OVER (ORDER BY id), lead(id, 2, -1) OVER (ORDER BY id), lag(dept, 0) OVER (ORDER BY id DESC) FROM people", false},
	{"SELECT id, first_value(name) OVER (ORDER BY name DESC), last_value(id) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING), first_value(ssn) OVER (ORDER BY name NULLS FIRST) FROM people", false},
	{"SELECT id, name, rank() OVER (ORDER BY name), first_value(id) OVER (PARTITION BY region ORDER BY name DESC NULLS LAST RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM people", false},
	{"SELECT id, min(12 / (id - 2)) OVER (ORDER BY id), count(12 / (id - 2)) OVER (), lag(12 / (id - 2)) OVER (PARTITION BY 10 / (id - 2) ORDER BY 5 / (id - 2)) FROM people", false},
	{"SELECT id, count(*) FILTER (WHERE 12 / (id - 2) > 0) OVER (), max(10 / (id - 2)) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM people", false},
	{"SELECT * FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM people) t WHERE 12 / (id - 2) > rn", false},
	{"SELECT * FROM (SELECT id, count(*) OVER (PARTITION BY id) AS n FROM people) t WHERE 12 / (id - 2) > 0", false},
	{"SELECT id, count(*) OVER (ORDER BY dept RANGE BETWEEN 10 PRECEDING AND CURRENT ROW), sum(dept) OVER (ORDER BY dept DESC RANGE BETWEEN CURRENT ROW AND 10 FOLLOWING) FROM people", false},
	{"SELECT id, sum(dept) OVER (ORDER BY dept GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW EXCLUDE CURRENT ROW) FROM people", false},
	{"SELECT id, ntile(3) OVER (ORDER BY id), nth_value(name, 2) OVER (ORDER BY id), percent_rank() OVER (ORDER BY dept), cume_dist() OVER (ORDER BY dept) FROM people", false},
	{"SELECT DISTINCT ON (dept) dept, id, name FROM people ORDER BY dept, id DESC", true},
	{"SELECT id, row_number() OVER (ORDER BY id) FROM people ORDER BY 2 DESC LIMIT 3", true},
	{"SELECT d, max(c) OVER (ORDER BY d) FROM (SELECT dept AS d, count(*) AS c FROM people GROUP BY dept) g", false},
	{"SELECT u.id, row_number() OVER (ORDER BY u.id) FROM (SELECT id FROM people UNION ALL SELECT dept FROM dept) u", false},
	// Uncorrelated subqueries.
	{"SELECT id, (SELECT max(dept) FROM dept) FROM people", false},
	{"SELECT id, (SELECT max(id) FROM people) - id FROM people", false},
	{"SELECT id FROM people WHERE EXISTS (SELECT 1 FROM people WHERE 12 / (id - 2) > 5)", false},
	{"SELECT title FROM dept WHERE dept > (SELECT min(12 / (id - 2)) FROM people)", false},
	{"SELECT title, (SELECT count(*) FROM people WHERE 10 / (id - 2) > 1) FROM dept", false},
	{"SELECT id, CASE WHEN dept IN (SELECT dept FROM dept WHERE title <> 'ops') THEN 'in' WHEN NOT dept IN (SELECT dept FROM dept) THEN 'out' END FROM people", false},
	{"SELECT title FROM dept WHERE dept NOT IN (SELECT dept FROM people WHERE 10 / (id - 2) > 1)", false},
	{"SELECT id, (SELECT name FROM people WHERE 12 / (id - 2) = 3) FROM people", false},
	{"SELECT * FROM (SELECT id, (SELECT ssn FROM people WHERE id = 3) AS s FROM people) t WHERE 12 / (id - 2) > 0", false},
	// LATERAL joins: the right side is computed for hidden left rows
	// only behind their visibility.
	{"SELECT p.id, x.title, x.q FROM people p CROSS JOIN LATERAL (SELECT d.title, 10 / (p.id - 2) AS q FROM dept d WHERE d.dept = p.dept ORDER BY d.title LIMIT 1) x", false},
	{"SELECT p.id, x.title FROM people p CROSS JOIN LATERAL (SELECT d.title FROM dept d WHERE d.dept <> p.dept AND 12 / (p.id - 2) > 0 ORDER BY d.title DESC LIMIT 2) x", false},
	{"SELECT d.title, x.ssn, x.n FROM dept d LEFT JOIN LATERAL (SELECT max(p.ssn) AS ssn, count(*) AS n FROM people p WHERE p.dept = d.dept) x ON true", false},
	{"SELECT d.title, x.id, x.q FROM dept d LEFT JOIN LATERAL (SELECT p.id, 12 / (p.id - 2) AS q FROM people p WHERE p.dept = d.dept) x ON true WHERE x.id IS NULL OR 10 / (x.id - 2) > -100", false},
	{"SELECT v.a, x.n FROM (VALUES (10), (30), (50)) v(a) LEFT JOIN LATERAL (SELECT count(*) AS n FROM people p WHERE p.dept = v.a) x ON true", false},
	{"SELECT p.id, x.q FROM people p CROSS JOIN LATERAL (SELECT y.q FROM dept d CROSS JOIN LATERAL (SELECT 10 / (p.id - 2) + d.dept AS q) y) x", false},
	{"SELECT p.id, x.m FROM people p CROSS JOIN LATERAL (SELECT max(p.id + d.dept) AS m, count(*) FILTER (WHERE d.dept > p.dept) AS n FROM dept d) x", false},
	// count of rows, their NULL fields included.
	{"SELECT count(DISTINCT (name, dept)), count(DISTINCT (dept, region)), count((ssn, dept)), count(DISTINCT (ssn, dept::float8)) FROM people", false},
	{"SELECT region, count(DISTINCT (dept, ssn)) FROM people GROUP BY region", false},
	// random() is computed once per row of the node computing it, and a
	// WITH query once.
	{"WITH r AS (SELECT random() AS x) SELECT (a.x = b.x)::int FROM r a, r b", false},
	{"WITH r AS NOT MATERIALIZED (SELECT random() AS x) SELECT ((SELECT x FROM r) = (SELECT x FROM r))::int", false},
	{"WITH r AS (SELECT id, random() AS x FROM people) SELECT count(*), bool_and(a.x = b.x)::int FROM r a JOIN r b ON a.id = b.id", false},
	{"SELECT (random() >= 0 AND random() < 1)::int", false},
	// TABLESAMPLE of all rows or none.
	{"SELECT count(*) FROM people TABLESAMPLE BERNOULLI (50 * 2)", false},
	{"SELECT id FROM people TABLESAMPLE SYSTEM (0) REPEATABLE (1)", false},
}

// loadRows creates hr.people and hr.dept holding peopleRows and deptRows.
func loadRows(t *testing.T, ctx context.Context, conn *pgx.Conn) {
	t.Helper()
	for _, stmt := range []string{
		"CREATE SCHEMA hr",
		"CREATE TABLE hr.people (id bigint, name text, region text, ssn text, dept integer)",
		"CREATE TABLE hr.dept (dept integer, title text)",
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	for _, r := range peopleRows {
		if _, err := conn.Exec(ctx, "INSERT INTO hr.people VALUES ($1, $2, $3, $4, $5)", r...); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range deptRows {
		if _, err := conn.Exec(ctx, "INSERT INTO hr.dept VALUES ($1, $2)", r...); err != nil {
			t.Fatal(err)
		}
	}
}
