package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func mustNumeric(t *testing.T, s string) *apd.Decimal {
	t.Helper()
	d, err := ParseNumeric(s)
	if err != nil {
		t.Fatalf("ParseNumeric(%q): %v", s, err)
	}
	return d
}

// Each value keeps the scale it was written with through the encoding,
// as numeric_in and numeric_out do.
func TestNumericTextRoundTrip(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0", "0"}, {"0.000", "0.000"}, {"-0.0", "0.0"}, {"1.50", "1.50"}, {" -2.5 ", "-2.5"},
		{"1e3", "1000"}, {"1.5e-3", "0.0015"}, {"1E+2", "100"}, {".5", "0.5"}, {"5.", "5"},
		{"NaN", "NaN"}, {"nan", "NaN"}, {"Infinity", "Infinity"}, {"-inf", "-Infinity"}, {"+Infinity", "Infinity"},
		{"123456789012345678901234567890123456789012.5", "123456789012345678901234567890123456789012.5"},
		{"-0.000000000000000000000000000000000000000001", "-0.000000000000000000000000000000000000000001"},
		{"170141183460469231731687303715884105727", "170141183460469231731687303715884105727"},
		{"-170141183460469231731687303715884105728", "-170141183460469231731687303715884105728"},
	} {
		enc, err := AppendNumericParsed(nil, tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if got := string(AppendNumericText(nil, enc)); got != tc.want {
			t.Errorf("%q printed %q, want %q", tc.in, got, tc.want)
		}
		if got := NumericString(NumericFromBytes(enc)); got != tc.want {
			t.Errorf("%q decoded and printed %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"", "abc", "1.2.3", "1e", "e5", "1e1001", "--1", "Infinit"} {
		if _, err := ParseNumeric(bad); pgerror.Code(err) != pgerror.InvalidTextRepresentation {
			t.Errorf("%q: got %v, want 22P02", bad, err)
		}
	}
}

// Result scales as PostgreSQL 15 prints them.
func TestNumericArithmeticScales(t *testing.T) {
	for _, tc := range []struct{ op, x, y, want string }{
		{"/", "1", "3", "0.33333333333333333333"},
		{"/", "2", "3", "0.66666666666666666667"},
		{"/", "10", "4", "2.5000000000000000"},
		{"/", "100000", "3", "33333.333333333333"},
		{"/", "1.0", "3", "0.33333333333333333333"},
		{"/", "1", "30000", "0.000033333333333333333333"},
		{"/", "-7.5", "2", "-3.7500000000000000"},
		{"/", "0", "5", "0.00000000000000000000"},
		{"/", "1.00000000000000000000000001", "1", "1.00000000000000000000000001"},
		{"/", "NaN", "0", "NaN"},
		{"/", "Infinity", "-2", "-Infinity"},
		{"/", "1", "Infinity", "0"},
		{"/", "Infinity", "Infinity", "NaN"},
		{"+", "1.5", "2.25", "3.75"},
		{"+", "1.50", "-1.5", "0.00"},
		{"+", "Infinity", "-Infinity", "NaN"},
		{"+", "Infinity", "5", "Infinity"},
		{"-", "1", "Infinity", "-Infinity"},
		{"-", "Infinity", "Infinity", "NaN"},
		{"*", "1.5", "2.25", "3.375"},
		{"*", "0.10", "0.10", "0.0100"},
		{"*", "Infinity", "0", "NaN"},
		{"*", "-Infinity", "-2", "Infinity"},
		{"*", "99999999999999999999999999999999999999", "99999999999999999999999999999999999999",
			"9999999999999999999999999999999999999800000000000000000000000000000000000001"},
		{"%", "10", "3", "1"},
		{"%", "-10.5", "3", "-1.5"},
		{"%", "5", "Infinity", "5"},
		{"%", "Infinity", "3", "NaN"},
	} {
		x, y := mustNumeric(t, tc.x), mustNumeric(t, tc.y)
		var d apd.Decimal
		var err error
		switch tc.op {
		case "+":
			NumericAdd(&d, x, y, false)
		case "-":
			NumericAdd(&d, x, y, true)
		case "*":
			NumericMul(&d, x, y)
		case "/":
			err = NumericDiv(&d, x, y)
		case "%":
			err = NumericMod(&d, x, y)
		}
		if err != nil {
			t.Errorf("%s %s %s: %v", tc.x, tc.op, tc.y, err)
			continue
		}
		if got := NumericString(&d); got != tc.want {
			t.Errorf("%s %s %s = %s, want %s", tc.x, tc.op, tc.y, got, tc.want)
		}
	}
	for _, tc := range []struct{ op, x, y string }{{"/", "1", "0"}, {"/", "Infinity", "0"}, {"%", "1", "0"}, {"%", "-Infinity", "0"}} {
		var d apd.Decimal
		var err error
		if tc.op == "/" {
			err = NumericDiv(&d, mustNumeric(t, tc.x), mustNumeric(t, tc.y))
		} else {
			err = NumericMod(&d, mustNumeric(t, tc.x), mustNumeric(t, tc.y))
		}
		if pgerror.Code(err) != pgerror.DivisionByZero {
			t.Errorf("%s %s %s: got %v, want 22012", tc.x, tc.op, tc.y, err)
		}
	}
}

func TestNumericRoundingFunctions(t *testing.T) {
	for _, tc := range []struct {
		fn    string
		x     string
		scale int32
		want  string
	}{
		{"round", "2.5", 0, "3"}, {"round", "-2.5", 0, "-3"}, {"round", "1.234", 5, "1.23400"},
		{"round", "1234.5", -2, "1200"}, {"round", "1250", -2, "1300"}, {"round", "0.05", 1, "0.1"},
		{"trunc", "-2.99", 0, "-2"}, {"trunc", "1.239", 2, "1.23"}, {"trunc", "NaN", 2, "NaN"},
		{"ceil", "-0.5", 0, "0"}, {"ceil", "1.01", 0, "2"}, {"floor", "-0.5", 0, "-1"}, {"floor", "7.00", 0, "7"},
		{"ceil", "-Infinity", 0, "-Infinity"},
		{"trim_scale", "1.2300", 0, "1.23"}, {"trim_scale", "100.000", 0, "100"}, {"trim_scale", "0.00", 0, "0"},
	} {
		var d apd.Decimal
		x := mustNumeric(t, tc.x)
		switch tc.fn {
		case "round":
			NumericRound(&d, x, tc.scale)
		case "trunc":
			NumericTrunc(&d, x, tc.scale)
		case "ceil", "floor":
			NumericCeilFloor(&d, x, tc.fn == "ceil")
		case "trim_scale":
			NumericTrimScale(&d, x)
		}
		if got := NumericString(&d); got != tc.want {
			t.Errorf("%s(%s, %d) = %s, want %s", tc.fn, tc.x, tc.scale, got, tc.want)
		}
	}
	for _, tc := range []struct {
		x    string
		want int32
	}{{"1.2300", 2}, {"100", 0}, {"0.000", 0}, {"-0.0001", 4}, {"NaN", 0}} {
		if got := NumericMinScale(mustNumeric(t, tc.x)); got != tc.want {
			t.Errorf("min_scale(%s) = %d, want %d", tc.x, got, tc.want)
		}
	}
}

// NaN sorts above every value and equals itself; 1.0 equals 1.00, and
// equal values have one grouping key.
func TestNumericOrderAndKeys(t *testing.T) {
	ordered := []string{"-Infinity", "-1e30", "-2.50", "-2.5000001", "0", "0.000", "0.5", "1", "1.00", "12345678901234567890.1", "Infinity", "NaN", "nan"}
	enc := make([][]byte, len(ordered))
	for i, s := range ordered {
		enc[i], _ = AppendNumericParsed(nil, s)
	}
	rank := func(s string) int {
		switch s {
		case "-2.50":
			return 3
		case "-2.5000001":
			return 2
		case "0.000":
			return 4
		case "1.00":
			return 7
		case "nan":
			return 11
		}
		for i, o := range ordered {
			if o == s {
				return i
			}
		}
		return -1
	}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if ri, rj := rank(ordered[i]), rank(ordered[j]); ri < rj {
				want = -1
			} else if ri > rj {
				want = 1
			}
			if got := CompareNumericBytes(enc[i], enc[j]); got != want {
				t.Errorf("compare(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
			sameKey := string(AppendNumericKey(nil, enc[i])) == string(AppendNumericKey(nil, enc[j]))
			if sameKey != (want == 0) {
				t.Errorf("keys of %s and %s equal: %v, want %v", ordered[i], ordered[j], sameKey, want == 0)
			}
		}
	}
}

func TestNumericConversions(t *testing.T) {
	n, err := NumericToFixed(mustNumeric(t, "2.345"), Numeric(10, 2))
	if err != nil || n != decimal128.FromI64(235) {
		t.Errorf("2.345::numeric(10,2) = %v, %v; want 235 at scale 2", n, err)
	}
	if _, err := NumericToFixed(mustNumeric(t, "12345.6"), Numeric(5, 2)); pgerror.Code(err) != pgerror.NumericValueOutOfRange {
		t.Errorf("12345.6::numeric(5,2): %v, want 22003", err)
	}
	if _, err := NumericToFixed(mustNumeric(t, "NaN"), Numeric(10, 2)); pgerror.Code(err) != pgerror.NumericValueOutOfRange {
		t.Errorf("NaN::numeric(10,2): %v, want 22003", err)
	}
	for _, tc := range []struct {
		x    string
		to   T
		want int64
		code string
	}{
		{"2.5", Int4, 3, ""}, {"-2.5", Int4, -3, ""}, {"32767.4", Int2, 32767, ""}, {"32767.5", Int2, 0, pgerror.NumericValueOutOfRange},
		{"-9223372036854775808", Int8, -9223372036854775808, ""}, {"9223372036854775808", Int8, 0, pgerror.NumericValueOutOfRange},
		{"NaN", Int4, 0, pgerror.FeatureNotSupported}, {"Infinity", Int8, 0, pgerror.FeatureNotSupported},
	} {
		got, err := NumericToInt64(mustNumeric(t, tc.x), tc.to)
		if tc.code == "" && (err != nil || got != tc.want) || tc.code != "" && pgerror.Code(err) != tc.code {
			t.Errorf("%s::%s = %d, %v; want %d (%q)", tc.x, tc.to.Name(), got, err, tc.want, tc.code)
		}
	}
	for _, tc := range []struct {
		f      float64
		float4 bool
		want   string
	}{{0.1, false, "0.1"}, {1.0 / 3, false, "0.333333333333333"}, {1e20, false, "100000000000000000000"}, {0.5, true, "0.5"}} {
		if got := NumericString(NumericFromFloat64(tc.f, tc.float4)); got != tc.want {
			t.Errorf("%v::numeric = %s, want %s", tc.f, got, tc.want)
		}
	}
	if f := NumericToFloat64(mustNumeric(t, "-Infinity")); f > -1e308 {
		t.Errorf("-Infinity::float8 = %v", f)
	}
}
