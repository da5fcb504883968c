package types

import (
	"strings"
	"testing"
	"time"
)

// TestDatetimeInputMatchesPostgres: each input as PostgreSQL 15 (DateStyle
// ISO, MDY; TimeZone UTC) reads it, printed as it prints it: the value of
// ::date, or of ::timestamp and ::timestamptz separated by |, or the first
// line of its error.
func TestDatetimeInputMatchesPostgres(t *testing.T) {
	tests := []struct {
		typ      T
		in, want string
	}{
		{Date, "1999-01-08", "1999-01-08"},
		{Date, "January 8, 1999", "1999-01-08"},
		{Date, "January 8 1999", "1999-01-08"},
		{Date, "1/8/1999", "1999-01-08"},
		{Date, "1/18/1999", "1999-01-18"},
		{Date, "01/02/03", "2003-01-02"},
		{Date, "1999-Jan-08", "1999-01-08"},
		{Date, "Jan-08-1999", "1999-01-08"},
		{Date, "08-Jan-1999", "1999-01-08"},
		{Date, "99-Jan-08", `ERROR:  date/time field value out of range: "99-Jan-08"`},
		{Date, "08-Jan-99", "1999-01-08"},
		{Date, "Jan-08-99", "1999-01-08"},
		{Date, "19990108", "1999-01-08"},
		{Date, "990108", "1999-01-08"},
		{Date, "1999.008", "1999-01-08"},
		{Date, "J2451187", "1999-01-08"},
		{Date, "January 8, 99 BC", "0099-01-08 BC"},
		{Date, "0044-03-15 BC", "0044-03-15 BC"},
		{Date, "epoch", "1970-01-01"},
		{Date, "infinity", "infinity"},
		{Date, "-infinity", "-infinity"},
		{Date, "+infinity", `ERROR:  invalid input syntax for type date: "+infinity"`},
		{Date, "1999-01-08 04:05:06", "1999-01-08"},
		{Date, "1999-01-08T04:05:06", "1999-01-08"},
		{Date, "Fri Jan 08 1999", "1999-01-08"},
		{Date, "8 January 1999", "1999-01-08"},
		{Date, "1999-02-30", `ERROR:  date/time field value out of range: "1999-02-30"`},
		{Date, "0000-01-01", `ERROR:  date/time field value out of range: "0000-01-01"`},
		{Date, "4714-11-24 BC", "4714-11-24 BC"},
		{Date, "4714-11-23 BC", `ERROR:  date out of range: "4714-11-23 BC"`},
		{Date, "1999-13-01", `ERROR:  date/time field value out of range: "1999-13-01"`},
		{Date, "xyz", `ERROR:  invalid input syntax for type date: "xyz"`},
		{Date, "1999/01/08", "1999-01-08"},
		{Date, "2000-01-01 24:00:00", "2000-01-01"},
		{Date, "99-01-08", `ERROR:  date/time field value out of range: "99-01-08"`},
		{Date, "Jan 8 99", "1999-01-08"},
		{Date, "  1999-01-08  ", "1999-01-08"},
		{Date, "1999-1-8", "1999-01-08"},
		{Date, "JANUARY 8, 1999", "1999-01-08"},
		{Date, "jan 8 1999 bc", "1999-01-08 BC"},
		{Date, "1999-01-08 04:05:06.1234567", "1999-01-08"},
		{Date, "1999-01-08 04:05:06 +05:30", "1999-01-08"},
		{Date, "1999-01-08 04:05:06+0530", "1999-01-08"},
		{Date, "1999-01-08 04:05:06 Europe/Paris", "1999-01-08"},
		{Date, "1999-01-08 4:5:6", "1999-01-08"},
		{Date, "2000-01-01 24:00", "2000-01-01"},
		{Date, "2000-02-29", "2000-02-29"},
		{Date, "2001-02-29", `ERROR:  date/time field value out of range: "2001-02-29"`},
		{Date, "May 5", `ERROR:  invalid input syntax for type date: "May 5"`},
		{Date, "1999", `ERROR:  invalid input syntax for type date: "1999"`},
		{Date, "1999-01-08 04:05:06 allballs", `ERROR:  invalid input syntax for type date: "1999-01-08 04:05:06 allballs"`},
		{Date, "1999-01-08 allballs", "1999-01-08"},
		{Date, "12/31/1999 11:59 PM", "1999-12-31"},
		{Date, "1999-01-08 00:00:00 AD", "1999-01-08"},
		{Date, "10000-01-01", "10000-01-01"},
		{Date, "294276-12-31 23:59:59", "294276-12-31"},
		{Date, "294277-01-01", "294277-01-01"},
		{Date, "5874897-12-31", "5874897-12-31"},
		{Date, "5874898-01-01", `ERROR:  date out of range: "5874898-01-01"`},
		{Date, "1999-01-08 04:05:06 Z", "1999-01-08"},
		{Date, "1999-01-08 04:05:06.5 -08", "1999-01-08"},
		{Date, "010199", `ERROR:  date/time field value out of range: "010199"`},
		{Date, "99-01-08", `ERROR:  date/time field value out of range: "99-01-08"`},
		{Date, "J0", "4714-11-24 BC"},
		{Date, "1999.366", "2000-01-01"},
		{Date, "2000.366", "2000-12-31"},
		{Date, "0001-01-01 BC", "0001-01-01 BC"},
		{Date, "1 BC", `ERROR:  invalid input syntax for type date: "1 BC"`},
		{Timestamp, "2000-01-01 24:00:00", "2000-01-02 00:00:00|2000-01-02 00:00:00+00"},
		{Timestamp, "2000-01-01 24:00:01", `ERROR:  date/time field value out of range: "2000-01-01 24:00:01"`},
		{Timestamp, "2000-01-01 25:00:00", `ERROR:  date/time field value out of range: "2000-01-01 25:00:00"`},
		{Timestamp, "1999-01-08 04:05:06", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "1999-01-08 04:05:06.789", "1999-01-08 04:05:06.789|1999-01-08 04:05:06.789+00"},
		{Timestamp, "1999-01-08T04:05:06Z", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "1999-01-08 04:05:06+02", "1999-01-08 04:05:06|1999-01-08 02:05:06+00"},
		{Timestamp, "1999-01-08 04:05:06 -07:00", "1999-01-08 04:05:06|1999-01-08 11:05:06+00"},
		{Timestamp, "January 8, 1999 04:05 PM", "1999-01-08 16:05:00|1999-01-08 16:05:00+00"},
		{Timestamp, "January 8, 1999 12:05 AM", "1999-01-08 00:05:00|1999-01-08 00:05:00+00"},
		{Timestamp, "1999-01-08 04:05:06 BC", "1999-01-08 04:05:06 BC|1999-01-08 04:05:06+00 BC"},
		{Timestamp, "0044-03-15 BC", "0044-03-15 00:00:00 BC|0044-03-15 00:00:00+00 BC"},
		{Timestamp, "Fri Jan 08 04:05:06 1999", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "1999-01-08 04:05:06 America/New_York", "1999-01-08 04:05:06|1999-01-08 09:05:06+00"},
		{Timestamp, "19990108 040506", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "epoch", "1970-01-01 00:00:00|1970-01-01 00:00:00+00"},
		{Timestamp, "infinity", "infinity|infinity"},
		{Timestamp, "1999-01-08", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "2000-01-01 13:00 PM", `ERROR:  date/time field value out of range: "2000-01-01 13:00 PM"`},
		{Timestamp, "1999-01-08 04:05", "1999-01-08 04:05:00|1999-01-08 04:05:00+00"},
		{Timestamp, "  1999-01-08  ", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "1999-1-8", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "JANUARY 8, 1999", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "jan 8 1999 bc", "1999-01-08 00:00:00 BC|1999-01-08 00:00:00+00 BC"},
		{Timestamp, "1999-01-08 04:05:06.1234567", "1999-01-08 04:05:06.123457|1999-01-08 04:05:06.123457+00"},
		{Timestamp, "1999-01-08 04:05:06 +05:30", "1999-01-08 04:05:06|1999-01-07 22:35:06+00"},
		{Timestamp, "1999-01-08 04:05:06+0530", "1999-01-08 04:05:06|1999-01-07 22:35:06+00"},
		{Timestamp, "1999-01-08 04:05:06 Europe/Paris", "1999-01-08 04:05:06|1999-01-08 03:05:06+00"},
		{Timestamp, "1999-01-08 4:5:6", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "2000-01-01 24:00", "2000-01-02 00:00:00|2000-01-02 00:00:00+00"},
		{Timestamp, "2000-02-29", "2000-02-29 00:00:00|2000-02-29 00:00:00+00"},
		{Timestamp, "2001-02-29", `ERROR:  date/time field value out of range: "2001-02-29"`},
		{Timestamp, "May 5", `ERROR:  invalid input syntax for type timestamp: "May 5"`},
		{Timestamp, "1999", `ERROR:  invalid input syntax for type timestamp: "1999"`},
		{Timestamp, "1999-01-08 04:05:06 allballs", `ERROR:  invalid input syntax for type timestamp: "1999-01-08 04:05:06 allballs"`},
		{Timestamp, "1999-01-08 allballs", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "12/31/1999 11:59 PM", "1999-12-31 23:59:00|1999-12-31 23:59:00+00"},
		{Timestamp, "1999-01-08 00:00:00 AD", "1999-01-08 00:00:00|1999-01-08 00:00:00+00"},
		{Timestamp, "10000-01-01", "10000-01-01 00:00:00|10000-01-01 00:00:00+00"},
		{Timestamp, "294277-01-01", `ERROR:  timestamp out of range: "294277-01-01"`},
		{Timestamp, "5874897-12-31", `ERROR:  timestamp out of range: "5874897-12-31"`},
		{Timestamp, "5874898-01-01", `ERROR:  timestamp out of range: "5874898-01-01"`},
		{Timestamp, "1999-01-08 04:05:06 Z", "1999-01-08 04:05:06|1999-01-08 04:05:06+00"},
		{Timestamp, "1999-01-08 04:05:06.5 -08", "1999-01-08 04:05:06.5|1999-01-08 12:05:06.5+00"},
		{Timestamp, "010199", `ERROR:  date/time field value out of range: "010199"`},
		{Timestamp, "99-01-08", `ERROR:  date/time field value out of range: "99-01-08"`},
		{Timestamp, "J0", "4714-11-24 00:00:00 BC|4714-11-24 00:00:00+00 BC"},
		{Timestamp, "1999.366", "2000-01-01 00:00:00|2000-01-01 00:00:00+00"},
		{Timestamp, "2000.366", "2000-12-31 00:00:00|2000-12-31 00:00:00+00"},
		{Timestamp, "0001-01-01 BC", "0001-01-01 00:00:00 BC|0001-01-01 00:00:00+00 BC"},
		{Timestamp, "1 BC", `ERROR:  invalid input syntax for type timestamp: "1 BC"`},
	}
	for _, tt := range tests {
		t.Run(tt.typ.Name()+" "+tt.in, func(t *testing.T) {
			types := []T{tt.typ}
			if tt.typ.OID == OIDTimestamp {
				types = append(types, TimestampTZ)
			}
			var parts []string
			for _, typ := range types {
				v, err := ParseText(tt.in, typ)
				if err != nil {
					msg := err.Error()
					if i := strings.Index(msg, " (SQLSTATE"); i > 0 {
						msg = msg[:i]
					}
					parts = append(parts, "ERROR:  "+msg)
					break
				}
				parts = append(parts, printDatetime(v, typ))
			}
			if got := strings.Join(parts, "|"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func printDatetime(v any, typ T) string {
	switch x := v.(type) {
	case int32:
		b, bc := AppendDate(nil, int64(x))
		if bc {
			b = append(b, " BC"...)
		}
		return string(b)
	case int64:
		zone := ""
		if typ.OID == OIDTimestampTZ {
			zone = "+00"
		}
		return string(AppendTimestamp(nil, x, zone))
	}
	return "?"
}

// TestRelativeDatetimeInput: 'now', 'today', 'tomorrow' and 'yesterday'
// are read on the clock in the session zone.
func TestRelativeDatetimeInput(t *testing.T) {
	loc, err := LoadZone("America/Denver")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	year, month, day := now.In(loc).Date()
	midnight := time.Date(year, month, day, 0, 0, 0, 0, loc)
	for in, want := range map[string]time.Time{
		"today": midnight, "tomorrow": midnight.AddDate(0, 0, 1), "yesterday": midnight.AddDate(0, 0, -1),
	} {
		got, err := ParseTimestampIn(in, TimestampTZ, loc)
		if err != nil || got != want.UnixMicro() {
			t.Errorf("%s = %d, %v; want %d", in, got, err, want.UnixMicro())
		}
	}
	got, err := ParseTimestampIn("now", TimestampTZ, loc)
	if err != nil || got < now.UnixMicro() || got > time.Now().UnixMicro() {
		t.Errorf("now = %d, %v; want about %d", got, err, now.UnixMicro())
	}
	// Without the session zone a wall clock relative to now is refused,
	// not read in the wrong zone.
	for _, typ := range []T{Date, Timestamp} {
		if _, err := ParseText("today", typ); err == nil {
			t.Errorf("ParseText(today, %s) succeeded", typ.Name())
		}
	}
}
