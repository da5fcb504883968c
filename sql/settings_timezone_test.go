package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// TestTimeZoneQueries runs queries in a session TimeZone; the expected
// texts are PostgreSQL 15's for the same SET TimeZone and query. The
// VALUES lists keep values out of bind-time folding, so both the binder's
// constants and the executor's kernels are covered.
func TestTimeZoneQueries(t *testing.T) {
	tests := []struct {
		zone  string
		query string
		want  []string
	}{
		{zone: "America/Denver", query: "SELECT '2024-06-01 08:00Z'::timestamptz::text, '2024-06-01 08:00'::timestamptz::text", want: []string{"2024-06-01 02:00:00-06|2024-06-01 08:00:00-06"}},
		{zone: "America/Denver", query: "SELECT '2024-03-10 02:30'::timestamptz::text, '2024-11-03 01:30'::timestamptz::text", want: []string{"2024-03-10 03:30:00-06|2024-11-03 01:30:00-07"}},
		{zone: "America/Denver", query: "SELECT x::text, x::timestamp::text, x::date::text, x::time::text FROM (VALUES ('2024-06-01 03:00Z'::timestamptz), ('2024-11-03 08:30Z'::timestamptz)) v(x)", want: []string{"2024-05-31 21:00:00-06|2024-05-31 21:00:00|2024-05-31|21:00:00", "2024-11-03 01:30:00-07|2024-11-03 01:30:00|2024-11-03|01:30:00"}},
		{zone: "America/Denver", query: "SELECT x::timestamptz::text, x::date::timestamptz::text FROM (VALUES (timestamp '2024-03-10 02:30'), (timestamp '2024-11-03 01:30')) v(x)", want: []string{"2024-03-10 03:30:00-06|2024-03-10 00:00:00-07", "2024-11-03 01:30:00-07|2024-11-03 00:00:00-06"}},
		{zone: "America/Denver", query: "SELECT extract(hour FROM x)::text, date_part('day', x)::text, extract(epoch FROM x)::text FROM (VALUES ('2024-06-01 03:00Z'::timestamptz)) v(x)", want: []string{"21|31|1717210800.000000"}},
		{zone: "America/Denver", query: "SELECT date_trunc('day', x)::text, date_trunc('month', x)::text, date_trunc('hour', x)::text FROM (VALUES ('2024-11-03 08:30Z'::timestamptz), ('2024-03-01 03:00Z'::timestamptz)) v(x)", want: []string{"2024-11-03 00:00:00-06|2024-11-01 00:00:00-06|2024-11-03 01:00:00-07", "2024-02-29 00:00:00-07|2024-02-01 00:00:00-07|2024-02-29 20:00:00-07"}},
		{zone: "America/Denver", query: "SELECT (x + interval '1 day')::text, (x + interval '24 hours')::text, (x - interval '1 mon')::text FROM (VALUES ('2024-03-09 12:00'::timestamptz)) v(x)", want: []string{"2024-03-10 12:00:00-06|2024-03-10 13:00:00-06|2024-02-09 12:00:00-07"}},
		{zone: "America/Denver", query: "SELECT to_char(x, 'YYYY-MM-DD HH24:MI TZ OF') FROM (VALUES ('2024-06-01 08:00Z'::timestamptz)) v(x)", want: []string{"2024-06-01 02:00 MDT -06"}},
		{zone: "America/Denver", query: "SELECT age(x, y)::text FROM (VALUES ('2024-06-01 08:00Z'::timestamptz, '2024-03-01 08:00Z'::timestamptz)) v(x, y)", want: []string{"3 mons 01:00:00"}},
		{zone: "Asia/Kolkata", query: "SELECT '2024-06-01 08:00Z'::timestamptz::text, to_char('2024-06-01 08:00Z'::timestamptz, 'HH24:MI OF')", want: []string{"2024-06-01 13:30:00+05:30|13:30 +05:30"}},
		{zone: "Europe/Amsterdam", query: "SELECT '1900-06-01 08:00Z'::timestamptz::text", want: []string{"1900-06-01 08:19:32+00:19:32"}},
		{zone: "UTC+5", query: "SELECT '2024-06-01 08:00Z'::timestamptz::text, '2024-06-01 08:00'::timestamptz::text", want: []string{"2024-06-01 03:00:00-05|2024-06-01 08:00:00-05"}},
		{zone: "Australia/Lord_Howe", query: "SELECT '2024-04-07 01:45'::timestamptz::text, '2024-10-06 02:15'::timestamptz::text", want: []string{"2024-04-07 01:45:00+10:30|2024-10-06 02:45:00+11"}},
		{zone: "UTC", query: "SELECT '2024-06-01 08:00'::timestamptz::text, date_trunc('day', '2024-06-01 23:00Z'::timestamptz)::text", want: []string{"2024-06-01 08:00:00+00|2024-06-01 00:00:00+00"}},
		{zone: "Europe/Brussels", query: "SELECT make_timestamptz(2024, 3, 31, 2, 30, 0)::text, make_timestamptz(2024, 6, 1, 8, 0, 0, 'Asia/Kolkata')::text", want: []string{"2024-03-31 03:30:00+02|2024-06-01 04:30:00+02"}},
		{zone: "Europe/Brussels", query: "SELECT (x AT TIME ZONE 'Europe/Brussels')::text, (x AT TIME ZONE 'UTC+5')::text FROM (VALUES (timestamp '2024-03-31 02:30'), (timestamp '2024-10-27 02:30')) v(x)", want: []string{"2024-03-31 03:30:00+02|2024-03-31 09:30:00+02", "2024-10-27 02:30:00+01|2024-10-27 08:30:00+01"}},
		{zone: "America/Denver", query: "SELECT (x AT TIME ZONE 'UTC')::text, timezone('Asia/Kolkata', x)::text FROM (VALUES ('2024-06-01 08:00'::timestamptz)) v(x)", want: []string{"2024-06-01 14:00:00|2024-06-01 19:30:00"}},
	}
	for _, tt := range tests {
		t.Run(tt.zone+" "+tt.query, func(t *testing.T) {
			s := newTestSession(t)
			rows, _, err := run(t, s, "SET TimeZone = '"+tt.zone+"'; "+tt.query)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rows, "\n") != strings.Join(tt.want, "\n") {
				t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(rows, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

// TestTimeZoneSetting covers SET, SHOW and RESET of TimeZone and its
// spellings, as PostgreSQL reports them.
func TestTimeZoneSetting(t *testing.T) {
	tests := []struct {
		query    string
		want     string
		wantCode string
	}{
		{query: "SHOW TimeZone", want: "UTC"},
		{query: "SET TimeZone = 'America/Denver'; SHOW TimeZone", want: "America/Denver"},
		{query: "SET TimeZone = 'asia/kolkata'; SHOW timezone", want: "Asia/Kolkata"},
		{query: "SET TIME ZONE 'utc'; SHOW TimeZone", want: "UTC"},
		{query: "SET TIME ZONE -7; SHOW TimeZone", want: "<-07>+07"},
		{query: "SET TimeZone = '+05:30'; SHOW TimeZone", want: "+05:30"},
		{query: "SET TimeZone = 'Europe/Paris'; RESET TimeZone; SHOW TimeZone", want: "UTC"},
		{query: "SET TimeZone = 'Europe/Paris'; SET TIME ZONE LOCAL; SHOW TimeZone", want: "UTC"},
		{query: "SET TimeZone = 'Europe/Paris'; SELECT current_setting('TimeZone')", want: "Europe/Paris"},
		{query: "SET TimeZone = 'Mars/Olympus'", wantCode: pgerror.InvalidParameterValue},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			s := newTestSession(t)
			rows, _, err := run(t, s, tt.query)
			if tt.wantCode != "" {
				var pe *pgerror.Error
				if !errors.As(err, &pe) || pe.Code != tt.wantCode {
					t.Fatalf("want %s, got %v", tt.wantCode, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 1 || rows[0] != tt.want {
				t.Fatalf("got %q, want %q", rows, tt.want)
			}
		})
	}
}
