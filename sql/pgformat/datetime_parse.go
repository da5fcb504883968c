package pgformat

import (
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// wallClock is the resolved result of to_timestamp before the time zone
// is applied (PostgreSQL's pg_tm plus fractional seconds).
type wallClock struct {
	year, mon, mday  int
	hour, min, sec   int
	fsec             int64
	fprec            int
	hasZone          bool
	zoneOffset       int // seconds east of UTC, when hasZone
	tzsign, tzh, tzm int
}

const (
	maskYear = 1 << iota
	maskMonth
	maskDay
	maskDate = maskYear | maskMonth | maskDay
)

// resolve runs the template over input and turns the collected fields
// into a date and time with PostgreSQL's precedence rules.
func (t *DateTimeTemplate) resolve(input string) (wallClock, error) {
	sc := scanner{nodes: t.nodes, in: input}
	if err := sc.scan(); err != nil {
		return wallClock{}, err
	}
	f := &sc.out
	tm := wallClock{mon: 1, mday: 1}
	mask := 0

	if f.ssss != 0 {
		x := f.ssss
		tm.hour = x / 3600
		x %= 3600
		tm.min = x / 60
		tm.sec = x % 60
	}
	if f.ss != 0 {
		tm.sec = f.ss
	}
	if f.mi != 0 {
		tm.min = f.mi
	}
	if f.hh != 0 {
		tm.hour = f.hh
	}
	if f.clock12 {
		if tm.hour < 1 || tm.hour > 12 {
			return tm, pgerror.New(pgerror.InvalidDatetimeFormat, "hour \"%d\" is invalid for the 12-hour clock", tm.hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if f.pm != 0 && tm.hour < 12 {
			tm.hour += 12
		} else if f.pm == 0 && tm.hour == 12 {
			tm.hour = 0
		}
	}

	switch {
	case f.year != 0:
		if f.cc != 0 && f.yysz <= 2 {
			// Two-digit year within the given century; century 21 runs
			// 2001..2100 and century 6 BC runs 600..501 BC.
			cc := f.cc
			if f.bc != 0 {
				cc = -cc
			}
			tm.year = f.year % 100
			if tm.year != 0 {
				if cc >= 0 {
					tm.year += (cc - 1) * 100
				} else {
					tm.year = (cc+1)*100 - tm.year + 1
				}
			} else {
				tm.year = cc * 100
				if cc < 0 {
					tm.year++
				}
			}
		} else {
			tm.year = f.year
			if f.bc != 0 {
				tm.year = -tm.year
			}
			if tm.year < 0 {
				tm.year++ // astronomical numbering: 1 BC is year 0
			}
		}
		mask |= maskYear
	case f.cc != 0:
		cc := f.cc
		if f.bc != 0 {
			cc = -cc
		}
		if cc >= 0 {
			tm.year = (cc-1)*100 + 1
		} else {
			tm.year = cc*100 + 1
		}
		mask |= maskYear
	}

	if f.j != 0 {
		tm.year, tm.mon, tm.mday = j2date(f.j)
		mask |= maskDate
	}

	if f.ww != 0 {
		if f.mode == modeISOWeek {
			var jd int
			if f.d != 0 {
				jd = isoweek2j(tm.year, f.ww)
				// Gregorian weekday numbering (Sunday = 1) to ISO offset.
				if f.d > 1 {
					jd += f.d - 2
				} else {
					jd += 6
				}
			} else {
				jd = isoweek2j(tm.year, f.ww)
			}
			tm.year, tm.mon, tm.mday = j2date(jd)
			mask |= maskDate
		} else {
			f.ddd = (f.ww-1)*7 + 1
		}
	}

	if f.w != 0 {
		f.dd = (f.w-1)*7 + 1
	}
	if f.dd != 0 {
		tm.mday = f.dd
		mask |= maskDay
	}
	if f.mm != 0 {
		tm.mon = f.mm
		mask |= maskMonth
	}

	if f.ddd != 0 && (tm.mon <= 1 || tm.mday <= 1) {
		if tm.year == 0 && f.bc == 0 {
			return tm, pgerror.New(pgerror.InvalidDatetimeFormat, "cannot calculate day of year without year information")
		}
		if f.mode == modeISOWeek {
			j0 := isoweek2j(tm.year, 1) - 1
			tm.year, tm.mon, tm.mday = j2date(j0 + f.ddd)
			mask |= maskDate
		} else {
			cum := [13]int{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365}
			if isLeap(tm.year) {
				cum = [13]int{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}
			}
			i := 1
			for ; i <= 12; i++ {
				if f.ddd <= cum[i] {
					break
				}
			}
			if tm.mon <= 1 {
				tm.mon = i
			}
			if tm.mday <= 1 {
				// i is 13 past the year's end; PostgreSQL then reads one
				// element beyond its table, which only happens for
				// out-of-range input rejected just below.
				prev := 0
				if i-1 < len(cum) {
					prev = cum[i-1]
				}
				tm.mday = f.ddd - prev
			}
			mask |= maskMonth | maskDay
		}
	}

	if f.ms != 0 {
		tm.fsec += int64(f.ms) * 1000
	}
	if f.us != 0 {
		tm.fsec += int64(f.us)
	}
	tm.fprec = f.ff

	if !validDate(mask, &tm) {
		return tm, errFieldOverflow(input)
	}
	if tm.hour < 0 || tm.hour >= 24 || tm.min < 0 || tm.min >= 60 ||
		tm.sec < 0 || tm.sec >= 60 || tm.fsec < 0 || tm.fsec >= usecsPerSec {
		return tm, errFieldOverflow(input)
	}
	if f.tzsign != 0 {
		if f.tzh < 0 || f.tzh > 15 || f.tzm < 0 || f.tzm >= 60 {
			return tm, pgerror.New(invalidTimeZoneDisplacement, "time zone displacement out of range: \"%s\"", input)
		}
		tm.hasZone = true
		tm.zoneOffset = f.tzsign * (f.tzh*3600 + f.tzm*60)
	}
	return tm, nil
}

// validDate is PostgreSQL's ValidateDate for the fields to_timestamp set.
func validDate(mask int, tm *wallClock) bool {
	if mask&maskMonth != 0 && (tm.mon < 1 || tm.mon > 12) {
		return false
	}
	if mask&maskDay != 0 && (tm.mday < 1 || tm.mday > 31) {
		return false
	}
	if mask&maskDate == maskDate && tm.mday > daysInMonth[leapIndex(tm.year)][tm.mon-1] {
		return false
	}
	return true
}

// ParseTimestamp is to_timestamp(input, fmt). Fields the template does not
// give default as in PostgreSQL: January 1 of 1 BC (year 0), midnight.
// The wall clock is interpreted in loc unless the input carries TZH/TZM;
// the result is returned in loc.
func (t *DateTimeTemplate) ParseTimestamp(input string, loc *time.Location) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	tm, err := t.resolve(input)
	if err != nil {
		return time.Time{}, err
	}
	if !isValidJulian(tm.year, tm.mon) {
		return time.Time{}, errTimestampOutOfRange()
	}
	date := int64(date2j(tm.year, tm.mon, tm.mday) - postgresEpochJDate)
	clock := (int64(tm.hour*60+tm.min)*60+int64(tm.sec))*usecsPerSec + tm.fsec
	local := date*usecsPerDay + clock
	if (local-clock)/usecsPerDay != date || (local < 0 && date > 0) || (local > 0 && date < -1) {
		return time.Time{}, errTimestampOutOfRange()
	}
	var utc int64
	if tm.hasZone {
		utc = local - int64(tm.zoneOffset)*usecsPerSec
	} else {
		utc = localToUTC(local, loc)
	}
	if utc < minTimestamp || utc >= endTimestamp {
		return time.Time{}, errTimestampOutOfRange()
	}
	if tm.fprec > 0 && tm.fprec < 6 {
		utc = roundMicros(utc, tm.fprec)
	}
	return pgMicrosToTime(utc).In(loc), nil
}

// localToUTC converts a wall-clock time (microseconds since 2000-01-01 as
// if UTC) in loc to a UTC instant.
func localToUTC(local int64, loc *time.Location) int64 {
	w := pgMicrosToTime(local)
	t := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
	_, off := t.Zone()
	return local - int64(off)*usecsPerSec
}

const pgEpochUnixSeconds = int64(postgresEpochJDate-unixEpochJDate) * 86400

func pgMicrosToTime(us int64) time.Time {
	sec := us / usecsPerSec
	frac := us % usecsPerSec
	if frac < 0 {
		frac += usecsPerSec
		sec--
	}
	return time.Unix(sec+pgEpochUnixSeconds, frac*1000).UTC()
}

// roundMicros rounds a timestamp to prec fractional digits, half away
// from zero as AdjustTimestampForTypmod does.
func roundMicros(us int64, prec int) int64 {
	scale := int64(1)
	for i := prec; i < 6; i++ {
		scale *= 10
	}
	half := scale / 2
	if us >= 0 {
		return (us + half) / scale * scale
	}
	return -((-us + half) / scale * scale)
}

// ParseDate is to_date(input, fmt). The year uses astronomical numbering
// like time.Time (0 is 1 BC, -1 is 2 BC).
func (t *DateTimeTemplate) ParseDate(input string) (year int, month time.Month, day int, err error) {
	tm, err := t.resolve(input)
	if err != nil {
		return 0, 0, 0, err
	}
	if !isValidJulian(tm.year, tm.mon) {
		return 0, 0, 0, errDateOutOfRange(input)
	}
	jd := date2j(tm.year, tm.mon, tm.mday)
	if rel := jd - postgresEpochJDate; rel < -postgresEpochJDate || rel >= 2147483494-postgresEpochJDate {
		return 0, 0, 0, errDateOutOfRange(input)
	}
	y, m, d := j2date(jd)
	return y, time.Month(m), d, nil
}
