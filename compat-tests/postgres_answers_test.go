package compattests

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// answerCase is a statement over the demo orders (or no table) and what
// PostgreSQL 15.18 answers for the same data: rows in text format, fields
// joined by '|' with NULL as the empty string (psql -A -t), or the
// SQLSTATE of its error. Every expectation was taken from a PostgreSQL
// 15.18 server loaded with the demo orders rows.
type answerCase struct {
	name string
	sql  string
	rows []string
	code string
	// knownDifference explains why SQE answers sqeRows instead of rows
	// today; the test then pins SQE's answer so a change is noticed.
	knownDifference string
	sqeRows         []string
}

var answerCases = []answerCase{
	// Arithmetic, comparisons and three-valued logic.
	{name: "numeric arithmetic keeps the column's scale",
		sql: "SELECT region || '-' || ssn AS k, amount * 2, amount / 3, -amount, amount % 7, amount + 1, amount - 0.005 FROM acdemo.orders ORDER BY 1",
		rows: []string{
			"EU-111-11-1111|241.00|40.1666666666666667|-120.50|1.50|121.50|120.495",
			"EU-333-33-3333|620.50|103.4166666666666667|-310.25|2.25|311.25|310.245",
			"US-222-22-2222|150.00|25.0000000000000000|-75.00|5.00|76.00|74.995",
		}},
	{name: "literals and integer division",
		sql:  "SELECT NULL::text IS NULL, 1 IS NOT NULL, 7 / 2, 7.0 / 2, 1::numeric(5,2), 3000000000, 1.5::float8, true, -7 % 3",
		rows: []string{"t|t|3|3.5000000000000000|1.00|3000000000|1.5|t|-1"}},
	{name: "three-valued logic",
		sql:  "SELECT true AND NULL, false AND NULL, NULL OR true, NOT NULL::boolean, 'x' || NULL, NULL::int + 1",
		rows: []string{"|f|t|||"}},
	{name: "numeric to integer rounds half away from zero",
		sql:  "SELECT 1.5::int, 2.5::int, (-2.5)::int, '42'::int, ' 42 '::int8, 0.1::float8 + 0.2::float8, 1e3, 10::float8 / 4",
		rows: []string{"2|3|-3|42|42|0.30000000000000004|1000|2.5"}},
	{name: "text and numeric comparisons",
		sql:  "SELECT 'a' < 'b', 'B' < 'a', 1 = 1.0, 1.10 = 1.1",
		rows: []string{"t|t|t|t"}},
	{name: "float8 output",
		sql:  "SELECT 3.0::float8, 1.0e15::float8, 1e16::float8, 0.000012::float8, 123456789.123::float8",
		rows: []string{"3|1e+15|1e+16|1.2e-05|123456789.123"}},

	// Grouping, ordering, paging.
	{name: "aggregates per group",
		sql:  "SELECT region, count(*), sum(amount), avg(amount), min(order_date), max(ssn) FROM acdemo.orders GROUP BY region ORDER BY 1",
		rows: []string{"EU|2|430.75|215.3750000000000000|2024-01-15|333-33-3333", "US|1|75.00|75.0000000000000000|2024-02-03|222-22-2222"}},
	{name: "group by alias, order by it descending",
		sql:  "SELECT id % 2 AS odd, count(*) FROM acdemo.orders GROUP BY odd ORDER BY odd DESC",
		rows: []string{"1|2", "0|1"}},
	{name: "having",
		sql:  "SELECT region, sum(amount) AS total FROM acdemo.orders GROUP BY region HAVING sum(amount) > 100 ORDER BY total DESC",
		rows: []string{"EU|430.75"}},
	{name: "aggregates over no rows",
		sql:  "SELECT count(*), count(region), min(id), max(id), avg(id), sum(amount) FROM acdemo.orders WHERE id > 10",
		rows: []string{"0|0||||"}},
	{name: "date range", sql: "SELECT count(*) FROM acdemo.orders WHERE order_date >= '2024-02-01' AND order_date < '2024-03-01'",
		rows: []string{"1"}},
	{name: "order by two keys", sql: "SELECT amount FROM acdemo.orders ORDER BY region DESC, amount",
		rows: []string{"75.00", "120.50", "310.25"}},
	{name: "order by ordinals", sql: "SELECT id, region FROM acdemo.orders ORDER BY 2, 1 DESC",
		rows: []string{"3|EU", "1|EU", "2|US"}},
	{name: "limit 0", sql: "SELECT id FROM acdemo.orders ORDER BY id LIMIT 0", rows: nil},
	{name: "where null", sql: "SELECT count(*) FROM acdemo.orders WHERE NULL", rows: []string{"0"}},

	// Errors.
	{name: "numeric division by zero", sql: "SELECT 5 / 0.0", code: "22012"},
	{name: "modulo by zero", sql: "SELECT 5 % 0", code: "22012"},
	{name: "float division by zero", sql: "SELECT 1::float8 / 0", code: "22012"},
	{name: "float overflow", sql: "SELECT 1e308::float8 * 10", code: "22003"},
	{name: "integer overflow", sql: "SELECT 2147483647 + 1", code: "22003"},
	{name: "bigint overflow", sql: "SELECT 9223372036854775807 + 1", code: "22003"},
	{name: "bigint underflow", sql: "SELECT -9223372036854775808 - 1", code: "22003"},
	{name: "bad integer input", sql: "SELECT 'abc'::int", code: "22P02"},
	{name: "negative limit", sql: "SELECT * FROM acdemo.orders LIMIT -1", code: "2201W"},
	{name: "negative offset", sql: "SELECT 1 OFFSET -1", code: "2201X"},

	// Where SQE and PostgreSQL part today.
	{name: "numeric division scale follows the quotient's weight",
		// PostgreSQL's select_div_scale gives at least 16 significant
		// digits: a quotient below 1 gets more than 16 decimals.
		sql: "SELECT 1.0/3, 2.0/3, 10.0/3, 100000.0/3",
		// Constant quotients are folded at that scale.
		rows: []string{"0.33333333333333333333|0.66666666666666666667|3.3333333333333333|33333.333333333333"}},
	{name: "numeric column divided to below one",
		sql:  "SELECT amount / 1000, id::numeric / 4 FROM acdemo.orders ORDER BY id",
		rows: []string{"0.12050000000000000000|0.25000000000000000000", "0.07500000000000000000|0.50000000000000000000", "0.31025000000000000000|0.75000000000000000000"}},
	{name: "numeric(p,s) column cast to integer",
		sql:  "SELECT amount::int FROM acdemo.orders ORDER BY id",
		rows: []string{"121", "75", "310"}},
	{name: "any type cast to text",
		sql:  "SELECT id::text || 'x', order_date::text, amount::text FROM acdemo.orders ORDER BY id",
		rows: []string{"1x|2024-01-15|120.50", "2x|2024-02-03|75.00", "3x|2024-03-22|310.25"}},
	{name: "|| with a non-text operand",
		sql:  "SELECT 'v' || 1, region || '-' || id FROM acdemo.orders ORDER BY id",
		rows: []string{"v1|EU-1", "v1|US-2", "v1|EU-3"}},
	{name: "explicit cast to varchar(n) truncates",
		sql:  "SELECT 'abc'::varchar(2), region::varchar(1) FROM acdemo.orders ORDER BY id",
		rows: []string{"ab|E", "ab|U", "ab|E"}},
	{name: "impossible date is a field overflow", sql: "SELECT '2024-02-30'::date", code: "22008"},
}

// TestAnswersMatchPostgres compares SQE's text-format answers with
// PostgreSQL's, statement by statement, on one connection.
func TestAnswersMatchPostgres(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 60*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)
	for _, tt := range answerCases {
		t.Run(tt.name, func(t *testing.T) {
			results, err := conn.PgConn().Exec(ctx, tt.sql).ReadAll()
			if tt.code != "" {
				if err == nil {
					t.Fatalf("%s\nPostgreSQL fails with %s; SQE answered %q", tt.sql, tt.code, textRows(results))
				}
				if code := asPgError(t, err).Code; code != tt.code {
					t.Errorf("%s\nPostgreSQL fails with %s; SQE failed with %s: %v", tt.sql, tt.code, code, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s\nPostgreSQL answers %q; SQE failed: %v", tt.sql, tt.rows, err)
			}
			if tt.knownDifference != "" {
				if got := textRows(results); !slices.Equal(got, tt.sqeRows) {
					t.Errorf("%s\nknown difference (%s): SQE's answer changed from %q to %q; update the case",
						tt.sql, tt.knownDifference, tt.sqeRows, got)
				}
				return
			}
			if got := textRows(results); !slices.Equal(got, tt.rows) {
				t.Errorf("%s\nPostgreSQL answers %q\nSQE answered       %q", tt.sql, tt.rows, got)
			}
		})
	}
}

// TestShowServerVersion checks that SHOW server_version answers what the
// server reported at startup, as PostgreSQL does.
func TestShowServerVersion(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)
	reported := conn.PgConn().ParameterStatus("server_version")
	if !strings.HasPrefix(reported, "15.") {
		t.Errorf("ParameterStatus server_version = %q, want a 15.x release", reported)
	}
	var shown string
	if err := conn.QueryRow(ctx, "SHOW server_version").Scan(&shown); err != nil {
		t.Fatalf("SHOW server_version: %v (PostgreSQL answers with the server_version it reported at startup, %q)", err, reported)
	}
	if shown != reported {
		t.Errorf("SHOW server_version = %q, ParameterStatus said %q", shown, reported)
	}
}

// textRows flattens the last result's rows to psql's unaligned form.
func textRows(results []*pgconn.Result) []string {
	if len(results) == 0 {
		return nil
	}
	var out []string
	for _, row := range results[len(results)-1].Rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = string(c)
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return out
}
