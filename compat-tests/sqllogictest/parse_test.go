package sqllogictest

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSample(t *testing.T) {
	f, err := ParseFile(filepath.Join("testdata", "sample.slt"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line        int
		kind        Kind
		onPostgres  bool
		sql         string
		expectError bool
		types       string
		sort        SortMode
		hasExpected bool
		expected    []string
	}{
		{line: 6, kind: Statement, onPostgres: true, sql: "CREATE TABLE t (a int NOT NULL, b text);"},
		{line: 10, kind: Statement, onPostgres: false, sql: "CREATE EXTERNAL TABLE t STORED AS CSV LOCATION 'x';"},
		{line: 13, kind: Statement, onPostgres: true, sql: "SELECT x FROM nowhere", expectError: true},
		{line: 16, kind: Query, onPostgres: true, sql: "SELECT a, b\nFROM t", types: "IT", sort: RowSort,
			hasExpected: true, expected: []string{"1 one", "2 (empty)"}},
		{line: 23, kind: Query, onPostgres: true, sql: "SELECT 1/0", expectError: true},
		{line: 26, kind: Query, onPostgres: true, sql: "SELECT 1;"},
		{line: 29, kind: Query, onPostgres: true, sql: "SELECT a FROM t", types: "I", sort: ValueSort,
			hasExpected: true, expected: []string{"1", "2"}},
	}
	if len(f.Records) != len(tests) {
		t.Fatalf("got %d records, want %d", len(f.Records), len(tests))
	}
	for i, tt := range tests {
		r := f.Records[i]
		if r.Line != tt.line || r.Kind != tt.kind || r.RunsOn("postgres") != tt.onPostgres || r.SQL != tt.sql ||
			r.ExpectError != tt.expectError || r.Types != tt.types || r.Sort != tt.sort ||
			r.HasExpected != tt.hasExpected || strings.Join(r.Expected, "|") != strings.Join(tt.expected, "|") {
			t.Errorf("record %d = %+v, want %+v", i, r, tt)
		}
		if r.HashThreshold != 8 {
			t.Errorf("record %d hash threshold = %d, want 8", i, r.HashThreshold)
		}
	}
	if got := f.Records[3].ID(); got != "sample.slt:16" {
		t.Errorf("ID = %q, want sample.slt:16", got)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"unknown directive", "frobnicate\nSELECT 1\n", "unknown directive"},
		{"statement mode", "statement maybe\nSELECT 1\n", "unknown statement mode"},
		{"sort mode", "query I sideways\nSELECT 1\n", "unknown sort mode"},
		{"dangling condition", "onlyif postgres\n", "end of the file"},
		{"no sql", "statement ok\n\n", "without SQL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.slt", strings.NewReader(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// The DataFusion suite has 171 records for the Postgres variant, as its
// SOURCE.md counts.
func TestParseDataFusionSuite(t *testing.T) {
	s, err := LoadSuite(filepath.Join("..", "testdata", "sqllogictest", "datafusion_pg_compat"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range s.Files {
		for _, r := range f.Records {
			if r.RunsOn("postgres") {
				total++
			}
		}
	}
	if len(s.Files) != 9 || total != 171 {
		t.Errorf("%d files, %d postgres records; want 9 and 171", len(s.Files), total)
	}
}

func TestRunsOn(t *testing.T) {
	tests := []struct {
		conds []Condition
		want  bool
	}{
		{nil, true},
		{[]Condition{{Only: true, Engine: "postgres"}}, true},
		{[]Condition{{Only: true, Engine: "DataFusion"}}, false},
		{[]Condition{{Engine: "postgres"}}, false},
		{[]Condition{{Engine: "mysql"}}, true},
	}
	for _, tt := range tests {
		if got := (Record{Conditions: tt.conds}).RunsOn("postgres"); got != tt.want {
			t.Errorf("RunsOn(%+v) = %v, want %v", tt.conds, got, tt.want)
		}
	}
}
