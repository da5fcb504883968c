package compattests

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"
)

// execMode is one way pgx v5 runs a query. All but the simple protocol use
// the extended protocol: they differ in whether statements are prepared
// under a name and cached, and in whether pgx describes a statement before
// binding it.
type execMode struct {
	name string
	mode pgx.QueryExecMode
}

// execModes is every QueryExecMode pgx offers.
var execModes = []execMode{
	{"cache statement", pgx.QueryExecModeCacheStatement},
	{"cache describe", pgx.QueryExecModeCacheDescribe},
	{"describe exec", pgx.QueryExecModeDescribeExec},
	{"exec", pgx.QueryExecModeExec},
	{"simple protocol", pgx.QueryExecModeSimpleProtocol},
}

// forEachMode runs f as a parallel subtest per exec mode.
func forEachMode(t *testing.T, f func(t *testing.T, m execMode)) {
	t.Helper()
	for _, m := range execModes {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			f(t, m)
		})
	}
}

// modeConfig is alice's pgx configuration for the shared server in mode m.
func modeConfig(t *testing.T, m execMode) *pgx.ConnConfig {
	t.Helper()
	cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	cfg.DefaultQueryExecMode = m.mode
	return cfg
}

// connectMode opens a connection to the shared server in mode m.
func connectMode(t *testing.T, ctx context.Context, m execMode) *pgx.Conn {
	t.Helper()
	return connectConfig(t, ctx, modeConfig(t, m))
}

// resultFormat is the format pgx asks for a result column of type oid in
// mode m. Only the modes that describe a statement first know the column
// types in time to ask for binary, and then only for types whose codec
// prefers it (text stays text); the exec mode asks for text and the
// simple protocol has no choice.
func resultFormat(conn *pgx.Conn, m execMode, oid uint32) int16 {
	switch m.mode {
	case pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeDescribeExec:
		return conn.TypeMap().FormatCodeForOID(oid)
	}
	return pgtype.TextFormatCode
}

// Notes on server bugs found by these tests, added to the failure they
// cause so the reader knows where to look.
const (
	// dateInputNote: pgx in the exec and simple protocol modes, and lib/pq
	// always, send a time.Time as text in timestamptz format. PostgreSQL's
	// date input accepts that ('2024-02-01 00:00:00Z'::date is
	// 2024-02-01); SQE answers 22P02.
	dateInputNote = "SQE bug: date input must accept timestamp text such as '2024-02-01 00:00:00Z' " +
		"(PostgreSQL ignores the time part); pgx (exec and simple protocol modes) and lib/pq send time.Time that way"
	// numericCastNote: an unconstrained ::numeric cast must keep the
	// value's scale. SQE casts to scale 0 (120.50::numeric is 121) and
	// loses the decimal point of text ('120.50'::numeric is 12050).
	numericCastNote = "SQE bug: ::numeric without precision must keep the scale " +
		"(PostgreSQL: 120.50::numeric = 120.50, '120.50'::numeric = 120.50; SQE gives 121 and 12050)"
	// textCastNote: PostgreSQL casts text to every type through its input
	// function; SQE refuses a non-constant text::int8 with 42846.
	textCastNote = "SQE bug: text::int8 of a non-constant (a parameter or column) must be an I/O cast " +
		"that fails with 22P02 on bad input; SQE refuses the cast with 42846 at Parse"
)

// noteOf formats a known-bug note for a failure message.
func noteOf(note string) string {
	if note == "" {
		return ""
	}
	return "\n(" + note + ")"
}

// mustNumeric parses a decimal literal into a pgtype.Numeric.
func mustNumeric(t *testing.T, s string) pgtype.Numeric {
	t.Helper()
	var n pgtype.Numeric
	if err := n.Scan(s); err != nil {
		t.Fatalf("numeric %q: %v", s, err)
	}
	return n
}

func TestPgxModesDemoQueriesWithParameters(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sql  string
		args func(t *testing.T) []any
		want []int64
		// note is added to a failure: what is known about it.
		note string
	}{
		{"int64 equality", "SELECT id FROM acdemo.orders WHERE id = $1",
			func(*testing.T) []any { return []any{int64(2)} }, []int64{2}, ""},
		{"string equality", "SELECT id FROM acdemo.orders WHERE region = $1 ORDER BY id",
			func(*testing.T) []any { return []any{"EU"} }, []int64{1, 3}, ""},
		{"numeric comparison", "SELECT id FROM acdemo.orders WHERE amount > $1 ORDER BY id",
			func(t *testing.T) []any { return []any{mustNumeric(t, "100.00")} }, []int64{1, 3}, ""},
		{"numeric equality", "SELECT id FROM acdemo.orders WHERE amount = $1",
			func(t *testing.T) []any { return []any{mustNumeric(t, "310.25")} }, []int64{3}, ""},
		{"date from time.Time", "SELECT id FROM acdemo.orders WHERE order_date >= $1 ORDER BY id DESC",
			func(*testing.T) []any { return []any{date(2024, 2, 1)} }, []int64{3, 2}, dateInputNote},
		{"date equality", "SELECT id FROM acdemo.orders WHERE order_date = $1",
			func(*testing.T) []any { return []any{date(2024, 1, 15)} }, []int64{1}, dateInputNote},
		{"several parameters", "SELECT id FROM acdemo.orders WHERE region = $1 AND amount < $2 AND order_date BETWEEN $3 AND $4 ORDER BY id",
			func(t *testing.T) []any {
				return []any{"EU", mustNumeric(t, "1000"), date(2024, 1, 1), date(2024, 12, 31)}
			}, []int64{1, 3}, dateInputNote},
		{"parameter used twice", "SELECT id FROM acdemo.orders WHERE id = $1 OR id = $1 + 1 ORDER BY id",
			func(*testing.T) []any { return []any{int64(2)} }, []int64{2, 3}, ""},
		{"IN list of parameters", "SELECT id FROM acdemo.orders WHERE region IN ($1, $2) ORDER BY id",
			func(*testing.T) []any { return []any{"US", "APAC"} }, []int64{2}, ""},
		{"LIKE pattern", "SELECT id FROM acdemo.orders WHERE ssn LIKE $1 ORDER BY id",
			func(*testing.T) []any { return []any{"3%"} }, []int64{3}, ""},
		{"no match", "SELECT id FROM acdemo.orders WHERE region = $1",
			func(*testing.T) []any { return []any{"nowhere"} }, nil, ""},
		{"big table", "SELECT id FROM acdemo.sales WHERE id > $1 AND id <= $2 ORDER BY id",
			func(*testing.T) []any { return []any{int64(999_997), int64(2_000_000)} }, []int64{999_998, 999_999, 1_000_000}, ""},
	}
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rows, err := conn.Query(ctx, tt.sql, tt.args(t)...)
				if err != nil {
					t.Fatalf("%s: %v%s", tt.sql, err, noteOf(tt.note))
				}
				got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				if err != nil {
					t.Fatalf("%s: %v%s", tt.sql, err, noteOf(tt.note))
				}
				if !slices.Equal(got, tt.want) {
					t.Errorf("%s = %v, want %v", tt.sql, got, tt.want)
				}
			})
		}

		// A whole row decoded into Go values through parameters of every
		// demo column type.
		var o order
		err := conn.QueryRow(ctx,
			"SELECT id, region, ssn, amount, order_date FROM acdemo.orders WHERE id = $1 AND region = $2 AND amount = $3 AND order_date = $4",
			int64(1), "EU", mustNumeric(t, "120.5"), date(2024, 1, 15)).Scan(&o.ID, &o.Region, &o.SSN, &o.Amount, &o.Date)
		if err != nil {
			t.Fatalf("order 1 by all its columns: %v%s", err, noteOf(dateInputNote))
		}
		want := order{1, "EU", "111-11-1111", numeric(12050, -2), date(2024, 1, 15)}
		if o.ID != want.ID || o.Region != want.Region || o.SSN != want.SSN || !sameNumeric(o.Amount, want.Amount) || !o.Date.Equal(want.Date) {
			t.Errorf("order 1 = %+v, want %+v", o, want)
		}
	})
}

// roundTrip is one value sent as a parameter and read back as the result.
type roundTrip struct {
	name string
	cast string // the SQL type the parameter is cast to
	oid  uint32 // the result column's type OID
	arg  any
	// note is added to a failure: what is known about it.
	note string
	// dest returns a pointer to scan into and a check of what was
	// scanned.
	dest func() (any, func() error)
}

// scanTo builds a dest that scans into a T and compares it with want.
func scanTo[T comparable](want T) func() (any, func() error) {
	return func() (any, func() error) {
		var got T
		return &got, func() error {
			if got != want {
				return fmt.Errorf("got %v, want %v", got, want)
			}
			return nil
		}
	}
}

// scanTime compares a scanned time.Time with want as an instant.
func scanTime(want time.Time) func() (any, func() error) {
	return func() (any, func() error) {
		var got time.Time
		return &got, func() error {
			if !got.Equal(want) {
				return fmt.Errorf("got %s, want %s", got, want)
			}
			return nil
		}
	}
}

// scanNumeric compares a scanned numeric with want by value.
func scanNumeric(want pgtype.Numeric) func() (any, func() error) {
	return func() (any, func() error) {
		var got pgtype.Numeric
		return &got, func() error {
			if !sameNumeric(got, want) {
				return fmt.Errorf("got %s, want %s", numericString(got), numericString(want))
			}
			return nil
		}
	}
}

func numericString(n pgtype.Numeric) string {
	v, err := n.Value()
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return fmt.Sprint(v)
}

// roundTrips covers every type SQE encodes in binary, with values at the
// edges of their ranges.
func roundTrips() []roundTrip {
	bigNum := pgtype.Numeric{Int: new(big.Int).Mul(big.NewInt(1234567890123456789), big.NewInt(1_000_000_000)), Exp: -6, Valid: true}
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	uuid := [16]byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}
	return []roundTrip{
		{"bool true", "bool", pgtype.BoolOID, true, "", scanTo(true)},
		{"bool false", "bool", pgtype.BoolOID, false, "", scanTo(false)},
		{"int2", "int2", pgtype.Int2OID, int16(-32767), "", scanTo(int16(-32767))},
		{"int4", "int4", pgtype.Int4OID, int32(math.MaxInt32), "", scanTo(int32(math.MaxInt32))},
		{"int4 negative", "int4", pgtype.Int4OID, int32(-7), "", scanTo(int32(-7))},
		{"int8", "int8", pgtype.Int8OID, int64(math.MaxInt64), "", scanTo(int64(math.MaxInt64))},
		// MinInt64+1: in the simple protocol pgx writes the literal
		// -9223372036854775808::int8, which PostgreSQL itself rejects (the
		// cast binds before the minus).
		{"int8 negative", "int8", pgtype.Int8OID, int64(math.MinInt64 + 1), "", scanTo(int64(math.MinInt64 + 1))},
		{"float4", "float4", pgtype.Float4OID, float32(1.5), "", scanTo(float32(1.5))},
		{"float8", "float8", pgtype.Float8OID, math.Pi, "", scanTo(math.Pi)},
		{"float8 tiny", "float8", pgtype.Float8OID, 1.2e-300, "", scanTo(1.2e-300)},
		{"numeric", "numeric", pgtype.NumericOID, numeric(12050, -2), numericCastNote, scanNumeric(numeric(12050, -2))},
		{"numeric big", "numeric", pgtype.NumericOID, bigNum, numericCastNote, scanNumeric(bigNum)},
		{"numeric negative fraction", "numeric", pgtype.NumericOID, numeric(-5, -3), numericCastNote, scanNumeric(numeric(-5, -3))},
		{"numeric zero", "numeric", pgtype.NumericOID, numeric(0, 0), numericCastNote, scanNumeric(numeric(0, 0))},
		// With a precision the cast keeps the scale, so these isolate the
		// parameter and result encodings from the cast bug above.
		{"numeric(12,2)", "numeric(12,2)", pgtype.NumericOID, numeric(12050, -2), "", scanNumeric(numeric(12050, -2))},
		{"numeric(30,6) big", "numeric(30,6)", pgtype.NumericOID, bigNum, "", scanNumeric(bigNum)},
		{"numeric(10,3) negative fraction", "numeric(10,3)", pgtype.NumericOID, numeric(-5, -3), "", scanNumeric(numeric(-5, -3))},
		{"text", "text", pgtype.TextOID, "héllo, 'wörld' \"q\" \t ✓", "", scanTo("héllo, 'wörld' \"q\" \t ✓")},
		{"text empty", "text", pgtype.TextOID, "", "", scanTo("")},
		{"varchar", "varchar", pgtype.VarcharOID, "abc", "", scanTo("abc")},
		{"date", "date", pgtype.DateOID, date(2024, 2, 29), dateInputNote, scanTime(date(2024, 2, 29))},
		{"date before 2000", "date", pgtype.DateOID, date(1969, 7, 20), dateInputNote, scanTime(date(1969, 7, 20))},
		{"timestamp", "timestamp", pgtype.TimestampOID, ts, "", scanTime(ts)},
		{"timestamptz", "timestamptz", pgtype.TimestamptzOID, ts, "", scanTime(ts)},
		{"uuid", "uuid", pgtype.UUIDOID, pgtype.UUID{Bytes: uuid, Valid: true}, "", scanTo(uuid)},
		{"bytea", "bytea", pgtype.ByteaOID, []byte{0, 1, '\\', 0xff}, "", scanBytes([]byte{0, 1, '\\', 0xff})},
		{"bytea empty", "bytea", pgtype.ByteaOID, []byte{}, "", scanBytes([]byte{})},
		// json keeps its text; jsonb comes back normalised.
		{"json", "json", pgtype.JSONOID, `{"b":1,  "a":[1,2]}`, "", scanTo(`{"b":1,  "a":[1,2]}`)},
		{"jsonb", "jsonb", pgtype.JSONBOID, `{"b":1,  "a":[1,2], "b":3}`, "", scanTo(`{"a": [1, 2], "b": 3}`)},
		{"time", "time", pgtype.TimeOID, pgtype.Time{Microseconds: 45296789012, Valid: true}, "", scanTo(pgtype.Time{Microseconds: 45296789012, Valid: true})},
		{"time midnight", "time", pgtype.TimeOID, pgtype.Time{Microseconds: 0, Valid: true}, "", scanTo(pgtype.Time{Microseconds: 0, Valid: true})},
		{"interval", "interval", pgtype.IntervalOID, pgtype.Interval{Months: 14, Days: -3, Microseconds: 3723000001, Valid: true}, "",
			scanTo(pgtype.Interval{Months: 14, Days: -3, Microseconds: 3723000001, Valid: true})},
		{"interval negative", "interval", pgtype.IntervalOID, pgtype.Interval{Microseconds: -90_000_000, Valid: true}, "",
			scanTo(pgtype.Interval{Microseconds: -90_000_000, Valid: true})},
		{"bpchar pads", "char(4)", pgtype.BPCharOID, "ab", "", scanTo("ab  ")},
		{"int4[]", "int4[]", pgtype.Int4ArrayOID, []int32{1, -2, math.MaxInt32}, "", scanSlice([]int32{1, -2, math.MaxInt32})},
		{"text[]", "text[]", pgtype.TextArrayOID, []string{"a", "b c", `"q"`, ""}, "", scanSlice([]string{"a", "b c", `"q"`, ""})},
		{"int8[] empty", "int8[]", pgtype.Int8ArrayOID, []int64{}, "", scanSlice([]int64{})},
		{"float8[]", "float8[]", pgtype.Float8ArrayOID, []float64{1.5, -2}, "", scanSlice([]float64{1.5, -2})},
		{"bool[]", "bool[]", pgtype.BoolArrayOID, []bool{true, false}, "", scanSlice([]bool{true, false})},
		{"date[]", "date[]", pgtype.DateArrayOID, []time.Time{date(2024, 2, 29), date(1969, 7, 20)}, dateInputNote,
			scanSlice([]time.Time{date(2024, 2, 29), date(1969, 7, 20)})},
	}
}

// scanSlice compares a scanned slice with want element by element.
func scanSlice[T comparable](want []T) func() (any, func() error) {
	return func() (any, func() error) {
		var got []T
		return &got, func() error {
			if got == nil || !slices.Equal(got, want) {
				return fmt.Errorf("got %v, want %v", got, want)
			}
			return nil
		}
	}
}

// scanBytes compares a scanned []byte with want.
func scanBytes(want []byte) func() (any, func() error) {
	return func() (any, func() error) {
		var got []byte
		return &got, func() error {
			if !bytes.Equal(got, want) || got == nil {
				return fmt.Errorf("got %x, want %x", got, want)
			}
			return nil
		}
	}
}

// notesOf joins the distinct notes of cases.
func notesOf(cases []roundTrip) string {
	var notes []string
	for _, c := range cases {
		if c.note != "" && !slices.Contains(notes, c.note) {
			notes = append(notes, c.note)
		}
	}
	return strings.Join(notes, "; ")
}

func TestPgxModesTypeRoundTrip(t *testing.T) {
	t.Parallel()
	cases := roundTrips()
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)
		for _, tt := range cases {
			t.Run(tt.name, func(t *testing.T) {
				sql := fmt.Sprintf("SELECT $1::%s", tt.cast)
				rows, err := conn.Query(ctx, sql, tt.arg)
				if err != nil {
					t.Fatalf("%s with %#v: %v%s", sql, tt.arg, err, noteOf(tt.note))
				}
				defer rows.Close()
				if !rows.Next() {
					t.Fatalf("%s with %#v: no row: %v%s", sql, tt.arg, rows.Err(), noteOf(tt.note))
				}
				fields := rows.FieldDescriptions()
				if len(fields) != 1 {
					t.Fatalf("%s: %d columns, want 1", sql, len(fields))
				}
				if fields[0].DataTypeOID != tt.oid {
					t.Errorf("%s: column type OID %d, want %d", sql, fields[0].DataTypeOID, tt.oid)
				}
				if want := resultFormat(conn, m, tt.oid); fields[0].Format != want {
					t.Errorf("%s: result format %d, want %d", sql, fields[0].Format, want)
				}
				dest, check := tt.dest()
				if err := rows.Scan(dest); err != nil {
					t.Fatalf("%s: scan: %v", sql, err)
				}
				if err := check(); err != nil {
					t.Errorf("%s with %#v: %v%s", sql, tt.arg, err, noteOf(tt.note))
				}
				if rows.Next() {
					t.Errorf("%s: more than one row", sql)
				}
				rows.Close()
				if err := rows.Err(); err != nil {
					t.Errorf("%s: %v", sql, err)
				}
			})
		}

		// All of them in one statement, so parameters of mixed types and
		// formats travel in one Bind.
		t.Run("all in one row", func(t *testing.T) {
			sql := "SELECT "
			args := make([]any, len(cases))
			dests := make([]any, len(cases))
			checks := make([]func() error, len(cases))
			for i, tt := range cases {
				if i > 0 {
					sql += ", "
				}
				sql += fmt.Sprintf("$%d::%s", i+1, tt.cast)
				args[i] = tt.arg
				dests[i], checks[i] = tt.dest()
			}
			if err := conn.QueryRow(ctx, sql, args...).Scan(dests...); err != nil {
				t.Fatalf("%s: %v%s", sql, err, noteOf(notesOf(cases)))
			}
			for i, check := range checks {
				if err := check(); err != nil {
					t.Errorf("column %d (%s): %v%s", i+1, cases[i].name, err, noteOf(cases[i].note))
				}
			}
		})
	})
}

// salesRow is one row of acdemo.sales in Go types.
// Every column but id may be NULL.
type salesRow struct {
	ID       int64
	Region   pgtype.Text
	Product  pgtype.Text
	Quantity pgtype.Int4
	Price    pgtype.Numeric
	Discount pgtype.Float8
	SoldOn   pgtype.Date
}

func (r salesRow) equal(o salesRow) bool {
	return r.ID == o.ID && r.Region == o.Region && r.Product == o.Product && r.Quantity == o.Quantity &&
		sameNumeric(r.Price, o.Price) && r.Discount == o.Discount && r.SoldOn == o.SoldOn
}

const salesByIDRange = "SELECT id, region, product, quantity, price, discount, sold_on FROM acdemo.sales WHERE id BETWEEN $1 AND $2 ORDER BY id"

// TestPgxModesTableColumns reads table columns of every demo type in each
// mode: binary results must decode to the same values the simple
// protocol's text gives.
func TestPgxModesTableColumns(t *testing.T) {
	t.Parallel()
	read := func(t *testing.T, m execMode) ([]salesRow, []uint32) {
		t.Helper()
		// Each (sub)test has its own deadline: a parallel subtest may wait
		// for a free slot longer than a deadline shared with its parent.
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)
		rows, err := conn.Query(ctx, salesByIDRange, int64(100), int64(119))
		if err != nil {
			t.Fatalf("%s: %v", salesByIDRange, err)
		}
		var oids []uint32
		for _, f := range rows.FieldDescriptions() {
			oids = append(oids, f.DataTypeOID)
		}
		got, err := pgx.CollectRows(rows, pgx.RowToStructByPos[salesRow])
		if err != nil {
			t.Fatalf("collect sales rows: %v", err)
		}
		return got, oids
	}
	want, _ := read(t, execMode{"simple protocol", pgx.QueryExecModeSimpleProtocol})
	if len(want) != 20 {
		t.Fatalf("simple protocol: %d sales rows for ids 100..119, want 20", len(want))
	}
	wantOIDs := []uint32{pgtype.Int8OID, pgtype.TextOID, pgtype.TextOID, pgtype.Int4OID, pgtype.NumericOID, pgtype.Float8OID, pgtype.DateOID}
	forEachMode(t, func(t *testing.T, m execMode) {
		got, oids := read(t, m)
		if !slices.Equal(oids, wantOIDs) {
			t.Errorf("column type OIDs = %v, want %v", oids, wantOIDs)
		}
		if len(got) != len(want) {
			t.Fatalf("%d rows, want %d", len(got), len(want))
		}
		for i := range want {
			if !got[i].equal(want[i]) {
				t.Errorf("row %d = %+v, simple protocol gave %+v", i, got[i], want[i])
			}
		}
	})
}

func TestPgxModesNullParameters(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)

		var (
			b   *bool
			i2  *int16
			i4  *int32
			i8  *int64
			f4  *float32
			f8  *float64
			num pgtype.Numeric
			txt *string
			d   pgtype.Date
			ts  pgtype.Timestamp
			tz  pgtype.Timestamptz
		)
		sql := "SELECT $1::bool, $2::int2, $3::int4, $4::int8, $5::float4, $6::float8, $7::numeric, $8::text, $9::date, $10::timestamp, $11::timestamptz"
		args := []any{(*bool)(nil), (*int16)(nil), (*int32)(nil), nil, (*float32)(nil), (*float64)(nil),
			pgtype.Numeric{}, (*string)(nil), pgtype.Date{}, nil, (*time.Time)(nil)}
		if err := conn.QueryRow(ctx, sql, args...).Scan(&b, &i2, &i4, &i8, &f4, &f8, &num, &txt, &d, &ts, &tz); err != nil {
			t.Fatalf("%s with NULLs: %v", sql, err)
		}
		if b != nil || i2 != nil || i4 != nil || i8 != nil || f4 != nil || f8 != nil || num.Valid || txt != nil || d.Valid || ts.Valid || tz.Valid {
			t.Errorf("NULL parameters came back non-NULL: %v %v %v %v %v %v %v %v %v %v %v", b, i2, i4, i8, f4, f8, num.Valid, txt, d.Valid, ts.Valid, tz.Valid)
		}

		// NULL compares as unknown: no row matches, and IS NULL sees it.
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM acdemo.orders WHERE region = $1", nil).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("region = NULL matched %d rows, want 0", n)
		}
		var isNull bool
		if err := conn.QueryRow(ctx, "SELECT $1::text IS NULL", (*string)(nil)).Scan(&isNull); err != nil {
			t.Fatal(err)
		}
		if !isNull {
			t.Error("$1::text IS NULL with a NULL parameter = false")
		}
		var coalesced string
		if err := conn.QueryRow(ctx, "SELECT coalesce($1::text, 'fallback')", nil).Scan(&coalesced); err != nil {
			t.Fatal(err)
		}
		if coalesced != "fallback" {
			t.Errorf("coalesce(NULL, 'fallback') = %q", coalesced)
		}
	})
}

func TestPgxModesPreparedReuse(t *testing.T) {
	t.Parallel()
	regions := map[int64]string{1: "EU", 2: "US", 3: "EU"}
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)

		// The same text with new arguments each time: the statement
		// cache (or the server's unnamed statement) is reused.
		const byID = "SELECT region FROM acdemo.orders WHERE id = $1"
		for i := range 60 {
			id := int64(i%3 + 1)
			var region string
			if err := conn.QueryRow(ctx, byID, id).Scan(&region); err != nil {
				t.Fatalf("run %d of %s: %v", i, byID, err)
			}
			if region != regions[id] {
				t.Fatalf("run %d: region of %d = %q, want %q", i, id, region, regions[id])
			}
		}

		if m.mode == pgx.QueryExecModeSimpleProtocol {
			return // no server-side statements in the simple protocol
		}
		// An explicitly named statement, described once and executed by
		// name many times.
		sd, err := conn.Prepare(ctx, "orders_since", "SELECT id, amount FROM acdemo.orders WHERE order_date >= $1 ORDER BY id")
		if err != nil {
			t.Fatalf("prepare: %v", err)
		}
		if len(sd.ParamOIDs) != 1 || sd.ParamOIDs[0] != pgtype.DateOID {
			t.Errorf("parameter OIDs = %v, want [%d] (date, inferred from order_date)", sd.ParamOIDs, pgtype.DateOID)
		}
		if len(sd.Fields) != 2 || sd.Fields[0].DataTypeOID != pgtype.Int8OID || sd.Fields[1].DataTypeOID != pgtype.NumericOID {
			t.Errorf("described fields = %+v, want int8 and numeric", sd.Fields)
		}
		since := []time.Time{date(2024, 1, 1), date(2024, 2, 1), date(2024, 3, 1), date(2025, 1, 1)}
		want := [][]int64{{1, 2, 3}, {2, 3}, {3}, nil}
		for i := range 40 {
			k := i % len(since)
			rows, err := conn.Query(ctx, "orders_since", since[k])
			if err != nil {
				t.Fatalf("run %d of orders_since: %v", i, err)
			}
			got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (int64, error) {
				var id int64
				var amount pgtype.Numeric
				err := r.Scan(&id, &amount)
				return id, err
			})
			if err != nil {
				t.Fatalf("run %d of orders_since: %v", i, err)
			}
			if !slices.Equal(got, want[k]) {
				t.Fatalf("run %d: orders since %s = %v, want %v", i, since[k].Format(time.DateOnly), got, want[k])
			}
		}
		if err := conn.Deallocate(ctx, "orders_since"); err != nil {
			t.Fatalf("deallocate orders_since: %v", err)
		}
		// Preparing the same name again works once it is closed.
		if _, err := conn.Prepare(ctx, "orders_since", "SELECT 1"); err != nil {
			t.Errorf("prepare orders_since again after deallocate: %v", err)
		}
	})
}

func TestPgxModesBatch(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)

		var (
			count    int64
			euIDs    []int64
			amount   pgtype.Numeric
			greeting string
			total    int64
		)
		b := &pgx.Batch{}
		b.Queue("SELECT count(*) FROM acdemo.orders").QueryRow(func(r pgx.Row) error { return r.Scan(&count) })
		b.Queue("SELECT id FROM acdemo.orders WHERE region = $1 ORDER BY id", "EU").Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					return err
				}
				euIDs = append(euIDs, id)
			}
			return rows.Err()
		})
		b.Queue("SELECT amount FROM acdemo.orders WHERE id = $1", int64(3)).QueryRow(func(r pgx.Row) error { return r.Scan(&amount) })
		b.Queue("SELECT $1::text || ', ' || $2::text", "hello", "world").QueryRow(func(r pgx.Row) error { return r.Scan(&greeting) })
		b.Queue("SELECT count(*) FROM acdemo.sales WHERE quantity >= $1", int32(0)).QueryRow(func(r pgx.Row) error { return r.Scan(&total) })
		if err := conn.SendBatch(ctx, b).Close(); err != nil {
			t.Fatalf("batch: %v", err)
		}
		if count != 3 || !slices.Equal(euIDs, []int64{1, 3}) || !sameNumeric(amount, numeric(31025, -2)) || greeting != "hello, world" || total != 1_000_000 {
			t.Errorf("batch results = %d, %v, %s, %q, %d; want 3, [1 3], 310.25, \"hello, world\", 1000000",
				count, euIDs, numericString(amount), greeting, total)
		}

		// A failing statement in the middle: its error reaches the caller
		// (the describing modes meet it while preparing the whole batch,
		// the others when it runs), and the connection is usable
		// afterwards.
		b = &pgx.Batch{}
		b.Queue("SELECT 1")
		b.Queue("SELECT nope FROM acdemo.orders WHERE id = $1", int64(1))
		b.Queue("SELECT 2")
		br := conn.SendBatch(ctx, b)
		var codes []string
		for range b.Len() {
			if _, err := br.Exec(); err != nil {
				codes = append(codes, asPgError(t, err).Code)
			}
		}
		if err := br.Close(); err != nil {
			codes = append(codes, asPgError(t, err).Code)
		}
		if !slices.Contains(codes, "42703") {
			t.Errorf("batch with an unknown column: errors %v, want 42703 among them", codes)
		}
		assertSelectOne(t, ctx, conn)
	})
}

func TestPgxModesErrorKeepsConnection(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sql  string
		args []any
		code string
		note string
	}{
		{"unknown column", "SELECT nope FROM acdemo.orders WHERE id = $1", []any{int64(1)}, "42703", ""},
		{"unknown table", "SELECT * FROM acdemo.nope WHERE id = $1", []any{int64(1)}, "42P01", ""},
		{"syntax error", "SELEC $1", []any{int64(1)}, "42601", ""},
		{"division by zero at execution", "SELECT id / $1 FROM acdemo.orders", []any{int64(0)}, "22012", ""},
		{"bad text for a cast", "SELECT $1::text::int8", []any{"twelve"}, "22P02", textCastNote},
	}
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				rows, err := conn.Query(ctx, tt.sql, tt.args...)
				if err == nil {
					for rows.Next() {
					}
					err = rows.Err()
					rows.Close()
				}
				if err == nil {
					t.Fatalf("%s succeeded", tt.sql)
				}
				if pe := asPgError(t, err); pe.Code != tt.code {
					t.Errorf("%s: code %s (%s), want %s%s", tt.sql, pe.Code, pe.Message, tt.code, noteOf(tt.note))
				}
				assertSelectOne(t, ctx, conn)
			})
		}
	})
}

func TestPgxModesPing(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 30*time.Second)
		conn := connectMode(t, ctx, m)
		for i := range 3 {
			if err := conn.Ping(ctx); err != nil {
				t.Fatalf("ping %d: %v", i, err)
			}
		}
		if conn.IsClosed() {
			t.Error("connection closed after ping")
		}
		if err := conn.Close(ctx); err != nil {
			t.Fatalf("close: %v", err)
		}
		if err := conn.Ping(ctx); err == nil {
			t.Error("ping on a closed connection succeeded")
		}
	})
}

// TestPgxModesCancel ends a long query through its context in each mode,
// both ways pgx can: a CancelRequest on a second connection (the server
// must answer 57014 and keep the session), and pgx's default of closing the
// socket.
func TestPgxModesCancel(t *testing.T) {
	t.Parallel()
	// The long query takes a parameter so the extended modes really go
	// through Parse/Bind/Execute. It sleeps before its first row: once rows
	// stream, a client reading them slowly meets the cancel's answer only
	// after the rows already in the socket's buffers, whatever the server
	// does, and a sort alone may finish within the deadline.
	const slow = "SELECT s.* FROM acdemo.sales s CROSS JOIN (SELECT pg_sleep(30)) z WHERE s.id > $1 ORDER BY s.product, s.id"
	handlers := []struct {
		name          string
		handler       func(*pgconn.PgConn) ctxwatch.Handler
		wantCancelled bool
	}{
		{"cancel request", func(c *pgconn.PgConn) ctxwatch.Handler {
			return &pgconn.CancelRequestContextWatcherHandler{Conn: c, CancelRequestDelay: 0, DeadlineDelay: 10 * time.Second}
		}, true},
		{"connection cut", nil, false},
	}
	forEachMode(t, func(t *testing.T, m execMode) {
		for _, h := range handlers {
			t.Run(h.name, func(t *testing.T) {
				ctx := testContext(t, 60*time.Second)
				cfg := modeConfig(t, m)
				var (
					mu       sync.Mutex
					pgErrors []string
				)
				if h.handler != nil {
					cfg.BuildContextWatcherHandler = h.handler
					// OnPgError decides whether an error closes the
					// connection; a cancelled query must not.
					cfg.OnPgError = func(_ *pgconn.PgConn, pe *pgconn.PgError) bool {
						mu.Lock()
						defer mu.Unlock()
						pgErrors = append(pgErrors, pe.Code)
						return pe.Severity != "FATAL" && pe.Severity != "PANIC"
					}
				}
				conn := connectConfig(t, ctx, cfg)

				qctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
				defer cancel()
				start := time.Now()
				err := readRowsSlowly(qctx, conn, slow, int64(0))
				elapsed := time.Since(start)
				if err == nil {
					t.Fatal("the query finished before the context ended; it is meant to run for seconds")
				}
				var pe *pgconn.PgError
				isCancel := errors.As(err, &pe) && pe.Code == "57014"
				if !isCancel && !errors.Is(err, context.DeadlineExceeded) && !pgconn.Timeout(err) {
					t.Fatalf("error = %v, want 57014 or a context deadline", err)
				}
				if elapsed > 8*time.Second {
					t.Errorf("the query ran %s after a 500ms deadline", elapsed.Round(time.Millisecond))
				}
				if h.wantCancelled {
					if !isCancel {
						t.Fatalf("error = %v, want the server's 57014 after the cancel request", err)
					}
					mu.Lock()
					seen := slices.Clone(pgErrors)
					mu.Unlock()
					if !slices.Contains(seen, "57014") {
						t.Errorf("OnPgError saw %v, want 57014 among them", seen)
					}
					// The session survives, named statements included.
					var n int64
					if err := conn.QueryRow(ctx, "SELECT count(*) FROM acdemo.orders WHERE id > $1", int64(1)).Scan(&n); err != nil || n != 2 {
						t.Errorf("after the cancel: count = %d, err %v; want 2", n, err)
					}
				} else if !conn.IsClosed() {
					t.Error("pgx kept a connection whose socket it cut")
				}
			})
		}
	})
}

// readRowsSlowly runs sql and consumes its rows one per millisecond.
func readRowsSlowly(ctx context.Context, conn *pgx.Conn, sql string, args ...any) error {
	rows, err := conn.Query(ctx, sql, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		time.Sleep(time.Millisecond)
	}
	return rows.Err()
}

// wireEncodingNote: pg_catalog's oid columns are Arrow uint32 and its array
// columns Arrow lists; their binary (and possibly text) wire encodings may
// not exist yet.
const wireEncodingNote = "possibly SQE's missing wire encoding for oid (Arrow uint32) or array (Arrow list) columns of pg_catalog"

// TestPgxModesCatalog runs the catalog lookups drivers and tools make,
// with parameters, in each mode.
func TestPgxModesCatalog(t *testing.T) {
	t.Parallel()
	forEachMode(t, func(t *testing.T, m execMode) {
		ctx := testContext(t, 60*time.Second)
		conn := connectMode(t, ctx, m)

		var (
			oid     uint32
			typname string
		)
		if err := conn.QueryRow(ctx, "SELECT t.oid, t.typname FROM pg_catalog.pg_type t WHERE t.typname = $1", "int8").Scan(&oid, &typname); err != nil {
			t.Errorf("pg_type oid of int8: %v\n(%s)", err, wireEncodingNote)
		} else if oid != pgtype.Int8OID || typname != "int8" {
			t.Errorf("pg_type row of int8 = %d, %q; want %d, int8", oid, typname, pgtype.Int8OID)
		}

		var relname, nspname string
		var relOID uint32
		err := conn.QueryRow(ctx, "SELECT c.oid, c.relname, n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = $1 AND n.nspname = $2",
			"orders", "acdemo").Scan(&relOID, &relname, &nspname)
		if err != nil {
			t.Errorf("pg_class join pg_namespace: %v\n(%s)", err, wireEncodingNote)
		} else if relname != "orders" || nspname != "acdemo" || relOID == 0 {
			t.Errorf("pg_class row = %d, %q, %q; want a non-zero oid, orders, acdemo", relOID, relname, nspname)
		}

		rows, err := conn.Query(ctx, "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position", "acdemo", "orders")
		if err != nil {
			t.Fatalf("information_schema.columns: %v", err)
		}
		cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (string, error) {
			var name, typ string
			err := r.Scan(&name, &typ)
			return name + " " + typ, err
		})
		if err != nil {
			t.Fatalf("information_schema.columns: %v", err)
		}
		want := []string{"id bigint", "region text", "ssn text", "amount numeric", "order_date date"}
		if !slices.Equal(cols, want) {
			t.Errorf("columns of acdemo.orders = %q, want %q", cols, want)
		}

		// A list column: pg_proc.proargtypes is an oidvector, which pgx
		// has no codec for and so reads as text; PostgreSQL writes it as
		// the OIDs separated by spaces.
		var args string
		if err := conn.QueryRow(ctx, "SELECT proargtypes FROM pg_catalog.pg_proc WHERE proname = $1", "oidvectorout").Scan(&args); err != nil {
			t.Errorf("pg_proc.proargtypes of oidvectorout: %v\n(%s)", err, wireEncodingNote)
		} else if args != "30" {
			t.Errorf("pg_proc.proargtypes of oidvectorout = %q, want \"30\"", args)
		}
	})
}
