package compattests

import (
	"strings"
	"testing"
	"time"
)

// TestSessionTimeZone follows a session's TimeZone over the wire: the zone
// a client sends at startup (as pgjdbc does), SET TimeZone and the
// ParameterStatus that reports it, timestamptz text output and input in
// the zone, and RESET back to the startup value. Expected texts are
// PostgreSQL 15's.
func TestSessionTimeZone(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	cfg := pgxConfig(t, shared.server, "alice", demoDatabase, "disable", shared.token)
	cfg.RuntimeParams["TimeZone"] = "Asia/Kolkata"
	conn := connectConfig(t, ctx, cfg)
	pc := conn.PgConn()
	if got := pc.ParameterStatus("TimeZone"); got != "Asia/Kolkata" {
		t.Fatalf("ParameterStatus TimeZone after startup = %q, want Asia/Kolkata", got)
	}
	steps := []struct {
		sql        string
		want       []string
		wantReport string // ParameterStatus TimeZone after the statement
	}{
		{sql: "SELECT '2024-06-01 08:00:00Z'::timestamptz", want: []string{"2024-06-01 13:30:00+05:30"}, wantReport: "Asia/Kolkata"},
		{sql: "SET TimeZone = 'America/Denver'", wantReport: "America/Denver"},
		{sql: "SELECT '2024-06-01 08:00:00Z'::timestamptz, '2024-06-01 08:00'::timestamptz, '1850-06-01 08:00Z'::timestamptz",
			want: []string{"2024-06-01 02:00:00-06|2024-06-01 08:00:00-06|1850-06-01 01:00:04-06:59:56"}, wantReport: "America/Denver"},
		{sql: "SELECT array['2024-01-15 12:00Z'::timestamptz]", want: []string{`{"2024-01-15 05:00:00-07"}`}, wantReport: "America/Denver"},
		{sql: "SELECT current_setting('TimeZone')", want: []string{"America/Denver"}, wantReport: "America/Denver"},
		{sql: "SET TIME ZONE 'UTC+5'", wantReport: "UTC+5"},
		{sql: "SELECT '2024-06-01 08:00Z'::timestamptz", want: []string{"2024-06-01 03:00:00-05"}, wantReport: "UTC+5"},
		{sql: "SET TIME ZONE -7", wantReport: "<-07>+07"},
		{sql: "SHOW TimeZone", want: []string{"<-07>+07"}, wantReport: "<-07>+07"},
		{sql: "RESET TimeZone", wantReport: "Asia/Kolkata"},
		{sql: "SET TimeZone = 'Europe/Paris'; SET TIME ZONE LOCAL", wantReport: "Asia/Kolkata"},
	}
	for _, st := range steps {
		results, err := pc.Exec(ctx, st.sql).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", st.sql, err)
		}
		if st.want != nil {
			if got := textRows(results); strings.Join(got, "\n") != strings.Join(st.want, "\n") {
				t.Errorf("%s: got %q, want %q", st.sql, got, st.want)
			}
		}
		if got := pc.ParameterStatus("TimeZone"); got != st.wantReport {
			t.Errorf("%s: ParameterStatus TimeZone = %q, want %q", st.sql, got, st.wantReport)
		}
	}
	_, err := pc.Exec(ctx, "SET TimeZone = 'Mars/Olympus'").ReadAll()
	if pe := asPgError(t, err); pe.Code != "22023" {
		t.Errorf("unknown zone: SQLSTATE %s, want 22023", pe.Code)
	}
}

// TestSessionTimeZoneParameters sends a timestamptz parameter as text
// without an offset over the extended protocol: it is a wall clock in the
// session zone, as in PostgreSQL.
func TestSessionTimeZoneParameters(t *testing.T) {
	t.Parallel()
	ctx := testContext(t, 30*time.Second)
	conn := connect(t, ctx, shared.server, shared.token)
	pc := conn.PgConn()
	if _, err := pc.Exec(ctx, "SET TimeZone = 'America/Denver'").ReadAll(); err != nil {
		t.Fatal(err)
	}
	res := pc.ExecParams(ctx, "SELECT $1::timestamptz::text, extract(hour FROM $1::timestamptz)::int", [][]byte{[]byte("2024-06-01 08:00")}, []uint32{1184}, nil, nil).Read()
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	if len(res.Rows) != 1 || string(res.Rows[0][0]) != "2024-06-01 08:00:00-06" || string(res.Rows[0][1]) != "8" {
		t.Fatalf("got %q", res.Rows)
	}
}
