package types

import (
	"encoding/binary"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

func TestIntervalTextRoundTrip(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"1 day 02:03:04.5", "1 day 02:03:04.5"},
		{"-1 day +2 hours", "-1 days +02:00:00"},
		{"1.5 months", "1 mon 15 days"},
		{"@ 1 hour ago", "-01:00:00"},
		{"P1Y2M3DT4H5M6S", "1 year 2 mons 3 days 04:05:06"},
		{"0", "00:00:00"},
		{"-2 years -3 mons", "-2 years -3 mons"},
		{"1 02:00", "1 day 02:00:00"},
		{"100 hours", "100:00:00"},
		{"1 microsecond", "00:00:00.000001"},
	}
	for _, tt := range tests {
		iv, err := ParseInterval(tt.in, IntervalFullRange)
		if err != nil {
			t.Fatalf("ParseInterval(%q): %v", tt.in, err)
		}
		if got := string(AppendInterval(nil, iv)); got != tt.want {
			t.Errorf("ParseInterval(%q) prints %q, want %q", tt.in, got, tt.want)
		}
		back, err := ParseInterval(tt.want, IntervalFullRange)
		if err != nil || back != iv {
			t.Errorf("%q does not read back: %v %v", tt.want, back, err)
		}
	}
}

func TestIntervalInputErrors(t *testing.T) {
	tests := []struct {
		in   string
		code string
	}{
		{"one day", pgerror.InvalidDatetimeFormat},
		{"", pgerror.InvalidDatetimeFormat},
		{"1 fortnight", pgerror.InvalidDatetimeFormat},
		{"3000000000 days", pgerror.IntervalFieldOverflow},
		{"P1Q", pgerror.InvalidDatetimeFormat},
	}
	for _, tt := range tests {
		_, err := ParseInterval(tt.in, IntervalFullRange)
		if pgerror.Code(err) != tt.code {
			t.Errorf("ParseInterval(%q) = %v, want SQLSTATE %s", tt.in, err, tt.code)
		}
	}
}

func TestTimeInput(t *testing.T) {
	tests := []struct {
		in   string
		want string
		code string
	}{
		{"12:34:56.789", "12:34:56.789", ""},
		{"7:05 pm", "19:05:00", ""},
		{"12:00 am", "00:00:00", ""},
		{"24:00", "24:00:00", ""},
		{"2024-01-02 03:04:05", "03:04:05", ""},
		{"25:00", "", pgerror.DatetimeFieldOverflow},
		{"noon", "", pgerror.InvalidDatetimeFormat},
	}
	for _, tt := range tests {
		v, err := ParseTime(tt.in)
		if tt.code != "" {
			if pgerror.Code(err) != tt.code {
				t.Errorf("ParseTime(%q) = %v, want SQLSTATE %s", tt.in, err, tt.code)
			}
			continue
		}
		if err != nil || string(AppendTime(nil, v)) != tt.want {
			t.Errorf("ParseTime(%q) = %s, %v; want %s", tt.in, AppendTime(nil, v), err, tt.want)
		}
	}
}

func TestBinaryIntervalTimeAndArray(t *testing.T) {
	var iv []byte
	iv = binary.BigEndian.AppendUint64(iv, uint64(3723000001))
	iv = binary.BigEndian.AppendUint32(iv, uint32(0xFFFFFFFD)) // -3 days
	iv = binary.BigEndian.AppendUint32(iv, 14)
	got, err := DecodeBinary(iv, Interval)
	if want := (IntervalValue{Months: 14, Days: -3, Micros: 3723000001}); err != nil || got != want {
		t.Errorf("binary interval = %v, %v; want %v", got, err, want)
	}
	if _, err := DecodeBinary(binary.BigEndian.AppendUint64(nil, uint64(MicrosPerDay+1)), Time); pgerror.Code(err) != pgerror.DatetimeFieldOverflow {
		t.Errorf("time past 24:00 = %v, want 22008", err)
	}
	// int4[] {7, NULL}: ndim 1, has nulls, element oid 23, length 2, lower bound 1.
	var arr []byte
	for _, v := range []uint32{1, 1, 23, 2, 1, 4, 7, 0xFFFFFFFF} {
		arr = binary.BigEndian.AppendUint32(arr, v)
	}
	out, err := DecodeBinary(arr, Int4Array)
	if err != nil {
		t.Fatal(err)
	}
	vals := out.([]any)
	if len(vals) != 2 || vals[0] != int64(7) || vals[1] != nil {
		t.Errorf("int4[] = %v", vals)
	}
	if _, err := DecodeBinary(arr[:len(arr)-2], Int4Array); err == nil {
		t.Error("truncated array decoded")
	}
}
