package sql

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TABLESAMPLE answers as PostgreSQL 15 does where its answer is
// determined: 0 and 100 percent, the errors, and the same rows for the
// same REPEATABLE seed.
func TestTableSample(t *testing.T) {
	s := newTestSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (100)", rows: []string{"1000"}, tag: "SELECT 1"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE SYSTEM (100) REPEATABLE (7)", rows: []string{"1000"}, tag: "SELECT 1"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (0)", rows: []string{"0"}, tag: "SELECT 1"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE system (0)", rows: []string{"0"}, tag: "SELECT 1"},
		{sql: "SELECT id FROM acdemo.orders AS o TABLESAMPLE BERNOULLI ('100') WHERE o.id > 1 ORDER BY id", rows: []string{"2", "3"}, tag: "SELECT 2"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (101)", code: "2202H", msg: "sample percentage must be between 0 and 100"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE SYSTEM (-1)", code: "2202H", msg: "sample percentage must be between 0 and 100"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI ('NaN')", code: "2202H", msg: "sample percentage must be between 0 and 100"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (NULL)", code: "2202H", msg: "TABLESAMPLE parameter cannot be null"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (5) REPEATABLE (NULL)", code: "2202G", msg: "TABLESAMPLE REPEATABLE parameter cannot be null"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE foo (10)", code: "42704", msg: "tablesample method foo does not exist"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (10, 20)", code: "2202H", msg: "tablesample method bernoulli requires 1 argument, not 2"},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI ('x')", code: "22P02", msg: `invalid input syntax for type real: "x"`},
		{sql: "SELECT count(*) FROM acdemo.sales TABLESAMPLE BERNOULLI (id)", code: "42703", msg: `column "id" does not exist`},
		{sql: "CREATE VIEW acdemo.v AS SELECT * FROM acdemo.sales", tag: "CREATE VIEW"},
		{sql: "SELECT count(*) FROM acdemo.v TABLESAMPLE BERNOULLI (10)", code: "0A000", msg: "TABLESAMPLE clause can only be applied to tables and materialized views"},
		{sql: "WITH c AS (SELECT * FROM acdemo.sales) SELECT count(*) FROM c TABLESAMPLE BERNOULLI (10)", code: "0A000", msg: "TABLESAMPLE clause can only be applied to tables and materialized views"},
	})
	// The same seed keeps the same rows; a sample is a part of the table
	// near its percentage.
	sampled := func(q string) []string {
		rows, _, err := run(t, s, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return rows
	}
	for _, method := range []string{"BERNOULLI", "SYSTEM"} {
		q := fmt.Sprintf("SELECT id FROM acdemo.sales TABLESAMPLE %s (30) REPEATABLE (42) ORDER BY id", method)
		a, b := sampled(q), sampled(q)
		if !slices.Equal(a, b) {
			t.Errorf("%s: REPEATABLE (42) kept %d then %d rows", method, len(a), len(b))
		}
		if method == "BERNOULLI" && (len(a) < 200 || len(a) > 400) {
			t.Errorf("BERNOULLI (30) of 1000 rows kept %d", len(a))
		}
		other := sampled(fmt.Sprintf("SELECT id FROM acdemo.sales TABLESAMPLE %s (30) REPEATABLE (43) ORDER BY id", method))
		if method == "BERNOULLI" && slices.Equal(a, other) {
			t.Errorf("BERNOULLI: seeds 42 and 43 kept the same rows")
		}
	}
	// A WHERE clause filters the sampled rows: it is not pushed below
	// the sample, so the rows it keeps are a subset of the sample's.
	all := sampled("SELECT id FROM acdemo.sales TABLESAMPLE BERNOULLI (50) REPEATABLE (1) ORDER BY id")
	some := sampled("SELECT id FROM acdemo.sales TABLESAMPLE BERNOULLI (50) REPEATABLE (1) WHERE id % 2 = 0 ORDER BY id")
	var want []string
	for _, id := range all {
		var n int
		fmt.Sscan(id, &n)
		if n%2 == 0 {
			want = append(want, id)
		}
	}
	if !slices.Equal(some, want) {
		t.Errorf("WHERE over the sample kept %d rows, want the %d even ids of the sample", len(some), len(want))
	}
	plan := strings.Join(sampled("EXPLAIN (COSTS OFF) SELECT id FROM acdemo.sales TABLESAMPLE BERNOULLI (10) REPEATABLE (3) WHERE id > 5"), "\n")
	if !strings.Contains(plan, "Sample bernoulli (10::real) REPEATABLE (3::double precision)") {
		t.Errorf("EXPLAIN does not show the sample:\n%s", plan)
	}
}

// TABLESAMPLE draws only from the rows the caller may see: under a row
// filter hiding half the rows, 100 percent is exactly the visible rows, a
// REPEATABLE sample holds only visible ones and is the very sample the
// same seed draws from a table holding just those rows (the hidden rows
// change nothing), and a masked column stays masked.
func TestTableSampleUnderPolicies(t *testing.T) {
	s, cat := newWriteSession(t)
	var all, evens []string
	for i := 1; i <= 400; i++ {
		all = append(all, fmt.Sprintf("(%d, 't%d')", i, i))
		if i%2 == 0 {
			evens = append(evens, fmt.Sprintf("(%d, 't%d')", i, i))
		}
	}
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.items (id, t) VALUES " + strings.Join(all, ", "), tag: "INSERT 0 400"},
		{sql: "CREATE TABLE w.evens (id bigint, t text)", tag: "CREATE TABLE"},
		{sql: "INSERT INTO w.evens (id, t) VALUES " + strings.Join(evens, ", "), tag: "INSERT 0 200"},
	})
	bob := policySession(t, cat, rowPolicy{filter: "id % 2 = 0", masks: map[int]string{2: "upper(t)"}})
	get := func(sess *Session, q string) []string {
		rows, _, err := run(t, sess, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return rows
	}
	full := get(bob, "SELECT id, t FROM w.items TABLESAMPLE BERNOULLI (100) ORDER BY id")
	visible := get(bob, "SELECT id, t FROM w.items ORDER BY id")
	if len(full) != 200 || !slices.Equal(full, visible) {
		t.Fatalf("BERNOULLI (100) under the row filter: %d rows, want the 200 visible ones", len(full))
	}
	for _, method := range []string{"BERNOULLI", "SYSTEM"} {
		q := "SELECT id, t FROM %s TABLESAMPLE " + method + " (50) REPEATABLE (9) ORDER BY id"
		got := get(bob, fmt.Sprintf(q, "w.items"))
		for _, r := range got {
			var id int
			var text string
			fmt.Sscanf(strings.Replace(r, "|", " ", 1), "%d %s", &id, &text)
			if id%2 != 0 || text != strings.ToUpper(text) {
				t.Fatalf("%s: row %q is hidden or unmasked", method, r)
			}
		}
		alone := get(s, fmt.Sprintf(q, "w.evens"))
		for i := range alone {
			alone[i] = strings.ToUpper(alone[i])
		}
		if !slices.Equal(got, alone) {
			t.Errorf("%s: the sample of the visible rows (%d) differs from the same sample of a table of just those rows (%d)", method, len(got), len(alone))
		}
	}
	// Through EXECUTE too.
	runDMLSteps(t, bob, []dmlStep{
		{sql: "PREPARE sampled(real) AS SELECT count(*), count(*) FILTER (WHERE t = upper(t)) FROM w.items TABLESAMPLE BERNOULLI ($1)", tag: "PREPARE"},
		{sql: "EXECUTE sampled(100)", rows: []string{"200|200"}, tag: "SELECT 1"},
		{sql: "EXECUTE sampled(0)", rows: []string{"0|0"}, tag: "SELECT 1"},
	})
}
