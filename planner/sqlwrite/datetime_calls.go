package sqlwrite

import (
	"math"
	"strings"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/types"
)

// exactMakeInterval reports a make_interval(years, months, weeks, days,
// hours, mins, secs) call (as bound: every argument given, the integers
// as bigint) that PostgreSQL 15 computes as SQE does. Its integer
// arithmetic wraps around where SQE's fails, and SQE sums the time parts
// in float8 where PostgreSQL rounds the seconds first and adds integers;
// so the call is written only when its arguments are constants with
// which no part leaves its range and every sum is exact: integers that
// PostgreSQL takes as integer, a whole number of microseconds, and a time
// part under 2^53 microseconds.
func exactMakeInterval(f *planner.Func) bool {
	if len(f.Args) != 7 || f.Args[6].Type().OID != types.OIDFloat8 {
		return false
	}
	var n [6]int64
	for i := range n {
		c, ok := f.Args[i].(*planner.Const)
		if !ok || !int4Arg(c) {
			return false
		}
		if n[i], ok = c.Value.(int64); !ok {
			return false
		}
	}
	c, ok := f.Args[6].(*planner.Const)
	if !ok {
		return false
	}
	secs, ok := c.Value.(float64)
	micros := secs * 1e6
	if !ok || math.IsInf(micros, 0) || micros != math.Trunc(micros) {
		return false
	}
	years, months, weeks, days, hours, mins := n[0], n[1], n[2], n[3], n[4], n[5]
	// SQE fails on -2^31 too.
	in32 := func(v int64) bool { return v >= -math.MaxInt32 && v <= math.MaxInt32 }
	if !in32(years*12) || !in32(years*12+months) || !in32(weeks*7) || !in32(weeks*7+days) {
		return false
	}
	abs := func(v int64) float64 { return math.Abs(float64(v)) }
	return abs(hours)*3_600_000_000+abs(mins)*60_000_000+math.Abs(micros) < 1<<53
}

// ianaArea reports an area of the IANA time zone database's names
// (Area/Location).
func ianaArea(area string) bool {
	switch area {
	case "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific", "Etc":
		return true
	}
	return false
}

// namedZone reports timezone(zone, x), x AT TIME ZONE zone over a
// timestamp with or without time zone, whose zone is a constant that
// PostgreSQL and SQE read as the same zone of the time zone database:
// UTC, or an Area/Location name as the database spells it. Such a zone
// does not depend on the session's. Other spellings are read
// differently: PostgreSQL takes an abbreviation (CET, PST) as a fixed
// offset before a zone of that name, and reads POSIX strings its own way.
func namedZone(f *planner.Func) bool {
	if f.Name != "timezone" || len(f.Args) != 2 || !isText(f.Args[0].Type()) {
		return false
	}
	if at := f.Args[1].Type().OID; at != types.OIDTimestamp && at != types.OIDTimestampTZ {
		return false
	}
	c, ok := f.Args[0].(*planner.Const)
	if !ok {
		return false
	}
	zone, ok := c.Value.(string)
	if !ok {
		return false
	}
	if zone != "UTC" {
		area, _, named := strings.Cut(zone, "/")
		if !named || !ianaArea(area) {
			return false
		}
		for _, r := range zone {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/_-+", r)) {
				return false
			}
		}
	}
	loc, err := types.LoadZone(zone)
	return err == nil && (zone == "UTC" || loc.String() == zone)
}
