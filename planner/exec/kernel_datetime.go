package exec

import (
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// Dates are days and timestamps microseconds since 1970-01-01 (UTC for
// timestamptz, which sessions also display in UTC), so the calendar work
// is done on time.Time in UTC. time.Time counts years astronomically
// (year 0 is 1 BC), as PostgreSQL's struct pg_tm does.

const microsPerDayExec = 86_400_000_000

// makeDate is make_date(year, month, day); a negative year is BC.
func makeDate(args []arrow.Array, res types.T) (arrow.Array, error) {
	ys, ms, ds := intsOf(args[0]), intsOf(args[1]), intsOf(args[2])
	n := args[0].Len()
	out := make([]int32, n)
	valid := make([]bool, n)
	for i := 0; i < n; i++ {
		if anyNull(args, i) {
			continue
		}
		y, m, d := ys[i], ms[i], ds[i]
		astro := y
		if y < 0 {
			astro = y + 1
		}
		t := time.Date(int(astro), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
		if y == 0 || m < 1 || m > 12 || d < 1 || t.Day() != int(d) || t.Month() != time.Month(m) {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, m, d)
		}
		out[i] = int32(t.Unix() / 86400)
		valid[i] = true
	}
	b := array.NewDate32Builder(memory.DefaultAllocator)
	defer b.Release()
	for i, v := range out {
		if !valid[i] {
			b.AppendNull()
			continue
		}
		b.Append(arrow.Date32(v))
	}
	return b.NewArray(), nil
}

// dateTrunc is date_trunc(unit, timestamp[tz]).
func dateTrunc(args []arrow.Array, res types.T) (arrow.Array, error) {
	units := strArg(args[0])
	ts := args[1].(*array.Timestamp)
	b := array.NewTimestampBuilder(memory.DefaultAllocator, res.Arrow().(*arrow.TimestampType))
	defer b.Release()
	for i := 0; i < ts.Len(); i++ {
		if anyNull(args, i) {
			b.AppendNull()
			continue
		}
		if types.IsInfiniteTimestamp(int64(ts.Value(i))) {
			// Infinity truncates to itself (before the unit is read, as
			// in PostgreSQL).
			b.Append(ts.Value(i))
			continue
		}
		v, err := truncateMicros(strings.ToLower(units.Value(i)), int64(ts.Value(i)), res)
		if err != nil {
			return nil, err
		}
		b.Append(arrow.Timestamp(v))
	}
	return b.NewArray(), nil
}

// truncateMicros truncates micros to unit as PostgreSQL's
// timestamp_trunc does.
func truncateMicros(unit string, micros int64, res types.T) (int64, error) {
	floor := func(step int64) int64 {
		q := micros / step
		if micros%step < 0 {
			q--
		}
		return q * step
	}
	switch unit {
	case "microseconds", "microsecond", "us", "usec", "usecs", "useconds":
		return micros, nil
	case "milliseconds", "millisecond", "ms", "msec", "msecs", "mseconds":
		return floor(1_000), nil
	case "second", "seconds", "sec", "secs", "s":
		return floor(1_000_000), nil
	case "minute", "minutes", "min", "mins", "m":
		return floor(60_000_000), nil
	case "hour", "hours", "hr", "hrs", "h":
		return floor(3_600_000_000), nil
	case "day", "days", "d":
		return floor(microsPerDayExec), nil
	}
	t := time.UnixMicro(micros).UTC()
	y, m, d := t.Date()
	switch unit {
	case "week", "weeks", "w":
		// ISO weeks start on Monday.
		back := (int(t.Weekday()) + 6) % 7
		d -= back
	case "month", "months", "mon", "mons":
		d = 1
	case "quarter", "qtr":
		m, d = (m-1)/3*3+1, 1
	case "year", "years", "yr", "yrs", "y":
		m, d = 1, 1
	case "decade", "decades":
		if y > 0 {
			y = y / 10 * 10
		} else {
			y = -((8 - (y - 1)) / 10) * 10
		}
		m, d = 1, 1
	case "century", "centuries":
		if y > 0 {
			y = (y+99)/100*100 - 99
		} else {
			y = -((99-(y-1))/100)*100 + 1
		}
		m, d = 1, 1
	case "millennium", "millennia":
		if y > 0 {
			y = (y+999)/1000*1000 - 999
		} else {
			y = -((999-(y-1))/1000)*1000 + 1
		}
		m, d = 1, 1
	default:
		return 0, pgerror.New(pgerror.InvalidParameterValue, "unit \"%s\" not recognized for type %s", unit, res.Name())
	}
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).UnixMicro(), nil
}
