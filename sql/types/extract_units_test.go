package types

import (
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestExtractUnit(t *testing.T) {
	cases := []struct {
		unit  string
		typ   T
		want  string
		scale int32
		code  string
	}{
		{unit: "YEAR", typ: Timestamp, want: "year"},
		{unit: "seconds", typ: TimestampTZ, want: "second", scale: 6},
		{unit: "microseconds", typ: Time, want: "microsecond"},
		{unit: "ms", typ: Interval, want: "millisecond", scale: 3},
		{unit: "epoch", typ: Date, want: "epoch"},
		{unit: "epoch", typ: Timestamp, want: "epoch", scale: 6},
		{unit: "hour", typ: Date, code: pgerror.FeatureNotSupported},
		{unit: "day", typ: Time, code: pgerror.FeatureNotSupported},
		{unit: "dow", typ: Interval, code: pgerror.FeatureNotSupported},
		{unit: "julian", typ: Date, code: pgerror.FeatureNotSupported},
		{unit: "now", typ: Timestamp, code: pgerror.FeatureNotSupported},
		{unit: "", typ: Date, code: pgerror.InvalidParameterValue},
		{unit: " year", typ: Timestamp, code: pgerror.InvalidParameterValue},
		{unit: "abc", typ: Interval, code: pgerror.InvalidParameterValue},
	}
	for _, c := range cases {
		got, scale, err := ExtractUnit(c.unit, c.typ)
		if c.code != "" {
			pe, ok := err.(*pgerror.Error)
			if !ok || pe.Code != c.code {
				t.Errorf("ExtractUnit(%q, %s): error %v, want SQLSTATE %s", c.unit, c.typ.Name(), err, c.code)
			}
			continue
		}
		if err != nil || got != c.want || scale != c.scale {
			t.Errorf("ExtractUnit(%q, %s) = %q, %d, %v; want %q, %d", c.unit, c.typ.Name(), got, scale, err, c.want, c.scale)
		}
	}
}
