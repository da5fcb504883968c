package nodetree

import (
	"testing"
	"time"

	"github.com/sqe-db/sqe/sql/types"
)

// TestDefaultText analyses defaults without a session (so without typing
// of functions outside the registry) and prints them as PostgreSQL 15.18
// did for the same column definitions. The session's zone decides how a
// timestamptz constant prints. The analysis of every kind of default SQE
// accepts is checked against PostgreSQL through a session in package sql
// (TestColumnDefaultsMatchPostgres).
func TestDefaultText(t *testing.T) {
	paris, err := types.LoadZone("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sql          string
		col          types.T
		zone         *time.Location
		plain        string
		pretty       string
		wantVerbatim bool
	}{
		{sql: "7", col: types.Int4, plain: "7", pretty: "7"},
		{sql: "-7", col: types.Int8, plain: "'-7'::integer", pretty: "'-7'::integer"},
		{sql: "1 + 2", col: types.Int8, plain: "(1 + 2)", pretty: "(1 + 2)"},
		{sql: "(1 + 2) * 3", col: types.Int4, plain: "((1 + 2) * 3)", pretty: "(1 + 2) * 3"},
		{sql: "10 - (3 - 2)", col: types.Int4, plain: "(10 - (3 - 2))", pretty: "10 - (3 - 2)"},
		{sql: "1 + 2.5", col: types.Numeric(12, 2), plain: "((1)::numeric + 2.5)", pretty: "(1::numeric + 2.5)"},
		{sql: "'a' || 'b'", col: types.VarcharN(10), plain: "('a'::text || 'b'::text)", pretty: "(('a'::text || 'b'::text))"},
		{sql: "'x'", col: types.BpcharN(3), plain: "'x'::bpchar", pretty: "'x'::bpchar"},
		{sql: "'abc'::varchar(5)", col: types.VarcharN(10), plain: "'abc'::character varying(5)", pretty: "'abc'::character varying(5)"},
		{sql: "'1e300'", col: types.Float8, plain: "'1e+300'::double precision", pretty: "'1e+300'::double precision"},
		{sql: `'{"b":1,  "a": [1,2]}'`, col: types.JSONB, plain: `'{"a": [1, 2], "b": 1}'::jsonb`, pretty: `'{"a": [1, 2], "b": 1}'::jsonb`},
		{sql: `'{a,"b c"}'`, col: types.TextArray, plain: `'{a,"b c"}'::text[]`, pretty: `'{a,"b c"}'::text[]`},
		{sql: "(true OR false AND true)", col: types.Bool, plain: "(true OR (false AND true))", pretty: "true OR false AND true"},
		{sql: "(NOT (1 = 1))", col: types.Bool, plain: "(NOT (1 = 1))", pretty: "NOT 1 = 1"},
		{sql: "CASE WHEN true THEN CASE WHEN false THEN 'x' ELSE 'y' END ELSE 'z' END", col: types.Text,
			plain:  "\nCASE\n    WHEN true THEN\n    CASE\n        WHEN false THEN 'x'::text\n        ELSE 'y'::text\n    END\n    ELSE 'z'::text\nEND",
			pretty: "\nCASE\n    WHEN true THEN\n    CASE\n        WHEN false THEN 'x'::text\n        ELSE 'y'::text\n    END\n    ELSE 'z'::text\nEND"},
		{sql: "coalesce(CASE WHEN true THEN 1 END, 2) + 1", col: types.Int4,
			plain:  "(COALESCE(\nCASE\n    WHEN true THEN 1\n    ELSE NULL::integer\nEND, 2) + 1)",
			pretty: "COALESCE(\nCASE\n    WHEN true THEN 1\n    ELSE NULL::integer\nEND, 2) + 1"},
		{sql: "trim(both 'x' from 'xax' || 'b')", col: types.Text,
			plain: "TRIM(BOTH 'x'::text FROM ('xax'::text || 'b'::text))", pretty: "TRIM(BOTH 'x'::text FROM 'xax'::text || 'b'::text)"},
		{sql: "NULL", col: types.VarcharN(10), plain: "NULL::character varying", pretty: "NULL::character varying"},
		{sql: "'2020-06-01 12:30:00+02'", col: types.TimestampTZ, zone: time.UTC,
			plain: "'2020-06-01 10:30:00+00'::timestamp with time zone", pretty: "'2020-06-01 10:30:00+00'::timestamp with time zone"},
		{sql: "'2020-06-01 12:30:00+02'", col: types.TimestampTZ, zone: paris,
			plain: "'2020-06-01 12:30:00+02'::timestamp with time zone", pretty: "'2020-06-01 12:30:00+02'::timestamp with time zone"},
		// Outside the analysis (or needing a session to type now()): kept
		// as written.
		{sql: "'a' LIKE 'b'", col: types.Bool, plain: "'a' LIKE 'b'", pretty: "'a' LIKE 'b'", wantVerbatim: true},
		{sql: "now() + interval '1 day'", col: types.TimestampTZ, plain: "now() + interval '1 day'", pretty: "now() + interval '1 day'", wantVerbatim: true},
	}
	for _, tt := range tests {
		zone := tt.zone
		if zone == nil {
			zone = time.UTC
		}
		n := Default(tt.sql, tt.col, Env{Zone: zone})
		if n == nil {
			t.Errorf("%s: no default", tt.sql)
			continue
		}
		if got := n.Kind == Verbatim; got != tt.wantVerbatim {
			t.Errorf("%s: verbatim %v, want %v", tt.sql, got, tt.wantVerbatim)
		}
		if got := Text(n, false); got != tt.plain {
			t.Errorf("%s: %q, want %q", tt.sql, got, tt.plain)
		}
		if got := Text(n, true); got != tt.pretty {
			t.Errorf("%s pretty: %q, want %q", tt.sql, got, tt.pretty)
		}
		back, err := Decode(n.Encode())
		if err != nil {
			t.Errorf("%s: decode: %v", tt.sql, err)
		} else if got := Text(back, true); got != tt.pretty {
			t.Errorf("%s decoded: %q, want %q", tt.sql, got, tt.pretty)
		}
	}
}

// TestDefaultNull checks that a NULL of the column's own type is no
// default at all, as PostgreSQL does not store one.
func TestDefaultNull(t *testing.T) {
	for _, tt := range []struct {
		sql string
		col types.T
	}{
		{"NULL", types.Int4},
		{"NULL::text", types.Text},
		{"NULL::integer", types.Int4},
		{"NULL", types.Varchar},
	} {
		if n := Default(tt.sql, tt.col, Env{Zone: time.UTC}); n != nil {
			t.Errorf("%s for %s: got %s, want no default", tt.sql, tt.col.Name(), Text(n, false))
		}
	}
}

// TestDecodeRejectsMalformedTrees checks that a tree the printer could
// not print is refused when read.
func TestDecodeRejectsMalformedTrees(t *testing.T) {
	for _, s := range []string{
		``,
		`7`,
		`{"kind":"Nope","type":{"OID":23}}`,
		`{"kind":"OpExpr","name":"+","type":{"OID":23}}`,
		`{"kind":"CastFunc","type":{"OID":20}}`,
		`{"kind":"FuncExpr","name":"f","args":[null]}`,
		`{"kind":"CaseExpr","args":[{"kind":"Const","type":{"OID":16},"value":"t"}]}`,
		`{"kind":"FuncExpr","name":"position","sql_syntax":true,"args":[{"kind":"Const","type":{"OID":25},"value":"a"}]}`,
		`{"kind":"BoolExpr","name":"NOT","args":[{"kind":"Const","type":{"OID":16},"value":"t"},{"kind":"Const","type":{"OID":16},"value":"f"}]}`,
	} {
		if _, err := Decode(s); err == nil {
			t.Errorf("Decode(%q) succeeded", s)
		}
	}
}
