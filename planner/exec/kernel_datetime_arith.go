package exec

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/types"
)

// isDatetimeArith reports whether an arithmetic operator with these
// operand types is a date/time operation (the binder chose its operand
// types with planner's datetimeOperator).
func isDatetimeArith(l, r types.T) bool {
	switch l.Family() {
	case types.FamilyDate, types.FamilyTimestamp, types.FamilyTime, types.FamilyInterval:
		return true
	}
	switch r.Family() {
	case types.FamilyDate, types.FamilyTimestamp, types.FamilyTime, types.FamilyInterval:
		return true
	}
	return false
}

// datetimeArith evaluates l op r for date, time, timestamp and interval
// operands. Errors (a result out of range) are raised only for rows where
// both inputs are valid.
func datetimeArith(op string, l, r arrow.Array, lt, rt, res types.T) (arrow.Array, error) {
	validity, nulls := validity2(l, r)
	n := l.Len()
	lf, rf := lt.Family(), rt.Family()
	switch {
	case lf == types.FamilyDate && rf == types.FamilyInt, lf == types.FamilyInt && rf == types.FamilyDate:
		days, delta := values[int32](l), values[int32](r)
		if lf == types.FamilyInt {
			days, delta = delta, days
		}
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		out := make([]int32, n)
		for i := range out {
			if types.IsInfiniteDate(int64(days[i])) {
				out[i] = days[i]
				continue
			}
			v := int64(days[i]) + sign*int64(delta[i])
			if !types.IsValidDate(v) && validAt(validity, i) {
				return nil, types.ErrDateRange()
			}
			out[i] = int32(v)
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyDate && rf == types.FamilyDate:
		a, b := values[int32](l), values[int32](r)
		out := make([]int32, n)
		for i := range out {
			if (types.IsInfiniteDate(int64(a[i])) || types.IsInfiniteDate(int64(b[i]))) && validAt(validity, i) {
				return nil, types.ErrSubtractInfiniteDates()
			}
			out[i] = a[i] - b[i]
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyDate && rf == types.FamilyTime, lf == types.FamilyTime && rf == types.FamilyDate:
		dates, times := values[int32](l), values[int64](r)
		if lf == types.FamilyTime {
			dates, times = values[int32](r), values[int64](l)
		}
		out := make([]int64, n)
		for i := range out {
			if !validAt(validity, i) {
				continue
			}
			ts, err := types.DateToTimestampChecked(dates[i])
			if err != nil {
				return nil, err
			}
			if !types.IsInfiniteTimestamp(ts) {
				// A time is under a day: the sum overflows no int64.
				if ts += times[i]; ts > types.MaxTimestampMicros {
					return nil, types.ErrTimestampRange()
				}
			}
			out[i] = ts
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyTimestamp && rf == types.FamilyTimestamp:
		a, b := values[int64](l), values[int64](r)
		out := make([]arrow.MonthDayNanoInterval, n)
		for i := range out {
			iv, err := types.SubtractTimestamps(a[i], b[i])
			if err != nil && validAt(validity, i) {
				return nil, err
			}
			out[i] = iv.ToArrow()
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyTime && rf == types.FamilyTime:
		a, b := values[int64](l), values[int64](r)
		out := make([]arrow.MonthDayNanoInterval, n)
		for i := range out {
			out[i] = types.IntervalValue{Micros: a[i] - b[i]}.ToArrow()
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyTimestamp && rf == types.FamilyInterval, lf == types.FamilyInterval && rf == types.FamilyTimestamp:
		ts, ivs := values[int64](l), values[arrow.MonthDayNanoInterval](r)
		if lf == types.FamilyInterval {
			ts, ivs = values[int64](r), values[arrow.MonthDayNanoInterval](l)
		}
		out := make([]int64, n)
		for i := range out {
			iv := types.IntervalFromArrow(ivs[i])
			if op == "-" {
				var err error
				if iv, err = types.NegateInterval(iv); err != nil && validAt(validity, i) {
					return nil, err
				}
			}
			v, err := types.AddInterval(ts[i], iv)
			if err != nil && validAt(validity, i) {
				return nil, err
			}
			out[i] = v
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyTime && rf == types.FamilyInterval, lf == types.FamilyInterval && rf == types.FamilyTime:
		times, ivs := values[int64](l), values[arrow.MonthDayNanoInterval](r)
		if lf == types.FamilyInterval {
			times, ivs = values[int64](r), values[arrow.MonthDayNanoInterval](l)
		}
		out := make([]int64, n)
		for i := range out {
			// Only the interval's time part moves a time of day, which
			// wraps around midnight.
			d := types.IntervalFromArrow(ivs[i]).Micros % types.MicrosPerDay
			if op == "-" {
				d = -d
			}
			v := (times[i] + d) % types.MicrosPerDay
			if v < 0 {
				v += types.MicrosPerDay
			}
			out[i] = v
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyInterval && rf == types.FamilyInterval:
		a, b := values[arrow.MonthDayNanoInterval](l), values[arrow.MonthDayNanoInterval](r)
		out := make([]arrow.MonthDayNanoInterval, n)
		for i := range out {
			x, y := types.IntervalFromArrow(a[i]), types.IntervalFromArrow(b[i])
			var err error
			if op == "-" {
				y, err = types.NegateInterval(y)
			}
			if err == nil {
				x, err = types.AddIntervals(x, y)
			}
			if err != nil && validAt(validity, i) {
				return nil, err
			}
			out[i] = x.ToArrow()
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	case lf == types.FamilyInterval && rf == types.FamilyFloat, lf == types.FamilyFloat && rf == types.FamilyInterval:
		ivs, fs := values[arrow.MonthDayNanoInterval](l), values[float64](r)
		if lf == types.FamilyFloat {
			ivs, fs = values[arrow.MonthDayNanoInterval](r), values[float64](l)
		}
		out := make([]arrow.MonthDayNanoInterval, n)
		for i := range out {
			if !validAt(validity, i) {
				continue
			}
			iv := types.IntervalFromArrow(ivs[i])
			var err error
			if op == "/" {
				iv, err = types.DivInterval(iv, fs[i])
			} else {
				iv, err = types.MulInterval(iv, fs[i])
			}
			if err != nil {
				return nil, err
			}
			out[i] = iv.ToArrow()
		}
		return newFixed(res.Arrow(), out, validity, nulls), nil
	}
	return nil, fmt.Errorf("operator %s on %s and %s is not implemented", op, lt.Name(), rt.Name())
}

// negateIntervals is unary minus on intervals.
func negateIntervals(a arrow.Array) (arrow.Array, error) {
	validity, nulls := validity1(a)
	in := values[arrow.MonthDayNanoInterval](a)
	out := make([]arrow.MonthDayNanoInterval, len(in))
	for i, v := range in {
		iv, err := types.NegateInterval(types.IntervalFromArrow(v))
		if err != nil && validAt(validity, i) {
			return nil, err
		}
		out[i] = iv.ToArrow()
	}
	return newFixed(a.DataType(), out, validity, nulls), nil
}

// compareIntervals orders intervals by their span, as PostgreSQL does
// ('1 mon' = '30 days').
func compareIntervalValues(l, r []arrow.MonthDayNanoInterval, bits []byte, test func(int) bool) {
	for i := range l {
		if test(types.CompareIntervals(types.IntervalFromArrow(l[i]), types.IntervalFromArrow(r[i]))) {
			bits[i/8] |= 1 << (uint(i) % 8)
		}
	}
}

// isDatetimeCast reports the conversions between date/time types that
// castDatetime performs.
func isDatetimeCast(from, to types.T) bool {
	ff, tf := from.Family(), to.Family()
	return ff == types.FamilyTimestamp && (tf == types.FamilyDate || tf == types.FamilyTime) ||
		ff == types.FamilyTime && tf == types.FamilyInterval ||
		ff == types.FamilyInterval && tf == types.FamilyTime
}

// castDatetime converts timestamp to date or time, time to interval and
// interval to time (its time part, wrapped to a day).
func castDatetime(a arrow.Array, from, to types.T) (arrow.Array, error) {
	validity, nulls := validity1(a)
	n := a.Len()
	dayPart := func(v int64) int64 {
		v %= types.MicrosPerDay
		if v < 0 {
			v += types.MicrosPerDay
		}
		return v
	}
	switch ff, tf := from.Family(), to.Family(); {
	case ff == types.FamilyTimestamp && tf == types.FamilyDate:
		in := values[int64](a)
		out := make([]int32, n)
		for i, v := range in {
			out[i] = types.TimestampToDate(v)
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	case ff == types.FamilyTimestamp && tf == types.FamilyTime:
		in := values[int64](a)
		out := make([]int64, n)
		for i, v := range in {
			out[i] = dayPart(v)
		}
		// An infinite timestamp has no time of day: NULL, as in
		// PostgreSQL.
		validity, nulls = nullInfinite(in, validity, nulls)
		return newFixed(to.Arrow(), out, validity, nulls), nil
	case ff == types.FamilyTime && tf == types.FamilyInterval:
		in := values[int64](a)
		out := make([]arrow.MonthDayNanoInterval, n)
		for i, v := range in {
			out[i] = types.IntervalValue{Micros: v}.ToArrow()
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	case ff == types.FamilyInterval && tf == types.FamilyTime:
		in := values[arrow.MonthDayNanoInterval](a)
		out := make([]int64, n)
		for i, v := range in {
			out[i] = dayPart(types.IntervalFromArrow(v).Micros)
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	}
	return nil, fmt.Errorf("cast from %s to %s is not implemented", from.Name(), to.Name())
}

// extractDuration is extract(field FROM time | interval). Seconds-based
// fields are computed in microseconds and scaled at the end, as the
// timestamp path does.
func extractDuration(args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[1].Len()
	vals := make([]any, n)
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) || args[1].IsNull(r) {
			continue
		}
		field := valueAt(args[0], r).(string)
		var iv types.IntervalValue
		switch v := valueAt(args[1], r).(type) {
		case int64:
			iv.Micros = v
		case types.IntervalValue:
			iv = v
		}
		// micros holds the field in millionths when scaled.
		var micros int64
		scaled := true
		years := int64(iv.Months) / 12
		switch field {
		case "epoch":
			// PostgreSQL counts a year as 365.25 days and a month as 30.
			days := float64(years)*365.25 + float64(int64(iv.Months)%12*30) + float64(iv.Days)
			secs := days*86400 + float64(iv.Micros)/1e6
			if res.OID == types.OIDFloat8 {
				vals[r] = secs
				continue
			}
			micros = int64(math.Round(days*86400))*1_000_000 + iv.Micros
		case "second", "millisecond":
			micros = iv.Micros % 60_000_000
		case "microsecond":
			micros, scaled = iv.Micros%60_000_000, false
		case "minute":
			micros, scaled = iv.Micros/60_000_000%60, false
		case "hour":
			micros, scaled = iv.Micros/3_600_000_000, false
		case "day":
			micros, scaled = int64(iv.Days), false
		case "month":
			micros, scaled = int64(iv.Months)%12, false
		case "quarter":
			micros, scaled = int64(iv.Months)%12/3+1, false
		case "year":
			micros, scaled = years, false
		case "decade":
			micros, scaled = years/10, false
		case "century":
			micros, scaled = years/100, false
		case "millennium":
			micros, scaled = years/1000, false
		default:
			return nil, fmt.Errorf("extract field %q cannot be executed", field)
		}
		if field == "millisecond" {
			// Milliseconds with three decimals: the microseconds / 1000.
			if res.OID == types.OIDFloat8 {
				vals[r] = float64(micros) / 1e3
				continue
			}
			vals[r], _ = types.Rescale(decimal128.FromI64(micros), 3, res.Scale)
			continue
		}
		if res.OID == types.OIDFloat8 {
			if scaled {
				vals[r] = float64(micros) / 1e6
			} else {
				vals[r] = float64(micros)
			}
			continue
		}
		from := int32(0)
		if scaled {
			from = 6
		}
		out, ok := types.Rescale(decimal128.FromI64(micros), from, res.Scale)
		if !ok {
			return nil, errNumericOverflow()
		}
		vals[r] = out
	}
	return valuesArray(res, vals)
}

// nullInfinite marks NULL the rows whose timestamp is infinite, for the
// conversions PostgreSQL answers NULL for them (timestamp to time).
func nullInfinite(in []int64, validity []byte, nulls int) ([]byte, int) {
	found := false
	for i, v := range in {
		if validAt(validity, i) && types.IsInfiniteTimestamp(v) {
			found = true
			break
		}
	}
	if !found {
		return validity, nulls
	}
	out := make([]byte, bitutil.BytesForBits(int64(len(in))))
	nulls = 0
	for i, v := range in {
		if validAt(validity, i) && !types.IsInfiniteTimestamp(v) {
			bitutil.SetBit(out, i)
		} else {
			nulls++
		}
	}
	return out, nulls
}
