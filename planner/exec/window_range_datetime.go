package exec

import (
	"cmp"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// datetimeBound is in_range for date, timestamp, timestamptz, time and
// interval keys with an interval offset, as PostgreSQL's
// in_range_{date,timestamp,timestamptz,time,interval}_interval. Each
// row's bound, key ± offset, is computed once up front, so a bound out of
// range fails as PostgreSQL's does when it reads the row's frame.
func datetimeBound(key, off arrow.Array, sub, less bool, loc *time.Location) (boundFunc, error) {
	offset := types.IntervalFromArrow(values[arrow.MonthDayNanoInterval](off)[0])
	holds := func(c int) bool {
		if less {
			return c <= 0
		}
		return c >= 0
	}
	if _, isTime := key.DataType().(*arrow.Time64Type); isTime {
		// Only the offset's time part moves a time, and the bound does
		// not wrap around midnight: 23:00 + '2 hours' is beyond every
		// time.
		if offset.Micros < 0 {
			return nil, errFrameSize()
		}
		vals, d := values[int64](key), offset.Micros
		if sub {
			d = -d
		}
		return func(j, i int) bool {
			return holds(cmp.Compare(vals[j], vals[i]+d))
		}, nil
	}
	if types.CompareIntervals(offset, types.IntervalValue{}) < 0 {
		return nil, errFrameSize()
	}
	delta := offset
	if sub {
		var err error
		if delta, err = types.NegateInterval(offset); err != nil {
			return nil, err
		}
	}
	switch dt := key.DataType().(type) {
	case *arrow.MonthDayNanoIntervalType:
		vals := values[arrow.MonthDayNanoInterval](key)
		sums := make([]types.IntervalValue, len(vals))
		for i, v := range vals {
			if key.IsNull(i) {
				continue
			}
			s, err := types.AddIntervals(types.IntervalFromArrow(v), delta)
			if err != nil {
				return nil, err
			}
			sums[i] = s
		}
		return func(j, i int) bool {
			return holds(types.CompareIntervals(types.IntervalFromArrow(vals[j]), sums[i]))
		}, nil
	case *arrow.Date32Type, *arrow.TimestampType:
		// A date is compared as the timestamp of its midnight.
		var stamps []int64
		if _, isDate := dt.(*arrow.Date32Type); isDate {
			days := values[int32](key)
			stamps = make([]int64, len(days))
			for i, d := range days {
				v := int64(d) * types.MicrosPerDay
				if key.IsValid(i) && (v < types.MinTimestampMicros || v > types.MaxTimestampMicros) {
					return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range for timestamp")
				}
				stamps[i] = v
			}
		} else {
			stamps = values[int64](key)
		}
		zoned := false
		if ts, ok := dt.(*arrow.TimestampType); ok && ts.TimeZone != "" && loc != time.UTC {
			zoned = true
		}
		sums := make([]int64, len(stamps))
		for i, v := range stamps {
			if key.IsNull(i) {
				continue
			}
			var err error
			if zoned {
				// timestamptz moves months and days on the session
				// zone's wall clock.
				sums[i], err = addIntervalInZone(v, delta, loc)
			} else {
				sums[i], err = types.AddInterval(v, delta)
			}
			if err != nil {
				return nil, err
			}
		}
		return func(j, i int) bool {
			return holds(cmp.Compare(stamps[j], sums[i]))
		}, nil
	}
	return nil, fmt.Errorf("RANGE offset over %s cannot be executed", key.DataType())
}
