package trino

import (
	"encoding/json"
	"testing"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// TestTrinoTextIsRead checks that the JSON Trino writes for each type the
// SQL writer writes is read by types.ParseText as the matching SQE type,
// to the value PostgreSQL's text of it gives.
func TestTrinoTextIsRead(t *testing.T) {
	for _, tc := range []struct {
		json string
		typ  types.T
		pg   string // PostgreSQL's text of the same value
	}{
		{`true`, types.Bool, "t"},
		{`false`, types.Bool, "f"},
		{`-32768`, types.Int2, "-32768"},
		{`2147483647`, types.Int4, "2147483647"},
		{`9007199254740993`, types.Int8, "9007199254740993"},
		{`-9223372036854775808`, types.Int8, "-9223372036854775808"},
		{`3.4028235E38`, types.Float4, "3.4028235e+38"},
		{`1.4E-45`, types.Float4, "1e-45"},
		{`"NaN"`, types.Float4, "NaN"},
		{`1.0E-5`, types.Float8, "1e-05"},
		{`-0.0`, types.Float8, "-0"},
		{`"Infinity"`, types.Float8, "Infinity"},
		{`"-Infinity"`, types.Float8, "-Infinity"},
		{`"123.45"`, types.Numeric(10, 2), "123.45"},
		{`"-0.05"`, types.Numeric(10, 2), "-0.05"},
		{`"12345678901234567890123456.789012345678"`, types.Numeric(38, 12), "12345678901234567890123456.789012345678"},
		{`"h\u00e9llo \"q\"\\"`, types.Text, `héllo "q"\`},
		{`"2024-01-02"`, types.Date, "2024-01-02"},
		{`"1969-12-31"`, types.Date, "1969-12-31"},
		{`"1582-10-04"`, types.Date, "1582-10-04"},
		{`"0000-01-01"`, types.Date, "0001-01-01 BC"},
		{`"-0001-12-31"`, types.Date, "0002-12-31 BC"},
		{`"+10000-01-01"`, types.Date, "10000-01-01"},
		{`"2024-01-02 03:04:05.123456"`, types.Timestamp, "2024-01-02 03:04:05.123456"},
		{`"1969-12-31 23:59:59.999999"`, types.Timestamp, "1969-12-31 23:59:59.999999"},
		{`"0000-06-01 12:00:00.000001"`, types.Timestamp, "0001-06-01 12:00:00.000001 BC"},
	} {
		text, null, ok := valueText(json.RawMessage(tc.json))
		if !ok || null {
			t.Errorf("%s: not read as a value", tc.json)
			continue
		}
		if tc.typ.OID == types.OIDDate || tc.typ.OID == types.OIDTimestamp {
			text = postgresYear(text)
		}
		got, err := types.ParseText(text, tc.typ)
		if err != nil {
			t.Errorf("%s as %s: %v", tc.json, tc.typ.Name(), err)
			continue
		}
		want, err := types.ParseText(tc.pg, tc.typ)
		if err != nil {
			t.Fatalf("PostgreSQL's %q as %s: %v", tc.pg, tc.typ.Name(), err)
		}
		if !sameValue(got, want) {
			t.Errorf("%s as %s: read %v, PostgreSQL's %q is %v", tc.json, tc.typ.Name(), got, tc.pg, want)
		}
	}
}

// sameValue compares two values of one type, NaN equal to NaN.
func sameValue(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb || fa != fa && fb != fb)
	}
	return a == b
}

func TestValueTextRefusesWhatIsNoValue(t *testing.T) {
	for _, raw := range []string{`[1,2]`, `{"a":1}`, `nul`, `tru`, ``, `"\ud800`} {
		if _, _, ok := valueText(json.RawMessage(raw)); ok {
			t.Errorf("%s read as a value", raw)
		}
	}
	if _, null, ok := valueText(json.RawMessage(`null`)); !ok || !null {
		t.Errorf("null not read as NULL")
	}
}

func TestTrinoTypesChecked(t *testing.T) {
	col := func(typ, raw string) column { return column{Type: typ, TypeSignature: typeSignature{RawType: raw}} }
	for _, tc := range []struct {
		col  column
		typ  types.T
		want bool
	}{
		{col("boolean", "boolean"), types.Bool, true},
		{col("integer", "integer"), types.Int8, true},
		{col("bigint", "bigint"), types.Int2, true},
		{col("double", "double"), types.Int8, false},
		{col("real", "real"), types.Float4, true},
		{col("real", "real"), types.Float8, false},
		{col("double", "double"), types.Float4, false},
		{col("decimal(10,2)", "decimal"), types.Numeric(10, 2), true},
		{col("decimal(12,2)", "decimal"), types.Numeric(10, 2), true},
		{col("decimal(10,3)", "decimal"), types.Numeric(10, 2), false},
		{col("decimal(10,2)", "decimal"), types.NumericGeneral(2), false},
		{col("varchar", "varchar"), types.Text, true},
		{col("varchar(3)", "varchar"), types.VarcharN(5), true},
		{col("char(3)", "char"), types.Text, false},
		{col("date", "date"), types.Date, true},
		{col("timestamp(6)", "timestamp"), types.Timestamp, true},
		{col("timestamp(3)", "timestamp"), types.Timestamp, true},
		// What a client without PARAMETRIC_DATETIME is told, its values
		// rounded to milliseconds.
		{col("timestamp", "timestamp"), types.Timestamp, false},
		{col("timestamp(9)", "timestamp"), types.Timestamp, false},
		{col("timestamp(6) with time zone", "timestamp with time zone"), types.Timestamp, false},
		{col("timestamp(6) with time zone", ""), types.Timestamp, false},
		{col("varchar", "varchar"), types.UUID, false},
	} {
		if got := parseTrinoType(tc.col).reads(tc.typ); got != tc.want {
			t.Errorf("Trino %s read as %s: %v, want %v", tc.col.Type, tc.typ.Name(), got, tc.want)
		}
	}
	err := checkColumns("trino", []column{{Name: "a", Type: "secret-123 value"}}, []planner.Column{{Type: types.Int8}})
	if err == nil || err.Error() != `remote engine "trino" returned result column 1 as Trino type (unknown) where bigint was expected (SQLSTATE XX000)` {
		t.Errorf("got %v", err)
	}
}

func TestNextURIStaysOnTheCoordinator(t *testing.T) {
	e, err := New(Config{Name: "trino", URI: "https://trino.example:8443", User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	for uri, want := range map[string]bool{
		"https://trino.example:8443/v1/statement/executing/q/y/1":     true,
		"https://TRINO.example:8443/v1/statement/executing/q/y/1":     true,
		"http://trino.example:8443/v1/statement/executing/q/y/1":      false,
		"https://trino.example/v1/statement/executing/q/y/1":          false,
		"https://elsewhere.example:8443/v1/statement/executing/q/y/1": false,
		"https://u:p@trino.example:8443/v1/statement/executing/q/y/1": false,
	} {
		if got := e.sameOrigin(uri); got != want {
			t.Errorf("%s: followed %v, want %v", uri, got, want)
		}
	}
}

func TestErrorNamesKeptToTheirForm(t *testing.T) {
	for in, want := range map[string]string{
		"DIVISION_BY_ZERO":         "DIVISION_BY_ZERO",
		"":                         "ERROR",
		"value 'secret-123'":       "ERROR",
		"ICEBERG_INVALID_METADATA": "ICEBERG_INVALID_METADATA",
	} {
		if got := errorNameForMessage(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
