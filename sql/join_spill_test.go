package sql

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The two sides of the spilling joins: a from 1 to 200,000 and b from 1
// to 120,000 (cross joins of short series, which stream), each key of l.k
// four times, of r.k twice, some of r.n NULL.
const (
	joinLeft = "(SELECT a, a % 50000 AS k, (a % 7)::text AS t FROM " +
		"(SELECT x * 500 + y AS a FROM generate_series(0, 399) AS x, generate_series(1, 500) AS y) AS s) AS l"
	joinRight = "(SELECT b, b % 60000 AS k, NULLIF(b % 11, 0) * b AS n FROM " +
		"(SELECT x * 400 + y AS b FROM generate_series(0, 299) AS x, generate_series(1, 400) AS y) AS s) AS r"
)

// TestSpilledJoinsReturnTheUnlimitedRows: a hash join whose build side
// passes the budget partitions both sides to disk and joins them pair by
// pair, with the rows (as a set) of the join in memory, for every kind of
// join, NULL keys and conditions beside the keys; a partition that still
// does not fit is partitioned again.
func TestSpilledJoinsReturnTheUnlimitedRows(t *testing.T) {
	tests := []struct {
		name  string
		sql   string
		limit int64 // 2 MiB when 0
	}{
		{"inner", "SELECT l.a, r.b FROM " + joinLeft + " JOIN " + joinRight + " ON l.k = r.k", 0},
		{"left with unmatched rows", "SELECT l.a, r.b FROM " + joinLeft + " LEFT JOIN " + joinRight + " ON l.a = r.b * 2", 0},
		{"right with unmatched rows", "SELECT l.a, r.b FROM " + joinLeft + " RIGHT JOIN " + joinRight + " ON l.a = r.b + 150000", 0},
		{"full", "SELECT l.a, r.b FROM " + joinLeft + " FULL JOIN " + joinRight + " ON l.a * 3 = r.b", 0},
		{"full on a key with NULLs", "SELECT l.a, r.b, r.n FROM " + joinLeft + " FULL JOIN " + joinRight + " ON l.a = r.n", 0},
		{"semi", "SELECT l.a FROM " + joinLeft + " WHERE EXISTS (SELECT 1 FROM " + joinRight + " WHERE r.b * 3 = l.a)", 0},
		{"anti", "SELECT l.a FROM " + joinLeft + " WHERE NOT EXISTS (SELECT 1 FROM " + joinRight + " WHERE r.b = l.a + 100000)", 0},
		{"text key", "SELECT l.a, r.b FROM " + joinLeft + " JOIN " + joinRight + " ON l.a::text = (r.b * 2)::text", 0},
		{"composite key and a residual condition", "SELECT l.a, r.b FROM " + joinLeft + " JOIN " + joinRight + " ON l.k = r.k AND l.a % 3 = r.b % 3 AND l.a < r.b", 0},
		{"partitions partitioned again", "SELECT l.a, r.b FROM " + joinLeft + " JOIN " + joinRight + " ON l.k = r.k", 512 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkSpilledAsUnlimited(t, tt.sql, tt.limit, false) })
	}
}

// TestSpilledJoinShowsInExplainAnalyze: the join that spilled says how
// much, and a failure while its partitions are joined leaves no file.
func TestSpilledJoinShowsInExplainAnalyze(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "spill")
	s := newSpillingSession(t, 2<<20, dir)
	rows, _, err := run(t, s, "EXPLAIN ANALYZE SELECT l.a, r.b FROM "+joinLeft+" JOIN "+joinRight+" ON l.k = r.k")
	if err != nil {
		t.Fatal(err)
	}
	var joinLine string
	for _, l := range rows {
		if strings.Contains(l, "InnerJoin on (k") {
			joinLine = l
		}
	}
	if !strings.Contains(joinLine, "Disk: ") {
		t.Errorf("join line %q shows no spill:\n%s", joinLine, strings.Join(rows, "\n"))
	}
	_, _, err = run(t, s, "SELECT l.a / (r.b - 100000) FROM "+joinLeft+" JOIN "+joinRight+" ON l.k = r.k")
	if pgerror.Code(err) != pgerror.DivisionByZero {
		t.Fatalf("err = %v, want 22012", err)
	}
	if left := spillAreas(t, dir); len(left) != 0 {
		t.Errorf("spill areas left: %v", left)
	}
}
