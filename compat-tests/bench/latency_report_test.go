package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sqe-db/sqe/compat-tests/bicorpus"
)

// latencyFixture is a small suite's statements with fixed timings: one
// of each kind of line the table has.
func latencyFixture() latencyReport {
	sel := oneStep("SELECT 1", "SELECT 1", protoSimple)
	explain := oneStep("superset-5", "EXPLAIN SELECT * FROM orders", protoSimple)
	skipped := oneStep("grafana-7", "SELECT 1", protoSimple)
	skipped.skipSQE = "mismatch: rows | parse_ident"
	cols := sqlalchemyStatements(0)[0]
	insert := oneStep("single-row INSERT", insertStatement, protoPrepared)
	insert.writes = true
	sweep := oneStep("all tables", "SELECT 1", protoSimple)
	sweep.runs = 3
	us := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Microsecond
		}
		return out
	}
	one := []stepRows{{all: 1, user: 1}}
	return latencyReport{
		opts:  latencyOptions{runs: 5, lookupRows: 1_000_000, sweeps: 3},
		stmts: []latencyStatement{sel, explain, skipped, cols, sweep, insert},
		sqe: latencyRun{inserted: 106, distinct: 106, timings: []latencyTiming{
			{runs: us(250, 240, 260, 900, 245), rows: one},
			{runs: us(400, 410, 420, 430, 440), rows: []stepRows{{all: 3, user: 3}}},
			{skipped: true},
			{runs: us(21000, 20000, 22000, 23000, 19000), rows: []stepRows{{all: 20, user: 20}, {}, {}}},
			{runs: us(4_200_000, 4_100_000, 4_300_000), rows: one},
			{runs: us(11000, 12000, 10000, 30000, 11500), rows: []stepRows{{}}},
		}},
		pg: latencyRun{inserted: 106, distinct: 106, timings: []latencyTiming{
			{runs: us(100, 110, 90, 120, 105), rows: one},
			{runs: us(100, 100, 100, 100, 100), rows: one},
			{runs: us(2000, 2100, 1900, 2200, 2050), rows: []stepRows{{all: 4, user: 4}}},
			{runs: us(2000, 2100, 1900, 2200, 2050), rows: []stepRows{{all: 20, user: 20}, {all: 5}, {}}},
			{runs: us(400_000, 410_000, 390_000), rows: one},
			{err: errors.New("ERROR: disk full (SQLSTATE 53100)")},
		}},
		notes: []biNote{
			{id: "metabase-13", reason: "COPY FROM STDIN loads rows: not a query"},
			{id: "grafana-7", reason: "known failure on SQE: mismatch: rows | parse_ident", sqeOnly: true},
		},
	}
}

// TestLatencyReportGolden renders a report from fixed numbers and
// compares it with testdata/latency_report.golden.
func TestLatencyReportGolden(t *testing.T) {
	var b strings.Builder
	if err := latencyFixture().write(&b); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/latency_report.golden")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("report:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestLatencyReportCheck makes sure a run whose servers answer with
// different row counts, or whose INSERTs lost or doubled a row, fails,
// naming the statement.
func TestLatencyReportCheck(t *testing.T) {
	good := func() latencyReport {
		r := latencyFixture()
		r.pg.timings[5] = latencyTiming{runs: r.sqe.timings[5].runs, rows: []stepRows{{}}}
		return r
	}
	tests := []struct {
		name   string
		mutate func(*latencyReport)
		want   string // "" for no error, else part of it
	}{
		{"agreeing servers", func(*latencyReport) {}, ""},
		{"fewer rows on SQE", func(r *latencyReport) { r.sqe.timings[0].rows = []stepRows{{}} },
			"SELECT 1: query 1 of 1 (same row count): SQE returned 0 rows"},
		{"an empty plan", func(r *latencyReport) { r.sqe.timings[1].rows = []stepRows{{}} }, "superset-5: query 1 of 1 (rows on both)"},
		{"a system domain more on PostgreSQL is fine", func(r *latencyReport) { r.pg.timings[3].rows[1].all = 9 }, ""},
		{"a user domain more on PostgreSQL", func(r *latencyReport) { r.pg.timings[3].rows[1].user = 1 },
			"SQLAlchemy get_columns s1.t1 (3 queries): query 2 of 3 (same row count naming no system schema)"},
		{"a query less on SQE", func(r *latencyReport) { r.sqe.timings[3].rows = r.sqe.timings[3].rows[:2] }, "SQE answered 2 queries, PostgreSQL 3, of 3"},
		{"a failed statement", func(r *latencyReport) { r.sqe.timings[0].err = errors.New("boom") }, "SELECT 1 on SQE: boom"},
		{"a lost INSERT", func(r *latencyReport) { r.sqe.inserted, r.sqe.distinct = 105, 105 },
			"single-row INSERT on SQE: latency.inserts holds 105 rows, 105 distinct ids, want 106"},
		{"a doubled INSERT", func(r *latencyReport) { r.pg.inserted = 107 },
			"single-row INSERT on PostgreSQL: latency.inserts holds 107 rows, 106 distinct ids, want 106"},
	}
	for _, tc := range tests {
		rep := good()
		tc.mutate(&rep)
		err := rep.check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

func TestParsePsqlEcho(t *testing.T) {
	out := "********* QUERY **********\nSELECT c.oid\nFROM pg_class c;\n**************************\n\n" +
		"********* QUERY **********\nSELECT a.attname FROM pg_attribute a WHERE a.attrelid = '16394';\n**************************\n\n" +
		"                Table \"s1.t1\"\n Column | Type\n"
	got := parsePsqlEcho(out)
	want := []string{"SELECT c.oid\nFROM pg_class c;", "SELECT a.attname FROM pg_attribute a WHERE a.attrelid = '16394';"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("parsePsqlEcho = %q, want %q", got, want)
	}
	st, err := psqlDescribe(`psql \d s1.t1`, got, "16394")
	if err != nil {
		t.Fatal(err)
	}
	seq := st.seqs[0]
	if !seq.bindOID || !strings.Contains(seq.steps[1].sql, "'"+oidMarker+"'") || st.label != `psql \d s1.t1 (2 queries)` {
		t.Fatalf("psqlDescribe = %+v", st)
	}
	if _, err := psqlDescribe("x", got, "99"); err == nil {
		t.Fatal("psqlDescribe accepted queries that do not name the OID")
	}
}

// TestBIStatements reads the BI tools' query files: every entry is timed
// or noted, Metabase's placeholders are numbered, and an entry listed in
// known_failures.txt is run on PostgreSQL only.
func TestBIStatements(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	stmts, notes, err := biStatements(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(stmts) < 30 {
		t.Fatalf("%d BI statements, want the three tools' queries", len(stmts))
	}
	noted := map[string]bool{}
	for _, n := range notes {
		noted[n.id] = !n.sqeOnly
	}
	for id := range biNotRun {
		if !noted[id] {
			t.Errorf("%s is not noted as not timed", id)
		}
	}
	for _, st := range stmts {
		if noted[st.label] {
			t.Errorf("%s is both timed and noted as not timed", st.label)
		}
		for _, step := range st.steps() {
			if step.proto == protoUnnamed && strings.Contains(step.sql, "(?)") {
				t.Errorf("%s keeps a JDBC placeholder: %s", st.label, step.sql)
			}
		}
	}

	known, err := bicorpus.ReadKnownFailures(filepath.Join(root, "compat-tests", "testdata", "bi", "known_failures.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		if _, listed := known[st.label]; listed != (st.skipSQE != "") {
			t.Errorf("%s: listed in known_failures.txt %v, skipped on SQE %q", st.label, listed, st.skipSQE)
		}
	}
}

// TestCatalogDDL checks the catalog's shape: 200 tables of 20 columns
// over five schemas, s1.t1 among them, every kind of column used.
func TestCatalogDDL(t *testing.T) {
	schemas, tables := catalogDDL()
	if len(schemas) != latencySchemas || len(tables) != latencyTables {
		t.Fatalf("%d schemas and %d tables", len(schemas), len(tables))
	}
	if !strings.HasPrefix(tables[0], "CREATE TABLE s1.t1 (") {
		t.Fatalf("first table: %s", tables[0])
	}
	for _, ddl := range tables {
		if n := strings.Count(ddl, ", ") + 1; n != latencyColumns {
			t.Fatalf("%d columns: %s", n, ddl)
		}
	}
	all := strings.Join(tables, "\n")
	for _, typ := range []string{"bigint", "integer", "text", "numeric(12,2)", "date", "timestamp", "boolean"} {
		if !strings.Contains(all, " "+typ) {
			t.Errorf("no %s column", typ)
		}
	}
}

// TestSQLAlchemyStatements checks the reflection statements: the table
// and schema inlined, the primary key bound to the OID the look-up
// returns, and the sweep over every table only when asked for.
func TestSQLAlchemyStatements(t *testing.T) {
	stmts := sqlalchemyStatements(2)
	if len(stmts) != 3 || len(sqlalchemyStatements(0)) != 2 {
		t.Fatalf("%d statements with sweeps, %d without", len(stmts), len(sqlalchemyStatements(0)))
	}
	cols := stmts[0].steps()[0].sql
	if !strings.Contains(cols, "nspname = 's1'") || !strings.Contains(cols, "relname IN ('t1')") || strings.Contains(cols, "{") {
		t.Fatalf("get_columns query not bound to s1.t1:\n%s", cols)
	}
	pk := stmts[1].seqs[0]
	if !pk.bindOID || strings.Count(pk.steps[1].sql, oidMarker) != 2 {
		t.Fatalf("get_pk_constraint does not send the table's OID back: %+v", pk)
	}
	if sweep := stmts[2]; len(sweep.steps()) != latencyTables*5 || sweep.runs != 2 {
		t.Fatalf("sweep: %d queries, %d runs", len(sweep.steps()), sweep.runs)
	}
}

// TestRandomIDs checks the lookups draw keys in range and the same keys
// for the same run, so both servers are asked the same.
func TestRandomIDs(t *testing.T) {
	draw := randomIDs(10, 1)
	seen := map[int64]bool{}
	for run := -1; run < 100; run++ {
		id := draw(run)[0].(int64)
		if id < 1 || id > 10 || draw(run)[0].(int64) != id {
			t.Fatalf("run %d: id %d", run, id)
		}
		seen[id] = true
	}
	if len(seen) < 5 {
		t.Fatalf("only %d distinct ids in 101 runs", len(seen))
	}
}
