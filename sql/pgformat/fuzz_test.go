package pgformat

import (
	"errors"
	"testing"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// requireSQLSTATE fails unless err is nil or a user-facing *pgerror.Error.
func requireSQLSTATE(t *testing.T, what string, err error) {
	t.Helper()
	var pe *pgerror.Error
	if err != nil && !errors.As(err, &pe) {
		t.Fatalf("%s: error %T without SQLSTATE: %v", what, err, err)
	}
}

// The fuzz targets check that no template or input makes the package
// panic; results themselves are covered by the PostgreSQL-checked cases.

func FuzzParseDateTime(f *testing.F) {
	for _, seed := range []struct{ format, input string }{
		{"YYYY-MM-DD HH24:MI:SS.US TZH:TZM", "2024-03-05 14:07:09.123456 +05:30"},
		{"FMDay, FMDDth FMMonth Y,YYY BC", "Tuesday, 5th March 2,024 AD"},
		{"IYYY-IW-ID IDDD J RM CC", "2024-10-3 100 2460375 XII 21"},
		{"\"quoted\\\"\" FX TMMon SSSSS FF1 a.m.", "quoted\" Mar 86399 5 p.m."},
		{"WW W Q DDD TZ OF", "10 2 1 065 UTC +00"},
		{"Y,YYY", "2,"},
		{"HH12", ""},
		{"DDD", "99999999999999999999"},
	} {
		f.Add(seed.format, seed.input, int64(0), int32(14), int32(3), int64(3723004005))
	}
	f.Fuzz(func(t *testing.T, format, input string, unixSec int64, months, days int32, micros int64) {
		tmpl, err := ParseDateTime(format)
		if err != nil {
			t.Fatalf("ParseDateTime(%q): %v", format, err)
		}
		// Keep the timestamp inside PostgreSQL's range.
		const span = int64(200000) * 365 * 86400
		ts := time.Unix(unixSec%span, 0).UTC()
		out := tmpl.AppendTimestamp(nil, ts, true)
		_ = tmpl.AppendTimestamp(out, ts, false)
		_ = tmpl.AppendInterval(nil, months, days, micros)
		_ = tmpl.ValidForInterval()
		_, err = tmpl.ParseTimestamp(input, time.UTC)
		requireSQLSTATE(t, "ParseTimestamp", err)
		_, _, _, err = tmpl.ParseDate(input)
		requireSQLSTATE(t, "ParseDate", err)
	})
}

func FuzzParseNumber(f *testing.F) {
	for _, seed := range []struct {
		format, number, input string
		v                     float64
	}{
		{"FM9,999,999.999", "1234567.891", "1,234,567.891", 1234567.891},
		{"S999.99PR", "-12.5", "<12.50>", -12.5},
		{"99V999", "12.3456", "12345", 12.3456},
		{"9.99EEEE", "-0.000123", "1.23e-4", -0.000123},
		{"FMRN", "1994", "MCMXCIV", 1994},
		{"L9G999D99th", "1234.5", "$1,234.50", 1234.5},
		{"0000MI", "-12", "0012-", -12},
		{"SG9.9S", "5", "+5.0", 5},
		{"\"x\\\"\"99", "NaN", "x\"42", 0},
	} {
		f.Add(seed.format, seed.number, seed.input, seed.v)
	}
	f.Fuzz(func(t *testing.T, format, number, input string, v float64) {
		tmpl, err := ParseNumber(format)
		if err != nil {
			requireSQLSTATE(t, "ParseNumber", err)
			return
		}
		_ = tmpl.AppendDecimal(nil, number)
		_ = tmpl.AppendFloat(nil, v, 64)
		_ = tmpl.AppendFloat(nil, v, 32)
		_, err = tmpl.ToNumber(input)
		requireSQLSTATE(t, "ToNumber", err)
	})
}
