package sql

import (
	"fmt"
	"strings"
	"testing"
)

// TestBloomFilterLookups runs point lookups on columns whose values are
// a permutation of the rows (every row group's bounds span nearly the
// whole range, so statistics prune nothing) over two tables of the same
// 20,000 rows in row groups of 2,048: one with bloom filters on every
// column, one without. Each answer must be the same on both and the one
// expected. The planner pushes equalities on text, bigint, integer and
// date columns, which the filters prune; the others are read whole.
func TestBloomFilterLookups(t *testing.T) {
	s, _ := newWriteSession(t)
	cols := []string{"email", "k", "i", "d", "ts", "n"}
	for _, tc := range []struct{ name, with string }{
		{"plain", ""},
		{"bloom", bloomProperties(cols)},
	} {
		if _, _, err := run(t, s, fmt.Sprintf(`CREATE TABLE w.%s (id bigint NOT NULL, email text, k bigint, i integer, d date, ts timestamp, n numeric(12,2))
			WITH ("write.parquet.row-group-limit" = 2048, "write.parquet.bloom-filter-max-bytes" = 4096%s)`, tc.name, tc.with)); err != nil {
			t.Fatal(err)
		}
		if _, _, err := run(t, s, fmt.Sprintf(`INSERT INTO w.%s
			SELECT g, 'u' || (g * 7919 %% 20000) || '@example.org', g * 7919 %% 20000, (g * 7919 %% 20000)::int,
				DATE '2000-01-01' + (g * 7919 %% 20000)::int, TIMESTAMP '2020-01-01' + (g * 7919 %% 20000) * INTERVAL '1 second',
				(g * 7919 %% 20000) / 100.0
			FROM generate_series(1, 20000) g`, tc.name)); err != nil {
			t.Fatal(err)
		}
	}
	// g * 7919 % 20000 is 1234 for g = 15886 and 1235 for g = 13565.
	tests := []struct{ where, want string }{
		{"email = 'u1234@example.org'", "15886"},
		{"email = 'u20001@example.org'", ""},
		{"email IN ('u1234@example.org', 'u0@example.org', 'nobody')", "15886,20000"},
		{"k = 1234", "15886"},
		{"k = 20001", ""},
		{"i = 1234", "15886"},
		{"i = -5", ""},
		{"d = DATE '2003-05-19'", "15886"},
		{"d = DATE '1999-12-31'", ""},
		{"ts = TIMESTAMP '2020-01-01 00:20:34'", "15886"},
		{"ts = TIMESTAMP '2019-01-01'", ""},
		{"n = 12.34", "15886"},
		{"n = 12.345", ""},
		{"email = 'u1234@example.org' AND k = 1234", "15886"},
		{"email = 'u1234@example.org' AND k = 1235", ""},
		{"email = 'u1234@example.org' OR k = 1235", "13565,15886"},
	}
	for _, tc := range tests {
		var answers []string
		for _, tbl := range []string{"plain", "bloom"} {
			q := fmt.Sprintf("SELECT id FROM w.%s WHERE %s ORDER BY id", tbl, tc.where)
			rows, _, err := run(t, s, q)
			if err != nil {
				t.Errorf("%s: %v", q, err)
				continue
			}
			answers = append(answers, strings.Join(rows, ","))
		}
		for i, got := range answers {
			if got != tc.want {
				t.Errorf("WHERE %s on table %d: %q, want %q", tc.where, i, got, tc.want)
			}
		}
	}
}

func bloomProperties(cols []string) string {
	var b strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&b, `, "write.parquet.bloom-filter-enabled.column.%s" = 'true'`, c)
	}
	return b.String()
}
