package compattests

import (
	"fmt"
	"strings"
	"time"
)

// The all_types table holds a column of every type SQE stores, with NULLs,
// each type's extremes, the float specials, unicode, quotes and empty
// strings. Rows are written once as PostgreSQL input literals; PostgreSQL
// parses them itself, and differential_arrow_test.go turns the same text
// into Arrow for SQE, so both engines hold the same values.
const (
	// allTypesSchema is the namespace (SQE) and schema (PostgreSQL) of
	// the table.
	allTypesSchema = "types"
	allTypesTable  = "all_types"
	// allTypesRows is the number of rows.
	allTypesRows = 50
)

// typeKind says how a literal becomes an Arrow value.
type typeKind int

const (
	kindBool typeKind = iota
	kindInt2
	kindInt4
	kindInt8
	kindFloat4
	kindFloat8
	kindNumeric
	kindText
	kindDate
	kindTimestamp
	kindTimestampTZ
	kindUUID
	kindBytea
)

// typedColumn is one column of all_types.
type typedColumn struct {
	name   string
	pgType string
	kind   typeKind
}

// allTypesColumns are the table's columns. json is stored as text: the
// storage layer has no JSON type (a json column reads back as text), so
// queries cast it (js::json, js::jsonb) on both engines.
var allTypesColumns = []typedColumn{
	{"id", "bigint NOT NULL", kindInt8},
	{"grp", "integer", kindInt4},
	{"b", "boolean", kindBool},
	{"i2", "smallint", kindInt2},
	{"i4", "integer", kindInt4},
	{"i8", "bigint", kindInt8},
	{"f4", "real", kindFloat4},
	{"f8", "double precision", kindFloat8},
	{"n", "numeric(18,4)", kindNumeric},
	{"t", "text", kindText},
	{"vc", "varchar(20)", kindText},
	{"d", "date", kindDate},
	{"ts", "timestamp", kindTimestamp},
	{"tstz", "timestamptz", kindTimestampTZ},
	{"u", "uuid", kindUUID},
	{"by", "bytea", kindBytea},
	{"js", "text", kindText},
}

// Numeric precision and scale of column n.
const (
	allTypesNumericPrecision = 18
	allTypesNumericScale     = 4
)

// lit is a non-NULL literal; nil stands for NULL.
func lit(s string) *string { return &s }

// specialRows are the hand-written rows: all NULL, zeros and empties,
// each type's maximum and minimum, float specials, unicode and quoting.
// Columns follow allTypesColumns after id.
var specialRows = [][]*string{
	// Every nullable column NULL.
	{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	// Zeros and empty values.
	{lit("0"), lit("false"), lit("0"), lit("0"), lit("0"), lit("0"), lit("0"), lit("0"), lit(""), lit(""),
		lit("2000-01-01"), lit("2000-01-01 00:00:00"), lit("2000-01-01 00:00:00+00"),
		lit("00000000-0000-0000-0000-000000000000"), lit(`\x`), lit("{}")},
	// Maxima.
	{lit("1"), lit("true"), lit("32767"), lit("2147483647"), lit("9223372036854775807"), lit("3.4028235e+38"),
		lit("1.7976931348623157e+308"), lit("99999999999999.9999"), lit("Zürich ☃ 日本語"), lit("abcdefghijklmnopqrst"),
		lit("9999-12-31"), lit("9999-12-31 23:59:59.999999"), lit("9999-12-31 23:59:59.999999+00"),
		lit("ffffffff-ffff-ffff-ffff-ffffffffffff"), lit(`\xffff00`), lit(`{"a": [1, 2, {"b": null}], "c": "d"}`)},
	// Minima.
	{lit("2"), lit("false"), lit("-32768"), lit("-2147483648"), lit("-9223372036854775808"), lit("-3.4028235e+38"),
		lit("-1.7976931348623157e+308"), lit("-99999999999999.9999"), lit(`It's "quoted" \ back`), lit("O'Reilly"),
		lit("0001-01-01"), lit("0001-01-01 00:00:00"), lit("0001-01-01 00:00:00+00"),
		lit("123e4567-e89b-12d3-a456-426614174000"), lit(`\x00`), lit("[]")},
	// NaN.
	{lit("3"), lit("true"), lit("1"), lit("1"), lit("1"), lit("NaN"), lit("NaN"), lit("0.0001"), lit("NaN"), lit("nan"),
		lit("2024-02-29"), lit("2024-02-29 12:00:00"), lit("2024-02-29 12:00:00+00"),
		lit("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"), lit(`\xdeadbeef`), lit(`{"k": "v", "n": 1.5}`)},
	// Infinity.
	{lit("0"), nil, lit("-1"), lit("-1"), lit("-1"), lit("Infinity"), lit("Infinity"), lit("-0.0001"), lit("Ñandú 🦆"), lit("ÄÖÜ"),
		lit("1970-01-01"), lit("1970-01-01 00:00:00"), lit("1970-01-01 00:00:00+00"),
		lit("00000000-0000-0000-0000-000000000001"), lit(`\x0a0d09`), lit(`[1, "two", null, true]`)},
	// -Infinity.
	{lit("1"), lit("false"), lit("100"), lit("100000"), lit("10000000000"), lit("-Infinity"), lit("-Infinity"), lit("1.5"),
		lit("  padded  "), lit(" "), lit("1999-12-31"), lit("1999-12-31 23:59:59"), lit("1999-12-31 23:59:59+00"),
		lit("10000000-0000-0000-0000-000000000000"), lit(`\x7f80`), lit(`"just a string"`)},
	// Negative zero and the smallest normal floats.
	{lit("2"), lit("true"), lit("-100"), lit("-100000"), lit("-10000000000"), lit("-0"), lit("-0"), lit("-1.5"),
		lit("line1\nline2\ttab"), lit("tab\there"), lit("1969-12-31"), lit("1969-12-31 23:59:59.5"), lit("1969-12-31 23:59:59.5+00"),
		lit("0fffffff-ffff-ffff-ffff-fffffffffff0"), lit(`\x5c`), lit(`{"nested": {"deep": {"deeper": [10, 20]}}}`)},
	{lit("3"), lit("false"), lit("7"), lit("7"), lit("7"), lit("1.1754944e-38"), lit("2.2250738585072014e-308"), lit("0.5"),
		lit("ABC"), lit("abc"), lit("2000-02-29"), lit("2000-02-29 00:00:00.000001"), lit("2000-02-29 00:00:00.000001+00"),
		lit("c0ffee00-0000-0000-0000-00000000c0de"), lit(`\x61626300`), lit(`{"a": 1, "a": 2}`)},
	{nil, lit("true"), nil, lit("42"), nil, lit("0.1"), lit("0.1"), nil, lit("%_wild_%"), nil,
		lit("2024-12-31"), nil, lit("2024-06-30 18:30:00+00"), nil, nil, lit("null")},
}

// words feeds the generated rows' text column (with case and LIKE
// wildcards to tell operators apart).
var words = []string{"apple", "Banana", "cherry", "apple pie", "date", "Elder", "fig", "grape", "apple_tart", "100%", "kiwi", "Lemon"}

// allTypesLiterals returns every row of all_types as PostgreSQL input
// literals, id first, nil for NULL. The same call always gives the same
// rows.
func allTypesLiterals() [][]*string {
	rows := make([][]*string, 0, allTypesRows)
	for i, special := range specialRows {
		row := append([]*string{lit(fmt.Sprint(i + 1))}, special...)
		rows = append(rows, row)
	}
	for id := len(specialRows) + 1; id <= allTypesRows; id++ {
		rows = append(rows, generatedRow(id))
	}
	return rows
}

// generatedRow is row id of the formula-made part of all_types.
func generatedRow(id int) []*string {
	orNull := func(null bool, s string) *string {
		if null {
			return nil
		}
		return lit(s)
	}
	day := time.Date(2020, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, id*37)
	at := time.Date(2021, time.March, 14, 1, 59, 26, 0, time.UTC).Add(time.Duration(id) * (27*time.Hour + 17*time.Minute + 11*time.Second + 500*time.Millisecond))
	atTZ := at.Add(time.Duration(id*id) * time.Minute)
	return []*string{
		lit(fmt.Sprint(id)),
		orNull(id%11 == 0, fmt.Sprint(id%4)),
		orNull(id%7 == 0, fmt.Sprint(id%3 == 0)),
		orNull(id%13 == 0, fmt.Sprint((id*37)%200-100)),
		orNull(id%17 == 0, fmt.Sprint((id*id*13)%1000-500)),
		orNull(id%19 == 0, fmt.Sprint(int64(id)*1000003-25000000)),
		orNull(id%23 == 0, fmt.Sprint(float32(id)*0.25-5)),
		orNull(id%29 == 0, fmt.Sprint(float64(id)/3-7.5)),
		orNull(id%10 == 0, fmt.Sprintf("%d.%04d", (id*12345)%100000/100-300, (id*7919)%10000)),
		orNull(id%9 == 0, words[id%len(words)]),
		orNull(id%8 == 0, fmt.Sprintf("v%02d", id%25)),
		orNull(id%12 == 0, day.Format("2006-01-02")),
		orNull(id%14 == 0, at.Format("2006-01-02 15:04:05.999999")),
		orNull(id%15 == 0, atTZ.Format("2006-01-02 15:04:05.999999")+"+00"),
		orNull(id%16 == 0, fmt.Sprintf("%08x-0000-4000-8000-%012x", uint32(id)*2654435761, id)),
		orNull(id%18 == 0, fmt.Sprintf(`\x%02x%02x%02x`, id, (id*3)%256, 255-id)),
		orNull(id%6 == 0, fmt.Sprintf(`{"id": %d, "tag": "t%d", "vals": [%d, %d], "ok": %t}`, id, id%5, id, id*2, id%2 == 0)),
	}
}

// allTypesDDL creates the table in PostgreSQL.
func allTypesDDL() string {
	defs := make([]string, len(allTypesColumns))
	for i, c := range allTypesColumns {
		defs[i] = c.name + " " + c.pgType
	}
	return "CREATE TABLE " + allTypesSchema + "." + allTypesTable + " (" + strings.Join(defs, ", ") + ")"
}

// allTypesInsert fills the table in PostgreSQL from the same literals.
func allTypesInsert() string {
	var b strings.Builder
	b.WriteString("INSERT INTO " + allTypesSchema + "." + allTypesTable + " VALUES ")
	for r, row := range allTypesLiterals() {
		if r > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(")
		for c, v := range row {
			if c > 0 {
				b.WriteString(", ")
			}
			if v == nil {
				b.WriteString("NULL")
				continue
			}
			b.WriteString("'" + strings.ReplaceAll(*v, "'", "''") + "'")
		}
		b.WriteString(")")
	}
	return b.String()
}
