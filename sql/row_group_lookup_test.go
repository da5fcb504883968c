package sql

import (
	"strings"
	"testing"
)

// TestRowGroupPrunedQueries runs queries whose filters prune Parquet row
// groups over a table of 40,000 rows written in one INSERT into a table
// whose write.parquet.row-group-limit is 16,384: t is NULL in the whole
// second group (ids 16,385 to 32,768), f is NaN where id % 1000 = 0, and
// each answer must be PostgreSQL's, NULLs and NaN included.
func TestRowGroupPrunedQueries(t *testing.T) {
	s, _ := newWriteSession(t)
	if _, _, err := run(t, s, `CREATE TABLE w.grouped (id bigint NOT NULL, n numeric(10,2), t text, d date, f float8, k integer)
		WITH ("write.parquet.row-group-limit" = 16384)`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, s, `INSERT INTO w.grouped (id, n, t, d, f, k)
		SELECT g, g % 100, CASE WHEN g BETWEEN 16385 AND 32768 THEN NULL ELSE 'x' || g END,
			DATE '2020-01-01' + (g / 1000)::int,
			CASE WHEN g % 1000 = 0 THEN 'NaN'::float8 ELSE g::float8 END, g % 7
		FROM generate_series(1, 40000) g`); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query string
		want  string
	}{
		{"SELECT id, t, k FROM w.grouped WHERE id = 20000", "20000|NULL|1"},
		{"SELECT id FROM w.grouped WHERE id = 16384", "16384"},
		{"SELECT id FROM w.grouped WHERE id = 16385", "16385"},
		{"SELECT count(*) FROM w.grouped WHERE id = 40001", "0"},
		{"SELECT count(*) FROM w.grouped WHERE id = 0", "0"},
		{"SELECT id FROM w.grouped WHERE id BETWEEN 16384 AND 16385 ORDER BY id", "16384,16385"},
		{"SELECT id FROM w.grouped WHERE id IN (1, 39999, 50000) ORDER BY id", "1,39999"},
		{"SELECT id FROM w.grouped WHERE NOT (id < 39999) ORDER BY id", "39999,40000"},
		{"SELECT id FROM w.grouped WHERE id = 3::int2", "3"},
		{"SELECT id FROM w.grouped WHERE id = 2.5", ""},
		{"SELECT count(*) FROM w.grouped WHERE t IS NULL", "16384"},
		{"SELECT count(*) FROM w.grouped WHERE t = 'x20000'", "0"},
		{"SELECT id FROM w.grouped WHERE t = 'x5'", "5"},
		{"SELECT id FROM w.grouped WHERE t IN ('x16384', 'x32769') ORDER BY id", "16384,32769"},
		{"SELECT count(*) FROM w.grouped WHERE t IS NOT NULL AND id > 16384 AND id <= 32768", "0"},
		{"SELECT count(*) FROM w.grouped WHERE f = 'NaN'::float8", "40"},
		{"SELECT count(*) FROM w.grouped WHERE f > 1e9", "40"},
		{"SELECT id FROM w.grouped WHERE f = 20000 OR f = 39999 ORDER BY id", "39999"},
		{"SELECT count(*) FROM w.grouped WHERE d = DATE '2020-01-21'", "1000"},
		{"SELECT count(*) FROM w.grouped WHERE k = 6 AND id < 20", "2"},
		{"SELECT id FROM w.grouped WHERE id = 17000 OR t IS NULL AND id = 30000 ORDER BY id", "17000,30000"},
	}
	for _, tc := range tests {
		rows, _, err := run(t, s, tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if got := strings.Join(rows, ","); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.query, got, tc.want)
		}
	}
}
