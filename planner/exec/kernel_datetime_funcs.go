package exec

import (
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// ageKernel is age(timestamp, timestamp).
func ageKernel() scalarKernel {
	return rowKernel(func(v []any) (any, error) { return types.Age(v[0].(int64), v[1].(int64)) })
}

// justifyKernel is justify_days, justify_hours or justify_interval, by
// name.
func justifyKernel(name string) scalarKernel {
	return rowKernel(func(v []any) (any, error) { return justify(name, v[0].(types.IntervalValue)) })
}

// toTimestampKernel is to_timestamp(text, template) and
// to_timestamp(float8), the seconds since the epoch.
func toTimestampKernel() scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		if len(args) == 2 {
			return parseTemplateKernel(false)(args, res)
		}
		return rowKernel(func(v []any) (any, error) { return epochToTimestamp(v[0].(float64)) })(args, res)
	}
}

// rowKernel runs fn on each row whose arguments are all non-NULL (a
// strict function), giving NULL otherwise.
func rowKernel(fn func([]any) (any, error)) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		n := args[0].Len()
		out := make([]any, n)
		in := make([]any, len(args))
		for r := 0; r < n; r++ {
			if anyNull(args, r) {
				continue
			}
			for i, a := range args {
				in[i] = valueAt(a, r)
			}
			v, err := fn(in)
			if err != nil {
				return nil, err
			}
			out[r] = v
		}
		return valuesArray(res, out)
	}
}

// makeTimestamp is make_timestamp(year, month, day, hour, min, sec).
func makeTimestamp(v []any) (any, error) {
	y, mo, d, h, mi := v[0].(int64), v[1].(int64), v[2].(int64), v[3].(int64), v[4].(int64)
	sec := v[5].(float64)
	if y == 0 || mo < 1 || mo > 12 || d < 1 || d > 31 {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", y, mo, d)
	}
	if h < 0 || h > 24 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || math.IsNaN(sec) {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%02g", h, mi, sec)
	}
	if y < 0 {
		y++ // astronomical year numbering: 1 BC is year 0
	}
	if int64(types.DaysInMonth(y, int(mo))) < d {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date field value out of range: %d-%02d-%02d", v[0].(int64), mo, d)
	}
	days, _ := types.DaysFromCivil(y, int(mo), int(d))
	return days*types.MicrosPerDay + h*3_600_000_000 + mi*60_000_000 + int64(math.RoundToEven(sec*1e6)), nil
}

// makeTime is make_time(hour, min, sec).
func makeTime(v []any) (any, error) {
	h, mi, sec := v[0].(int64), v[1].(int64), v[2].(float64)
	micros := h*3_600_000_000 + mi*60_000_000 + int64(math.RoundToEven(sec*1e6))
	if h < 0 || mi < 0 || mi > 59 || sec < 0 || sec > 60 || math.IsNaN(sec) || micros > types.MicrosPerDay {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "time field value out of range: %d:%02d:%02g", h, mi, sec)
	}
	return micros, nil
}

// makeIntervalKernel is make_interval(years, months, weeks, days, hours,
// mins, secs); arguments left out are 0.
func makeIntervalKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	if len(args) == 0 {
		return nil, pgerror.Unsupported("make_interval() without arguments is not supported yet")
	}
	return rowKernel(func(v []any) (any, error) {
		var f [7]float64
		for i, x := range v {
			switch n := x.(type) {
			case int64:
				f[i] = float64(n)
			case float64:
				f[i] = n
			}
		}
		months := f[0]*12 + f[1]
		days := f[2]*7 + f[3]
		micros := math.RoundToEven(f[4]*3_600_000_000 + f[5]*60_000_000 + f[6]*1e6)
		if math.Abs(months) > math.MaxInt32 || math.Abs(days) > math.MaxInt32 || math.IsNaN(micros) || math.Abs(micros) >= math.MaxInt64 {
			return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "interval out of range")
		}
		return types.IntervalValue{Months: int32(months), Days: int32(days), Micros: int64(micros)}, nil
	})(args, res)
}

// justify moves whole days out of the time part (justify_hours), whole
// 30-day months out of the days (justify_days), or both with their signs
// made consistent (justify_interval), as PostgreSQL does.
func justify(name string, iv types.IntervalValue) (any, error) {
	months, days, micros := int64(iv.Months), int64(iv.Days), iv.Micros
	hours := func() {
		d := micros / types.MicrosPerDay
		days += d
		micros -= d * types.MicrosPerDay
	}
	dayPart := func() {
		m := days / 30
		months += m
		days -= m * 30
	}
	switch name {
	case "justify_hours":
		hours()
		if days > 0 && micros < 0 {
			micros += types.MicrosPerDay
			days--
		} else if days < 0 && micros > 0 {
			micros -= types.MicrosPerDay
			days++
		}
	case "justify_days":
		dayPart()
		if months > 0 && days < 0 {
			days += 30
			months--
		} else if months < 0 && days > 0 {
			days -= 30
			months++
		}
	case "justify_interval":
		hours()
		dayPart()
		if months > 0 && (days < 0 || (days == 0 && micros < 0)) {
			days += 30
			months--
		} else if months < 0 && (days > 0 || (days == 0 && micros > 0)) {
			days -= 30
			months++
		}
		if days > 0 && micros < 0 {
			micros += types.MicrosPerDay
			days--
		} else if days < 0 && micros > 0 {
			micros -= types.MicrosPerDay
			days++
		}
	}
	if months != int64(int32(months)) || days != int64(int32(days)) {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "interval out of range")
	}
	return types.IntervalValue{Months: int32(months), Days: int32(days), Micros: micros}, nil
}

// epochToTimestamp is to_timestamp(double precision): seconds since the
// Unix epoch.
func epochToTimestamp(secs float64) (any, error) {
	switch {
	case math.IsNaN(secs):
		return nil, pgerror.New(pgerror.InvalidParameterValue, "timestamp cannot be NaN")
	case math.IsInf(secs, 0):
		return nil, pgerror.Unsupported("infinite timestamps are not supported yet")
	}
	micros := math.RoundToEven(secs * 1e6)
	if micros < types.MinTimestampMicros || micros > types.MaxTimestampMicros {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range: \"%g\"", secs)
	}
	return int64(micros), nil
}

// loadZone resolves a time zone name as PostgreSQL's timezone() takes it:
// an IANA name (Europe/Paris), UTC/GMT/Z, case-insensitively for those.
func loadZone(name string) (*time.Location, error) {
	return types.LoadZone(name)
}

// timezoneKernel is timezone(zone, timestamp) (the wall clock read in
// zone, giving an instant) and timezone(zone, timestamptz) (the instant's
// wall clock in zone).
func timezoneKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	zones := map[string]*time.Location{}
	toInstant := res.OID == types.OIDTimestampTZ
	return rowKernel(func(v []any) (any, error) {
		name := v[0].(string)
		loc, ok := zones[name]
		if !ok {
			var err error
			if loc, err = loadZone(name); err != nil {
				return nil, err
			}
			zones[name] = loc
		}
		micros := v[1].(int64)
		if toInstant {
			// DST gaps and repeats resolve as PostgreSQL does.
			return types.InstantFromLocal(micros, loc), nil
		}
		return types.LocalMicros(micros, loc), nil
	})(args, res)
}
