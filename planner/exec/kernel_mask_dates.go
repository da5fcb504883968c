package exec

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// Dates and timestamps under the mask functions. Hive masks dates only,
// with every function alike (the span options do not apply); SQE masks
// timestamps too, as the date they fall on, so that a date mask on a
// timestamp column reveals no more than on a date column.

// maskDates masks each date of in.
func maskDates(in *array.Date32, opts *maskOptions) arrow.Array {
	vals := in.Date32Values()
	out := make([]arrow.Date32, len(vals))
	validity, nulls := validity1(in)
	for i, v := range vals {
		if validAt(validity, i) {
			s := opts.at(i)
			out[i] = arrow.Date32(maskDate(int64(v), types.IsInfiniteDate(int64(v)), &s))
		}
	}
	return newFixed(in.DataType(), out, validity, nulls)
}

// maskTimestamps masks each timestamp of in as the date of its wall
// clock in loc (nil: the value as it is, a timestamp without time zone).
func maskTimestamps(in *array.Timestamp, opts *maskOptions, loc *time.Location) arrow.Array {
	vals := values[int64](in)
	out := make([]int64, len(vals))
	validity, nulls := validity1(in)
	for i, v := range vals {
		if !validAt(validity, i) {
			continue
		}
		if loc != nil {
			v = types.LocalMicros(v, loc)
		}
		s := opts.at(i)
		switch {
		case !types.IsInfiniteTimestamp(v):
			v = maskDate(floorDiv(v, types.MicrosPerDay), false, &s) * types.MicrosPerDay
		case s.year != keep:
			v = maskDate(0, true, &s) * types.MicrosPerDay
		}
		if loc != nil {
			v = types.InstantFromLocal(v, loc)
		}
		out[i] = v
	}
	return newFixed(in.DataType(), out, validity, nulls)
}

// maskDate replaces the fields of a date (days since 1970-01-01) that s
// masks. An infinite date stays so when its year is kept; otherwise it
// becomes the masked date, January the 1st where the fields are kept.
func maskDate(days int64, infinite bool, s *maskSettings) int64 {
	y, m, d := int64(0), 1, 1
	if infinite {
		if s.year == keep {
			return days
		}
	} else {
		y, m, d = types.CivilFromDays(days)
	}
	if s.year != keep {
		y = int64(s.year)
	}
	if s.month != keep {
		m = s.month + 1
	}
	if s.day != keep {
		d = s.day
	}
	out, _ := types.DaysFromCivil(y, m, min(d, types.DaysInMonth(y, m)))
	return out
}

// maskZonedKernel is the mask functions' kernel for a timestamptz value,
// which is masked in the session zone.
func maskZonedKernel(name string, args []types.T) (zonedKernel, bool) {
	f, ok := maskFuncNamed(name)
	if !ok || len(args) == 0 || !isTimestampTZ(args[0]) {
		return nil, false
	}
	return func(loc *time.Location, a []arrow.Array, _ types.T) (arrow.Array, error) {
		return maskTimestamps(a[0].(*array.Timestamp), newMaskOptions(f, a[1:]), loc), nil
	}, true
}
