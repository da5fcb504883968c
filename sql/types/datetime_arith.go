package types

import (
	"math"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Date and time arithmetic with PostgreSQL's rules. Timestamps are
// microseconds since 1970-01-01 (UTC instants for timestamptz, which
// sessions display in UTC, so the calendar of both is UTC's), dates days
// since then.

// MicrosPerDay is the length of a day in microseconds.
const MicrosPerDay = microsPerDay

// ErrTimestampRange is PostgreSQL's error for a result outside the
// timestamp range.
func ErrTimestampRange() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
}

// ErrDateRange is PostgreSQL's error for a result outside the date range.
func ErrDateRange() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range")
}

// Timestamps SQE holds: PostgreSQL's lower bound (4714-11-24 BC) up to
// where microseconds since 1970 fit in an int64.
const (
	MinTimestampMicros = -210866803200000000
	MaxTimestampMicros = math.MaxInt64 - microsPerDay
)

// timestampEndDays is PostgreSQL's TIMESTAMP_END_JULIAN (294277-01-01)
// in days since 1970: the first date past the timestamp range.
const timestampEndDays = 109203528 - julianEpochDays

// DateToTimestampChecked is date::timestamp with PostgreSQL's range
// check (date2timestamp): a date past the timestamp range fails, as does
// one past the narrower range SQE holds (its last days of 294276).
func DateToTimestampChecked(days int32) (int64, error) {
	if IsInfiniteDate(int64(days)) {
		return DateToTimestamp(days), nil
	}
	if int64(days) >= timestampEndDays {
		return 0, pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range for timestamp")
	}
	if int64(days) > MaxTimestampMicros/microsPerDay {
		return 0, ErrTimestampRange()
	}
	return int64(days) * microsPerDay, nil
}

// AddInterval adds iv to a timestamp as PostgreSQL's timestamp_pl_interval
// does: months first (the day clamped to the new month's length), then
// days, then microseconds.
func AddInterval(micros int64, iv IntervalValue) (int64, error) {
	if IsInfiniteTimestamp(micros) {
		return micros, nil
	}
	if iv.Months != 0 {
		days := floorDiv(micros, microsPerDay)
		rem := micros - days*microsPerDay
		y, m, d := CivilFromDays(days)
		total := y*12 + int64(m-1) + int64(iv.Months)
		ny, nm := floorDiv(total, 12), int(total-floorDiv(total, 12)*12)+1
		if dim := DaysInMonth(ny, nm); d > dim {
			d = dim
		}
		nd, ok := DaysFromCivil(ny, nm, d)
		if !ok || nd > MaxTimestampMicros/microsPerDay || nd < MinTimestampMicros/microsPerDay-1 {
			return 0, ErrTimestampRange()
		}
		micros = nd*microsPerDay + rem
	}
	sum, ok := addChecked(micros, int64(iv.Days)*microsPerDay)
	if !ok {
		return 0, ErrTimestampRange()
	}
	if sum, ok = addChecked(sum, iv.Micros); !ok || sum < MinTimestampMicros || sum > MaxTimestampMicros {
		return 0, ErrTimestampRange()
	}
	return sum, nil
}

// SubtractTimestamps is timestamp - timestamp: an interval of days and
// time (never months), as PostgreSQL's timestamp_mi with justify_hours.
func SubtractTimestamps(a, b int64) (IntervalValue, error) {
	if IsInfiniteTimestamp(a) || IsInfiniteTimestamp(b) {
		return IntervalValue{}, ErrSubtractInfiniteTimestamps()
	}
	diff, ok := subChecked(a, b)
	if !ok {
		return IntervalValue{}, errIntervalRange()
	}
	days := diff / microsPerDay
	rem := diff - days*microsPerDay
	if days > math.MaxInt32 || days < math.MinInt32 {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{Days: int32(days), Micros: rem}, nil
}

// AddIntervals is interval + interval, part by part.
func AddIntervals(a, b IntervalValue) (IntervalValue, error) {
	m := int64(a.Months) + int64(b.Months)
	d := int64(a.Days) + int64(b.Days)
	u, ok := addChecked(a.Micros, b.Micros)
	if !ok || m != int64(int32(m)) || d != int64(int32(d)) {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{Months: int32(m), Days: int32(d), Micros: u}, nil
}

// NegateInterval is -interval.
func NegateInterval(a IntervalValue) (IntervalValue, error) {
	if a.Months == math.MinInt32 || a.Days == math.MinInt32 || a.Micros == math.MinInt64 {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{Months: -a.Months, Days: -a.Days, Micros: -a.Micros}, nil
}

// tsRound rounds seconds to microseconds, PostgreSQL's TSROUND.
func tsRound(secs float64) float64 { return math.RoundToEven(secs*1e6) / 1e6 }

// MulInterval is interval * float8, PostgreSQL's interval_mul: fractional
// months spill into days (30 per month) and fractional days into time.
func MulInterval(a IntervalValue, f float64) (IntervalValue, error) {
	return scaleInterval(a, func(x float64) float64 { return x * f })
}

// DivInterval is interval / float8.
func DivInterval(a IntervalValue, f float64) (IntervalValue, error) {
	if f == 0 {
		return IntervalValue{}, pgerror.New(pgerror.DivisionByZero, "division by zero")
	}
	return scaleInterval(a, func(x float64) float64 { return x / f })
}

func scaleInterval(a IntervalValue, scale func(float64) float64) (IntervalValue, error) {
	monthsF := scale(float64(a.Months))
	if math.IsNaN(monthsF) || monthsF > math.MaxInt32 || monthsF < math.MinInt32 {
		return IntervalValue{}, errIntervalRange()
	}
	months := math.Trunc(monthsF)
	monthRemDays := (monthsF - months) * daysPerMonth
	daysF := scale(float64(a.Days))
	if daysF > math.MaxInt32 || daysF < math.MinInt32 {
		return IntervalValue{}, errIntervalRange()
	}
	days := math.Trunc(daysF)
	secRem := tsRound((daysF - days + monthRemDays - math.Trunc(monthRemDays)) * 86400)
	if math.Abs(secRem) >= 86400 {
		carry := math.Trunc(secRem / 86400)
		days += carry
		secRem -= carry * 86400
	}
	days += math.Trunc(monthRemDays)
	micros := math.RoundToEven(scale(float64(a.Micros)) + secRem*1e6)
	if days > math.MaxInt32 || days < math.MinInt32 || math.IsNaN(micros) || micros >= math.MaxInt64 || micros < math.MinInt64 {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{Months: int32(months), Days: int32(days), Micros: int64(micros)}, nil
}

// Age is age(a, b): the symbolic difference in years, months and days
// (then time), borrowing from the month before as PostgreSQL's
// timestamp_age does.
func Age(a, b int64) (IntervalValue, error) {
	ta, tb := time.UnixMicro(a).UTC(), time.UnixMicro(b).UTC()
	neg := a < b
	usec := int64(ta.Nanosecond()/1000) - int64(tb.Nanosecond()/1000)
	sec := int64(ta.Second() - tb.Second())
	minute := int64(ta.Minute() - tb.Minute())
	hour := int64(ta.Hour() - tb.Hour())
	mday := int64(ta.Day() - tb.Day())
	mon := int64(ta.Month() - tb.Month())
	year := int64(ta.Year() - tb.Year())
	if neg {
		usec, sec, minute, hour, mday, mon, year = -usec, -sec, -minute, -hour, -mday, -mon, -year
	}
	for usec < 0 {
		usec += microsPerSecond
		sec--
	}
	for sec < 0 {
		sec += 60
		minute--
	}
	for minute < 0 {
		minute += 60
		hour--
	}
	for hour < 0 {
		hour += 24
		mday--
	}
	for mday < 0 {
		ref := tb
		if neg {
			ref = ta
		}
		mday += int64(DaysInMonth(int64(ref.Year()), int(ref.Month())))
		mon--
	}
	for mon < 0 {
		mon += 12
		year--
	}
	if neg {
		usec, sec, minute, hour, mday, mon, year = -usec, -sec, -minute, -hour, -mday, -mon, -year
	}
	months := year*12 + mon
	if months != int64(int32(months)) {
		return IntervalValue{}, errIntervalRange()
	}
	return IntervalValue{
		Months: int32(months),
		Days:   int32(mday),
		Micros: ((hour*60+minute)*60+sec)*microsPerSecond + usec,
	}, nil
}

// DaysInMonth is the length of month m (1-12) of astronomical year y.
func DaysInMonth(y int64, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// DaysFromCivil is CivilFromDays' inverse: days since 1970-01-01 of a
// proleptic Gregorian date with astronomical year numbering.
func DaysFromCivil(y int64, m, d int) (int64, bool) {
	if y > 1<<40 || y < -(1<<40) {
		return 0, false
	}
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64((m + 9) % 12)
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468, true
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func addChecked(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

func subChecked(a, b int64) (int64, bool) {
	s := a - b
	if (b < 0 && s < a) || (b > 0 && s > a) {
		return 0, false
	}
	return s, true
}
