package sqlwrite_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner"
	sqeexec "github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/planner/sqlwrite"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// testSession answers the session functions the expression tests call
// as SQE's session does: quote_ident, and regtypeout, which prints
// pg_typeof's answer.
type testSession struct{}

func (testSession) User() string                         { return "tester" }
func (testSession) Database() string                     { return "db" }
func (testSession) CurrentSchema(context.Context) string { return "hr" }
func (testSession) Setting(name string) (string, error) {
	return "", fmt.Errorf("no setting %s in the test session", name)
}
func (testSession) Version() string             { return "test" }
func (testSession) TransactionStart() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }
func (testSession) StatementStart() time.Time   { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }
func (testSession) Function(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	text := func(arg types.T, f func(v any) string) (*planner.SessionFunction, bool, error) {
		return &planner.SessionFunction{ArgTypes: []types.T{arg}, Result: types.Text, Leakproof: true, Eval: func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			return f(a[0]), nil
		}}, true, nil
	}
	switch {
	case name == "quote_ident" && len(args) == 1:
		return text(types.Text, func(v any) string { return sqeexec.QuoteIdent(v.(string)) })
	case name == "regtypeout" && len(args) == 1:
		return text(types.Regtype, func(v any) string { return types.T{OID: uint32(v.(int64))}.Name() })
	}
	return nil, false, nil
}

// bindSession binds and optimizes one SELECT against catalog under sec,
// in testSession.
func bindSession(t *testing.T, catalog planner.Catalog, sql string, sec planner.Security) planner.Node {
	t.Helper()
	tree, err := pg_query.Parse(sql)
	if err != nil {
		t.Fatalf("parse %q: %v", sql, err)
	}
	b := planner.NewBinder(context.Background(), catalog, sec, sql)
	b.SetSession(testSession{})
	p, err := b.BindSelect(tree.Stmts[0].Stmt.GetSelectStmt())
	if err != nil {
		t.Fatalf("bind %q: %v", sql, err)
	}
	return planner.Optimize(p, planner.ParallelOptions{}).Root
}

// exprGoldenQueries are the expressions written for PostgreSQL only
// where its functions and operators are SQE's for every input they can
// get, written in both dialects and compared with
// testdata/<dialect>_exprs.sql.
var exprGoldenQueries = []struct{ name, sql string }{
	{"array constants", `SELECT id, '{1,2,NULL}'::int[], '{a,"b c","q\"\\",NULL,""}'::text[], '{}'::int[] FROM people`},
	{"array slices", "SELECT id, (ARRAY[1, 2, 3])[2:], (ARRAY[1, 2, 3])[:dept], (ARRAY[1, 2, 3])[:], (ARRAY[1, 2, 3])[1:2] FROM people"},
	{"array comparisons", "SELECT id, ARRAY[id] = ARRAY[1::bigint], ARRAY[name] < ARRAY['b'] FROM people"},
	{"untyped NULL", "SELECT coalesce(NULL, name) FROM people"},
	{"pg_typeof", "SELECT pg_typeof(id), pg_typeof(name), pg_typeof(1.5), pg_typeof(ARRAY[dept]) FROM people"},
	{"quote_ident", "SELECT quote_ident(name) FROM people"},
	{"AT TIME ZONE a named zone", "SELECT TIMESTAMP '2024-03-10 02:30' AT TIME ZONE 'America/New_York', TIMESTAMPTZ '2024-03-15 10:00+00' AT TIME ZONE 'UTC' FROM people"},
	{"interval scaled", "SELECT INTERVAL '1 mon 1 day' * dept, INTERVAL '3 hours' * 2, 2 * INTERVAL '1 day', INTERVAL '2 mon 3 hours' / 2 FROM people"},
	{"make_interval", "SELECT make_interval(years => 1, days => 3, secs => 1.5) FROM people"},
	{"jsonb minus an index", "SELECT '[1, 2, 3]'::jsonb - dept FROM people"},
	{"to_json", "SELECT to_json(name), to_jsonb(id), to_json(ARRAY[dept]), to_json('x'::text) FROM people"},
	{"json_each columns", `SELECT key, value FROM json_each('{"a": [1, 2], "b": null}')`},
	{"bytea text", "SELECT decode(region, 'escape')::text, ARRAY[decode(name, 'escape')]::text FROM people"},
	{"varchar casts", "SELECT name::varchar(2), id::varchar(1) FROM people"},
}

func TestWriteExprsGolden(t *testing.T) {
	sec := peoplePolicy{mask: ssnMask}
	for _, d := range []sqlwrite.Dialect{sqlwrite.PostgreSQL, sqlwrite.Trino} {
		path := filepath.Join("testdata", strings.ToLower(d.String())+"_exprs.sql")
		var b strings.Builder
		for _, q := range exprGoldenQueries {
			out, err := sqlwrite.Write(bindSession(t, hrCatalog{}, q.sql, sec), d, catalogs)
			if err != nil {
				out = "ERROR: " + err.Error()
			}
			fmt.Fprintf(&b, "-- %s\n-- %s\n%s;\n\n", q.name, q.sql, out)
		}
		checkGolden(t, path, b.String())
	}
}

// TestExprRefusals checks that the expressions PostgreSQL computes
// otherwise than SQE for some input are refused with 0A000 naming them.
func TestExprRefusals(t *testing.T) {
	tests := []struct {
		name    string
		sql     string
		dialect sqlwrite.Dialect
		names   string
	}{
		{"interval times a fraction", "SELECT INTERVAL '1 mon' * 1.5 FROM people", sqlwrite.PostgreSQL, "operator * on interval and double precision"},
		{"interval times a float", "SELECT INTERVAL '1 day' * (id::float8 / 2) FROM people", sqlwrite.PostgreSQL, "operator * on interval"},
		{"interval divided by a column", "SELECT INTERVAL '1 day' / dept FROM people", sqlwrite.PostgreSQL, "operator / on interval"},
		{"interval divided spilling months", "SELECT INTERVAL '1 mon' / 3 FROM people", sqlwrite.PostgreSQL, "operator / on interval"},
		{"interval divided by a fraction", "SELECT INTERVAL '1 day' / 1.5 FROM people", sqlwrite.PostgreSQL, "operator / on interval"},
		{"make_interval of a column", "SELECT make_interval(days => dept) FROM people", sqlwrite.PostgreSQL, "function make_interval"},
		{"make_interval wrapping around", "SELECT make_interval(years => 200000000) FROM people", sqlwrite.PostgreSQL, "function make_interval"},
		{"make_interval of the least integer", "SELECT make_interval(years => -178956970, months => -8) FROM people", sqlwrite.PostgreSQL, "function make_interval"},
		{"make_interval past float8's integers", "SELECT make_interval(hours => 2147483647) FROM people", sqlwrite.PostgreSQL, "function make_interval"},
		{"make_interval of a fraction of a microsecond", "SELECT make_interval(secs => 0.0000001) FROM people", sqlwrite.PostgreSQL, "function make_interval"},
		{"AT TIME ZONE an abbreviation", "SELECT TIMESTAMP '2024-01-01' AT TIME ZONE 'CET' FROM people", sqlwrite.PostgreSQL, "function timezone"},
		{"AT TIME ZONE a POSIX zone", "SELECT TIMESTAMP '2024-01-01' AT TIME ZONE 'UTC+5' FROM people", sqlwrite.PostgreSQL, "function timezone"},
		{"AT TIME ZONE a column", "SELECT TIMESTAMP '2024-01-01' AT TIME ZONE region FROM people", sqlwrite.PostgreSQL, "function timezone"},
		{"interval arrays compared", "SELECT ARRAY[INTERVAL '1 day'] = ARRAY[INTERVAL '24 hours'] FROM people", sqlwrite.PostgreSQL, "operator = on interval[]"},
		{"jsonb arrays compared", `SELECT ARRAY['{}'::jsonb] = ARRAY['[]'::jsonb] FROM people`, sqlwrite.PostgreSQL, "operator = on jsonb[]"},
		{"to_json of an instant", "SELECT to_json(TIMESTAMPTZ '2024-01-01 00:00+00') FROM people", sqlwrite.PostgreSQL, "function to_json reads the time zone"},
		{"json of instants", "SELECT json_build_array(ARRAY[TIMESTAMPTZ '2024-01-01 00:00+00']) FROM people", sqlwrite.PostgreSQL, "function json_build_array reads the time zone"},
		{"quote_ident, Trino", "SELECT quote_ident(name) FROM people", sqlwrite.Trino, "function quote_ident"},
		{"array constant, Trino", "SELECT '{1}'::int[] FROM people", sqlwrite.Trino, "type integer[]"},
		{"json_each, Trino", `SELECT key FROM jsonb_each_text('{"a": 1}')`, sqlwrite.Trino, "ProjectSet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sqlwrite.Write(bindSession(t, hrCatalog{}, tt.sql, peoplePolicy{mask: ssnMask}), tt.dialect, catalogs)
			var pe *pgerror.Error
			if !errors.As(err, &pe) || pe.Code != pgerror.FeatureNotSupported {
				t.Fatalf("got %v, want a 0A000 error", err)
			}
			if !strings.Contains(pe.Message, tt.names) {
				t.Errorf("error %q does not name %q", pe.Message, tt.names)
			}
		})
	}
}

// exprQueries exercise the expressions written for PostgreSQL at their
// edges: NULLs, empty and out-of-range values, escapes, daylight saving
// transitions, infinities and errors.
var exprQueries = []string{
	// Floats' text, as casts, json and array text print it: among them
	// floats at an end of the interval that reads back as them.
	`SELECT x::text, x::float4::varchar(12), to_json(x), to_jsonb(ARRAY[x::float4]), json_build_array(x, x::float4), array_to_string(ARRAY[x, -x], ','), ARRAY[x]::text FROM (VALUES (-3.2577019733917368e+16::float8), (1e23::float8), (3.8893531918179523e18::float8), (1.5::float8), (1e-5::float8), ('NaN'::float8), ('-Infinity'::float8), (0::float8)) v(x)`,
	// Array constants and their text.
	`SELECT '{1,2,NULL}'::int[], '{a,"b c","q\"\\",NULL,"","NULL"}'::text[], '{}'::int[], '{2024-01-02,infinity}'::date[], '{1.5,NaN,-0,1e300}'::float8[]`,
	`SELECT id, '{x,"y,z"}'::varchar[], '{"\\x00ff"}'::bytea[] FROM people`,
	// Slices with either bound or none.
	"SELECT (ARRAY[1, 2, 3])[2:], (ARRAY[1, 2, 3])[:2], (ARRAY[1, 2, 3])[5:], (ARRAY[1, 2, 3])[:0], (ARRAY[1, 2, 3])[-1:], (ARRAY[1, 2, 3])[:], (ARRAY[1, 2, 3])[NULL:], ('{}'::int[])[1:]",
	"SELECT id, (ARRAY[id, id + 1, id + 2])[:dept / 10], (ARRAY[name, region])[dept / 20:] FROM people",
	// Array comparisons.
	"SELECT ARRAY[1, NULL] = ARRAY[1, NULL], ARRAY[1, NULL] < ARRAY[1, 2], ARRAY[1] < ARRAY[1, 0], ARRAY['b'] > ARRAY['B', 'a'], ARRAY['é'] > ARRAY['z'], '{}'::int[] < ARRAY[1], ARRAY['NaN'::float8] > ARRAY['Infinity'::float8], ARRAY['-0'::float8] = ARRAY[0::float8], ARRAY[1, 2] <> ARRAY[1, 2, 3]",
	"SELECT id, ARRAY[name] < ARRAY['b'], ARRAY[name, region] = ARRAY['ann', 'EU'], ARRAY[dept] >= ARRAY[20] FROM people",
	"SELECT ARRAY[DATE '2024-01-02'] < ARRAY['infinity'::date], ARRAY[TIMESTAMP '2024-01-02 03:04'] = ARRAY[TIMESTAMP '2024-01-02 03:04'], ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid] > ARRAY['10eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid], ARRAY['\\x01'::bytea] < ARRAY['\\x0100'::bytea], ARRAY[true] > ARRAY[false, true], ARRAY['b'::varchar] >= ARRAY['B'::varchar], ARRAY[TIME '10:00'] < ARRAY[TIME '09:00'], ARRAY['1'::float4] = ARRAY['1.0000001'::float4], ARRAY[TIMESTAMPTZ '2024-01-01 00:00+02'] < ARRAY[TIMESTAMPTZ '2024-01-01 00:00+01']",
	// An untyped NULL.
	"SELECT id, coalesce(NULL, name), coalesce(NULL, NULL, 'x') FROM people",
	// pg_typeof's names.
	"SELECT pg_typeof(id), pg_typeof(name), pg_typeof(1.5), pg_typeof(dept), pg_typeof(ARRAY[dept]), pg_typeof(NULL::date), pg_typeof(now()) FROM people",
	// quote_ident of keywords, case, quotes and the empty name.
	`SELECT id, quote_ident(name), quote_ident('select'), quote_ident(''), quote_ident('a"b'), quote_ident('Ab'), quote_ident('_x1'), quote_ident('1x'), quote_ident('é'), quote_ident('user'), quote_ident('name') FROM people`,
	// AT TIME ZONE a named zone: a skipped and a repeated wall clock,
	// infinities, a zone's local mean time.
	"SELECT TIMESTAMP '2024-03-10 02:30' AT TIME ZONE 'America/New_York', TIMESTAMP '2024-11-03 01:30' AT TIME ZONE 'America/New_York', 'infinity'::timestamp AT TIME ZONE 'Europe/Paris', TIMESTAMPTZ '2024-03-15 10:00+00' AT TIME ZONE 'Asia/Kolkata', '-infinity'::timestamptz AT TIME ZONE 'UTC', TIMESTAMP '1900-01-01 00:00' AT TIME ZONE 'Europe/Amsterdam', TIMESTAMPTZ '1900-01-01 00:00+00' AT TIME ZONE 'Europe/Amsterdam', TIMESTAMP '2024-06-01 12:00' AT TIME ZONE 'Etc/GMT+5'",
	"SELECT id, (TIMESTAMP '2024-03-31 00:30' + id * INTERVAL '1 hour') AT TIME ZONE 'Europe/London' FROM people",
	// Intervals scaled.
	"SELECT INTERVAL '1 mon 1 day 1 hour' * 3, INTERVAL '1 mon 1 day 1 hour' * -2, INTERVAL '1 mon' * 0, 2 * INTERVAL '1.5 days', INTERVAL '2 mon 3 days 5 hours' / 2, INTERVAL '3 days 1 hour' / 7, INTERVAL '5 days' / -2, INTERVAL '1 mon 1 second' / 1, INTERVAL '1 day' / 3, INTERVAL '2147483647 days' * 1",
	"SELECT id, INTERVAL '1 mon 1 day 00:00:01.5' * dept, id * INTERVAL '-1 day 3 hours' FROM people",
	"SELECT INTERVAL '2147483647 days' * 2",
	"SELECT INTERVAL '178956970 years' * 2",
	// make_interval.
	"SELECT make_interval(years => 1, months => 2, weeks => 3, days => 4, hours => 5, mins => 6, secs => 7.5), make_interval(), make_interval(secs => -1.25), make_interval(hours => 2000000, mins => -3, secs => 59.5), make_interval(years => -178956970, months => -7), make_interval(weeks => 306783378, days => 1)",
	// jsonb minus an index.
	"SELECT '[1, 2, 3]'::jsonb - 1, '[1, 2, 3]'::jsonb - -1, '[1, 2, 3]'::jsonb - 5, '[1, 2, 3]'::jsonb - -5, '[]'::jsonb - 0",
	"SELECT id, '[1, 2, 3]'::jsonb - (dept / 10) FROM people",
	`SELECT '{"a": 1}'::jsonb - 1`,
	"SELECT '1'::jsonb - 0",
	// to_json and to_jsonb.
	`SELECT to_json(E'a"b\\c\n\u0001'::text), to_jsonb(42), to_json(1.50::numeric), to_jsonb(1.50), to_json('NaN'::numeric), to_jsonb('-Infinity'::numeric), to_jsonb(1e-7::numeric)`,
	`SELECT to_json(DATE '2024-01-02'), to_json('0044-03-15 BC'::date), to_json(TIMESTAMP '2024-01-02 03:04:05.5'), to_json('infinity'::timestamp), to_json('-infinity'::date), to_json(TIMESTAMP '0044-03-15 10:00 BC')`,
	`SELECT to_json(ARRAY[1, NULL]), to_jsonb(ARRAY['a', NULL]), to_json(true), to_json('\x01'::bytea), to_json(INTERVAL '1 day 02:00'), to_json('{"a": 1, "a": 2}'::json), to_jsonb('{"a": 1, "a": 2}'::json), to_json(NULL::int), to_json('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid), to_json(TIME '10:00'), to_json('{}'::int[])`,
	"SELECT id, to_json(name), to_jsonb(ARRAY[name, region]), to_json(dept) FROM people",
	// json_each's columns.
	`SELECT key, value FROM json_each('{"a": [1, 2], "b": null, "a": "x", "c": {"d": 1.50}}')`,
	`SELECT key, value FROM jsonb_each('{"a": [1, 2], "b": null, "a": "x", "c": {"d": 1.50}}')`,
	`SELECT key, value FROM json_each_text('{"a": [1, 2], "b": null, "c": "x\"y"}')`,
	`SELECT key, value FROM jsonb_each_text('{"bb": 1, "a": "two", "z": null}')`,
	"SELECT key FROM jsonb_each('{}')",
	"SELECT key FROM jsonb_each('[1]')",
	// Bytea and varchar text.
	"SELECT id, decode(region, 'escape')::text, ARRAY[decode(name, 'escape')]::text, decode(name, 'escape')::varchar(3) FROM people",
	"SELECT id, name::varchar(2), id::varchar(1), (id::numeric / 3)::varchar(4), ARRAY[name]::varchar(3), DATE '2024-01-02'::varchar(4) FROM people",
}

// TestPostgresExpressionsMatchLocal runs exprQueries, written from
// secured plans, on PostgreSQL 15 holding the same rows and compares
// their answers, as text, with the plans run by SQE: the rows as SQE
// prints each value, or the SQLSTATE both fail with.
func TestPostgresExpressionsMatchLocal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL")
	}
	ctx := context.Background()
	conn := startPostgres(t, ctx)
	loadRows(t, ctx, conn)
	// The settings the engine's connection fixes.
	for _, set := range []string{"SET TimeZone = 'UTC'", "SET extra_float_digits = 1", "SET IntervalStyle = postgres", "SET bytea_output = hex", "SET quote_all_identifiers = off"} {
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
	}
	// Floats at an end of the interval that reads back as them, which
	// strconv would print with fewer digits than PostgreSQL's Ryu: SQE
	// prints them as PostgreSQL does, so a float's text is written.
	for _, x := range []float64{-3.2577019733917368e+16, 1e23, 3.8893531918179523e18, math.MaxFloat64} {
		var pgText string
		if err := conn.QueryRow(ctx, "SELECT $1::float8::text", x).Scan(&pgText); err != nil {
			t.Fatal(err)
		}
		if sqeText := string(types.AppendFloat(nil, x, 64)); sqeText != pgText {
			t.Errorf("PostgreSQL prints %s, SQE %s", pgText, sqeText)
		}
	}
	sec := peoplePolicy{mask: ssnMask}
	for _, q := range exprQueries {
		root := bindSession(t, rowsCatalog{}, q, sec)
		sql, err := sqlwrite.Write(root, sqlwrite.PostgreSQL, sqlwrite.Catalogs{"lake": ""})
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		want := runLocalText(ctx, root)
		got := runPostgresText(ctx, conn, sql)
		if !slices.Equal(got, want) {
			t.Errorf("%s:\nPostgreSQL %q\nSQE        %q\n%s", q, got, want, sql)
		}
	}
}

// runLocalText runs root in SQE with each column cast to text (SQE's
// text of each value, as it would send it), sorted, or returns its
// error's SQLSTATE.
func runLocalText(ctx context.Context, root planner.Node) []string {
	cols := root.Columns()
	text := &planner.Project{Input: root}
	for i, c := range cols {
		text.Exprs = append(text.Exprs, &planner.Cast{Arg: &planner.ColRef{ID: c.ID, Name: c.Name, Typ: c.Type}, To: types.Text})
		text.Cols = append(text.Cols, planner.Column{ID: planner.ColumnID(1_000_000 + i), Name: c.Name, Type: types.Text})
	}
	fail := func(err error) []string {
		var pe *pgerror.Error
		if errors.As(err, &pe) {
			return []string{"ERROR " + pe.Code}
		}
		return []string{"ERROR " + err.Error()}
	}
	op, err := sqeexec.Build(ctx, text)
	if err != nil {
		return fail(err)
	}
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(ctx)
		if err != nil {
			return fail(err)
		}
		if b == nil {
			break
		}
		for r := 0; r < int(b.NumRows()); r++ {
			vals := make([]string, b.NumCols())
			for c := range vals {
				vals[c] = "NULL"
				if col := b.Column(c); !col.IsNull(r) {
					vals[c] = col.ValueStr(r)
				}
				if cols[c].Type.OID == types.OIDBool && vals[c] != "NULL" {
					// A boolean is sent as t or f; its cast to text is
					// spelled out.
					vals[c] = vals[c][:1]
				}
			}
			rows = append(rows, strings.Join(vals, "|"))
		}
		b.Release()
	}
	slices.Sort(rows)
	return rows
}

// runPostgresText runs sql and returns its rows as PostgreSQL's text,
// sorted, or its error's SQLSTATE.
func runPostgresText(ctx context.Context, conn *pgx.Conn, sql string) []string {
	rows, err := runPostgres(ctx, conn, sql)
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return []string{"ERROR " + pe.Code}
		}
		return []string{"ERROR " + err.Error()}
	}
	slices.Sort(rows)
	return rows
}
