package sql

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// timeUnits are the units PostgreSQL accepts for a time setting, largest
// first, as SHOW picks the largest that divides the value.
var timeUnits = []struct {
	name string
	d    time.Duration
}{
	{"d", 24 * time.Hour},
	{"h", time.Hour},
	{"min", time.Minute},
	{"s", time.Second},
	{"ms", time.Millisecond},
	{"us", time.Microsecond},
}

// parseTimeSetting reads a time setting such as statement_timeout as
// PostgreSQL's parse_int does for a parameter kept in milliseconds: a
// number, optionally followed by a unit, rounded to whole milliseconds and
// within 0 .. INT_MAX ms.
func parseTimeSetting(name, value string) (time.Duration, error) {
	v := strings.TrimSpace(value)
	num := strings.TrimRight(v, "abcdefghijklmnopqrstuvwxyz ")
	unit := strings.TrimSpace(v[len(num):])
	bad := pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, value)
	var f float64
	if n, err := strconv.ParseInt(num, 0, 64); err == nil {
		f = float64(n)
	} else if f, err = strconv.ParseFloat(num, 64); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, bad
	}
	scale := time.Millisecond
	if unit != "" {
		found := false
		for _, u := range timeUnits {
			if u.name == unit {
				scale, found = u.d, true
			}
		}
		if !found {
			return 0, bad.WithHint("Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".")
		}
	}
	ms := math.RoundToEven(f * float64(scale) / float64(time.Millisecond))
	if ms < 0 || ms > math.MaxInt32 {
		return 0, pgerror.New(pgerror.InvalidParameterValue,
			"%.0f ms is outside the valid range for parameter \"%s\" (0 .. %d)", ms, name, math.MaxInt32)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// formatTimeSetting is SHOW's spelling of a time setting: "0", or the
// value in the largest unit that divides it ("5s", "1500ms").
func formatTimeSetting(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	for _, u := range timeUnits {
		if d%u.d == 0 {
			return strconv.FormatInt(int64(d/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(d/time.Microsecond), 10) + "us"
}

// statementLimits are the limits a query of the running statement runs
// under: the server's per-query memory limit, and the end its timeout
// (statementTimeout) sets, counted from the statement's start.
func (s *Session) statementLimits() queryLimits {
	l := queryLimits{memory: s.engine.cfg.MemoryLimit, spill: s.engine.cfg.Spill}
	d := s.statementTimeout()
	if d == 0 {
		return l
	}
	start := s.clock.statement
	if start.IsZero() {
		start = time.Now()
	}
	l.deadline = start.Add(d)
	return l
}
