package exec

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// maxSeriesRows bounds the rows of one generate_series call.
const maxSeriesRows = 100_000_000

// timestampSeries is generate_series(start, stop, step) over timestamp or
// timestamptz (args are non-NULL at row r): start, start + step, ...
// while not past stop, the direction given by the step's sign. As in
// PostgreSQL, each value is stepped from the previous one (so '1 month'
// from Jan 31 gives Feb 29, then Mar 29), a timestamptz in the session's
// time zone, and the step past the last value must itself be in range.
func timestampSeries(ctx context.Context, mem *reservation, args []arrow.Array, r int) ([]any, error) {
	start := int64(args[0].(*array.Timestamp).Value(r))
	stop := valueAt(args[1], r).(int64)
	step := valueAt(args[2], r).(types.IntervalValue)
	sign := types.CompareIntervals(step, types.IntervalValue{})
	if sign == 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "step size cannot equal zero")
	}
	var loc *time.Location
	if args[0].DataType().(*arrow.TimestampType).TimeZone != "" {
		loc = timeZoneOf(ctx)
	}
	var out []any
	for cur := start; sign > 0 && cur <= stop || sign < 0 && cur >= stop; {
		out = append(out, cur)
		if len(out)%cancelCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := mem.grow(2 * cancelCheckRows * (anyValueBytes + 8)); err != nil {
				return nil, err
			}
		}
		if len(out) > maxSeriesRows {
			return nil, pgerror.New(pgerror.ProgramLimitExceeded, "generate_series: more than 100000000 rows from one call are not supported")
		}
		var err error
		if loc != nil {
			cur, err = addIntervalInZone(cur, step, loc)
		} else {
			cur, err = types.AddInterval(cur, step)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
