package sqllogictest

import (
	"testing"

	"github.com/sqe-db/sqe/sql/types"
)

func TestRender(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		oid  uint32
		in   *string
		want string
	}{
		{types.OIDInt4, nil, "NULL"},
		{types.OIDBool, str("t"), "true"},
		{types.OIDBool, str("f"), "false"},
		{types.OIDText, str(""), "(empty)"},
		{types.OIDVarchar, str("a\n"), "a"},
		{types.OIDInt8, str("-9110406195556445909"), "-9110406195556445909"},
		{types.OIDNumeric, str("7.8100000000000000"), "7.8100000000000000"},
		{types.OIDFloat8, str("0.1411200080598672"), "0.14112000806"},
		{types.OIDFloat8, str("-0.6536436208636119"), "-0.653643620864"},
		{types.OIDFloat8, str("1"), "1"},
		{types.OIDFloat8, str("0.5000000000005"), "0.5"},            // half to even: ...0|5 rounds down
		{types.OIDFloat8, str("0.0000000000015"), "0.000000000002"}, // ...1|5 rounds up
		{types.OIDFloat8, str("-0.0000000000001"), "0"},
		{types.OIDFloat8, str("NaN"), "NaN"},
		{types.OIDFloat8, str("-Infinity"), "-Infinity"},
		{types.OIDFloat4, str("0.12285209"), "0.12285209"},
		{types.OIDFloat4, str("1.023"), "1.023"},
		{types.OIDFloat4, str("Infinity"), "Infinity"},
		{types.OIDTimestamp, str("2024-07-01 06:30:00"), "2024-07-01T06:30:00"},
		{types.OIDTimestamp, str("2018-01-01 12:00:00.5"), "2018-01-01T12:00:00.500"},
		{types.OIDTimestamp, str("2018-01-01 12:00:00.1234"), "2018-01-01T12:00:00.123400"},
		{types.OIDTime, str("12:00:01"), "12:00:01"},
		{types.OIDDate, str("2018-01-01"), "2018-01-01"},
		{types.OIDTimestampTZ, str("2024-07-01 00:00:00+00"), "2024-07-01 00:00:00+00"},
	}
	for _, tt := range tests {
		if got := Render(tt.oid, tt.in); got != tt.want {
			in := "NULL"
			if tt.in != nil {
				in = *tt.in
			}
			t.Errorf("Render(%d, %q) = %q, want %q", tt.oid, in, got, tt.want)
		}
	}
}
