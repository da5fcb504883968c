package types

import (
	"encoding/binary"
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
