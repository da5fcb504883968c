package exec_test

import (
	"context"
	"strings"
	"testing"
	"time"
	// The zone database is embedded so the test runs on any machine.
	_ "time/tzdata"

	"github.com/sqe-db/sqe/planner/exec"
)

// TestWindowRangeTimestampTZInZone measures a timestamptz RANGE offset of
// '1 day' on the session zone's wall clock, across the 2024 DST change in
// New York, where a day is 23 hours. Expected output is PostgreSQL 15's
// with TimeZone America/New_York; in UTC both frames of the second and
// third rows hold two rows.
func TestWindowRangeTimestampTZInZone(t *testing.T) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatalf("load zone: %v", err)
	}
	ctx := exec.WithTimeZone(context.Background(), loc)
	const sql = `SELECT count(*) OVER (ORDER BY ts RANGE BETWEEN '1 day' PRECEDING AND CURRENT ROW) AS c, count(*) OVER (ORDER BY ts DESC RANGE BETWEEN '1 day' PRECEDING AND CURRENT ROW) AS d FROM (VALUES (TIMESTAMPTZ '2024-03-09 16:30Z'), (TIMESTAMPTZ '2024-03-10 16:00Z'), (TIMESTAMPTZ '2024-03-11 15:30Z')) v(ts) ORDER BY ts`
	_, rows, err := runQueryIn(ctx, t, newTestTable(t), sql, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rows, " "), "1|1 1|2 2|1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	_, rows, err = runQuery(t, newTestTable(t), sql)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rows, " "), "1|2 2|2 2|1"; got != want {
		t.Errorf("in UTC: got %s, want %s", got, want)
	}
}
