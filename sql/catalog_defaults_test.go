package sql

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pg15Default is one line of testdata/column_defaults_pg15.jsonl: a
// column type and DEFAULT as written in CREATE TABLE, and what
// PostgreSQL 15.18 (TimeZone UTC) answered for pg_get_expr(adbin,
// adrelid) and pg_get_expr(adbin, adrelid, true), each default in a
// table of its own; Plain is null when PostgreSQL stored no default.
type pg15Default struct {
	Type    string  `json:"type"`
	Default string  `json:"default"`
	Plain   *string `json:"plain"`
	Pretty  *string `json:"pretty"`
}

func readPG15Defaults(t *testing.T) []pg15Default {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "column_defaults_pg15.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []pg15Default
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var d pg15Default
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// oneColumn runs a query of one column and returns its values.
func oneColumn(t *testing.T, s *Session, query string) []string {
	t.Helper()
	rows, _, err := run(t, s, query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return rows
}

// defaultsOf reads a table's defaults the four ways clients do: psql's
// pg_get_expr(adbin, adrelid, true), pg_get_expr without pretty
// printing, pg_attribute.atthasdef and information_schema.columns.
func defaultsOf(t *testing.T, s *Session, table string) (plain, pretty, hasDef, colDefault []string) {
	t.Helper()
	attrs := "FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum " +
		"WHERE a.attrelid = 'w." + table + "'::regclass AND a.attnum > 0 ORDER BY a.attnum"
	plain = oneColumn(t, s, "SELECT pg_get_expr(d.adbin, d.adrelid) "+attrs)
	pretty = oneColumn(t, s, "SELECT pg_get_expr(d.adbin, d.adrelid, true) "+attrs)
	hasDef = oneColumn(t, s, "SELECT a.atthasdef "+attrs)
	colDefault = oneColumn(t, s, "SELECT column_default FROM information_schema.columns "+
		"WHERE table_schema = 'w' AND table_name = '"+table+"' ORDER BY ordinal_position")
	return plain, pretty, hasDef, colDefault
}

// TestColumnDefaultsMatchPostgres creates one column per default of the
// PostgreSQL 15 answers and checks that every way of reading the
// defaults back gives PostgreSQL's text.
func TestColumnDefaultsMatchPostgres(t *testing.T) {
	s, _ := newWriteSession(t)
	cases := readPG15Defaults(t)
	cols := make([]string, len(cases))
	for i, c := range cases {
		cols[i] = fmt.Sprintf("c%03d %s DEFAULT %s", i, c.Type, c.Default)
	}
	runDMLSteps(t, s, []dmlStep{
		{sql: "SET TimeZone = 'UTC'", tag: "SET"},
		{sql: "CREATE TABLE w.defaults (" + strings.Join(cols, ", ") + ")", tag: "CREATE TABLE"},
	})
	plain, pretty, hasDef, colDefault := defaultsOf(t, s, "defaults")
	if len(plain) != len(cases) || len(pretty) != len(cases) || len(hasDef) != len(cases) || len(colDefault) != len(cases) {
		t.Fatalf("got %d, %d, %d, %d rows for %d columns", len(plain), len(pretty), len(hasDef), len(colDefault), len(cases))
	}
	for i, c := range cases {
		wantPlain, wantPretty, wantHas := "NULL", "NULL", "false"
		if c.Plain != nil {
			wantPlain, wantPretty, wantHas = *c.Plain, *c.Pretty, "true"
		}
		if plain[i] != wantPlain || pretty[i] != wantPretty || hasDef[i] != wantHas || colDefault[i] != wantPlain {
			t.Errorf("%s DEFAULT %s: pg_get_expr %q, pretty %q, atthasdef %s, column_default %q; want %q, %q, %s, %q",
				c.Type, c.Default, plain[i], pretty[i], hasDef[i], colDefault[i], wantPlain, wantPretty, wantHas, wantPlain)
		}
	}
}

// TestColumnDefaultsFollowAlterTable checks that a default follows its
// column through RENAME COLUMN, arrives with ADD COLUMN ... DEFAULT and
// leaves with DROP COLUMN, and that timestamptz constants print in the
// session's TimeZone, as in PostgreSQL 15.
func TestColumnDefaultsFollowAlterTable(t *testing.T) {
	s, _ := newWriteSession(t)
	runDMLSteps(t, s, []dmlStep{
		{sql: "CREATE TABLE w.t (id int, n int DEFAULT 7, s text DEFAULT 'x', ts timestamptz DEFAULT now())", tag: "CREATE TABLE"},
		{sql: "ALTER TABLE w.t RENAME COLUMN n TO m", tag: "ALTER TABLE"},
		{sql: "ALTER TABLE w.t ADD COLUMN v varchar(10) DEFAULT 'new', ADD COLUMN at timestamptz DEFAULT '2020-06-01 12:30:00+02'", tag: "ALTER TABLE"},
		{sql: "ALTER TABLE w.t DROP COLUMN s", tag: "ALTER TABLE"},
		{sql: "SET TimeZone = 'Europe/Paris'", tag: "SET"},
	})
	tests := []struct{ name, plain, pretty, hasDef, colDefault string }{
		{"id", "NULL", "NULL", "false", "NULL"},
		{"m", "7", "7", "true", "7"},
		{"ts", "now()", "now()", "true", "now()"},
		{"v", "'new'::character varying", "'new'::character varying", "true", "'new'::character varying"},
		{"at", "'2020-06-01 12:30:00+02'::timestamp with time zone", "'2020-06-01 12:30:00+02'::timestamp with time zone",
			"true", "'2020-06-01 12:30:00+02'::timestamp with time zone"},
	}
	plain, pretty, hasDef, colDefault := defaultsOf(t, s, "t")
	if len(plain) != len(tests) {
		t.Fatalf("got %d columns, want %d", len(plain), len(tests))
	}
	for i, tt := range tests {
		if plain[i] != tt.plain || pretty[i] != tt.pretty || hasDef[i] != tt.hasDef || colDefault[i] != tt.colDefault {
			t.Errorf("%s: got %q, %q, %s, %q; want %q, %q, %s, %q", tt.name, plain[i], pretty[i], hasDef[i], colDefault[i],
				tt.plain, tt.pretty, tt.hasDef, tt.colDefault)
		}
	}
	runDMLSteps(t, s, []dmlStep{
		{sql: "INSERT INTO w.t (id) VALUES (1)", tag: "INSERT 0 1"},
		{sql: "SELECT id, m, v FROM w.t", rows: []string{"1|7|new"}, tag: "SELECT 1"},
	})
}
