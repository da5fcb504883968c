package types

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestInfiniteDatetimeText(t *testing.T) {
	tests := []struct {
		in   string
		typ  T
		want any
		text string
	}{
		{"infinity", Date, DatePosInfinity, "infinity"},
		{" -Infinity ", Date, DateNegInfinity, "-infinity"},
		{"INFINITY", Timestamp, TimestampPosInfinity, "infinity"},
		{"-infinity", TimestampTZ, TimestampNegInfinity, "-infinity"},
	}
	for _, tt := range tests {
		v, err := ParseText(tt.in, tt.typ)
		if err != nil || v != tt.want {
			t.Errorf("ParseText(%q, %s) = %v, %v; want %v", tt.in, tt.typ.Name(), v, err, tt.want)
			continue
		}
		var out []byte
		switch x := v.(type) {
		case int32:
			out, _ = AppendDate(nil, int64(x))
		case int64:
			out = AppendTimestamp(nil, x, "+00")
		}
		if string(out) != tt.text {
			t.Errorf("%q as %s prints %q, want %q", tt.in, tt.typ.Name(), out, tt.text)
		}
	}
	for _, bad := range []string{"+infinity", "infinit", "infinity x"} {
		if _, err := ParseText(bad, Date); err == nil {
			t.Errorf("ParseText(%q, date) succeeded", bad)
		}
	}
}

func TestInfiniteDatetimeConversions(t *testing.T) {
	if got := DateToTimestamp(DatePosInfinity); got != TimestampPosInfinity {
		t.Errorf("DateToTimestamp(infinity) = %d", got)
	}
	if got := TimestampToDate(TimestampNegInfinity); got != DateNegInfinity {
		t.Errorf("TimestampToDate(-infinity) = %d", got)
	}
	if got := TimestampToDate(-1); got != -1 {
		t.Errorf("TimestampToDate(-1us) = %d, want -1 (the day before the epoch)", got)
	}
	if got, err := AddInterval(TimestampPosInfinity, IntervalValue{Months: 1, Days: 2, Micros: 3}); err != nil || got != TimestampPosInfinity {
		t.Errorf("infinity + interval = %d, %v", got, err)
	}
	if _, err := SubtractTimestamps(TimestampPosInfinity, 0); err == nil {
		t.Error("infinity - timestamp succeeded")
	}
}

func TestInfiniteDatetimeBinary(t *testing.T) {
	// PostgreSQL sends the infinities as the int32 / int64 extremes,
	// whatever its epoch.
	pos := DatePosInfinity
	d := binary.BigEndian.AppendUint32(nil, uint32(pos))
	if v, err := DecodeBinary(d, Date); err != nil || v != DatePosInfinity {
		t.Errorf("binary date infinity = %v, %v", v, err)
	}
	neg := TimestampNegInfinity
	ts := binary.BigEndian.AppendUint64(nil, uint64(neg))
	if v, err := DecodeBinary(ts, Timestamp); err != nil || v != TimestampNegInfinity {
		t.Errorf("binary timestamp -infinity = %v, %v", v, err)
	}
}

func TestDateRangeChecks(t *testing.T) {
	const day = int64(MicrosPerDay)
	cases := []struct {
		days     int32
		valid    bool
		micros   int64
		errorMsg string
	}{
		{days: 0, valid: true, micros: 0},
		{days: int32(minDateDays), valid: true, micros: MinTimestampMicros},
		{days: int32(minDateDays) - 1, valid: false, micros: MinTimestampMicros - day},
		{days: int32(dateEndDays) - 1, valid: true, errorMsg: "date out of range for timestamp"},
		{days: int32(dateEndDays), valid: false, errorMsg: "date out of range for timestamp"},
		{days: int32(timestampEndDays) - 1, valid: true, errorMsg: "timestamp out of range"},
		{days: int32(MaxTimestampMicros / day), valid: true, micros: MaxTimestampMicros / day * day},
		{days: DatePosInfinity, valid: false, micros: TimestampPosInfinity},
	}
	for _, c := range cases {
		if got := IsValidDate(int64(c.days)); got != c.valid {
			t.Errorf("IsValidDate(%d) = %v, want %v", c.days, got, c.valid)
		}
		micros, err := DateToTimestampChecked(c.days)
		if c.errorMsg != "" {
			if err == nil || !strings.Contains(err.Error(), c.errorMsg) {
				t.Errorf("DateToTimestampChecked(%d) = %d, %v; want error %q", c.days, micros, err, c.errorMsg)
			}
			continue
		}
		if err != nil || micros != c.micros {
			t.Errorf("DateToTimestampChecked(%d) = %d, %v; want %d", c.days, micros, err, c.micros)
		}
	}
}
