package ranger

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// scheduleLayout is how Ranger writes a validity schedule's times.
const scheduleLayout = "2006/01/02 15:04:05"

// window is a compiled validity schedule: the policy applies from start
// to end (both inclusive, as Ranger compares them); a zero bound is open.
// With recurrences it applies, within those bounds, only while one of
// them holds.
type window struct {
	start, end  time.Time
	recurrences []recurrence
}

func compileSchedules(ss []ValiditySchedule) ([]window, error) {
	var out []window
	for i, s := range ss {
		// Ranger reads a schedule without a time zone as GMT.
		loc := time.UTC
		if s.TimeZone != "" {
			l, err := time.LoadLocation(s.TimeZone)
			if err != nil {
				return nil, fmt.Errorf("validity schedule %d: time zone %q: %w", i+1, s.TimeZone, err)
			}
			loc = l
		}
		var w window
		var err error
		if s.StartTime != "" {
			if w.start, err = time.ParseInLocation(scheduleLayout, s.StartTime, loc); err != nil {
				return nil, fmt.Errorf("validity schedule %d: start time: %w", i+1, err)
			}
		}
		if s.EndTime != "" {
			if w.end, err = time.ParseInLocation(scheduleLayout, s.EndTime, loc); err != nil {
				return nil, fmt.Errorf("validity schedule %d: end time: %w", i+1, err)
			}
		}
		for j, r := range s.Recurrences {
			cr, err := compileRecurrence(r, loc)
			if err != nil {
				return nil, fmt.Errorf("validity schedule %d, recurrence %d: %w", i+1, j+1, err)
			}
			w.recurrences = append(w.recurrences, cr)
		}
		out = append(out, w)
	}
	return out, nil
}

// inSchedule reports whether a policy with these windows applies at t: it
// does when it has none, or when t falls in one of them.
func inSchedule(ws []window, t time.Time) bool {
	if len(ws) == 0 {
		return true
	}
	for _, w := range ws {
		if (w.start.IsZero() || !t.Before(w.start)) && (w.end.IsZero() || !t.After(w.end)) && w.recurs(t) {
			return true
		}
	}
	return false
}

func (w window) recurs(t time.Time) bool {
	if len(w.recurrences) == 0 {
		return true
	}
	for _, r := range w.recurrences {
		if r.holds(t) {
			return true
		}
	}
	return false
}

// recurrence is a compiled ValidityRecurrence: it holds at t when the
// latest minute at or before t whose fields match the schedule, in the
// schedule's time zone, started an interval that has not ended by t.
// A day matches by its day of month or by its day of week (whichever
// field is given; either when both are), as Ranger takes the later of
// the two candidates.
type recurrence struct {
	loc                                 *time.Location
	minutes, hours, months, years       fieldSet
	daysOfMonth, daysOfWeek             fieldSet
	byDayOfMonth, byDayOfWeek           bool
	days, hoursLong, minutesLong, total int
}

// Ranger's bounds for each schedule field (RecurrenceSchedule.ScheduleFieldSpec,
// months counted from 1 as written).
var (
	minuteField     = fieldBounds{"minute", 0, 59}
	hourField       = fieldBounds{"hour", 0, 23}
	dayOfMonthField = fieldBounds{"dayOfMonth", 1, 31}
	dayOfWeekField  = fieldBounds{"dayOfWeek", 1, 7}
	monthField      = fieldBounds{"month", 1, 12}
	yearField       = fieldBounds{"year", 2017, 2100}
)

type fieldBounds struct {
	name     string
	min, max int
}

// fieldSet is the values a schedule field matches, as bits above min.
type fieldSet struct {
	min  int
	bits [2]uint64
}

func (f fieldSet) has(v int) bool {
	i := v - f.min
	return i >= 0 && i < 128 && f.bits[i/64]&(1<<(i%64)) != 0
}

// parseField reads one schedule field: values and ranges separated by
// commas, "*" (alone or as either end of a range) for every value; an
// empty field is every value.
func parseField(spec string, b fieldBounds) (fieldSet, error) {
	f := fieldSet{min: b.min}
	all := func() fieldSet {
		for v := b.min; v <= b.max; v++ {
			i := v - b.min
			f.bits[i/64] |= 1 << (i % 64)
		}
		return f
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return all(), nil
	}
	for _, item := range strings.Split(spec, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(item), "-")
		if !isRange {
			hi = lo
		}
		lo, hi = strings.TrimSpace(lo), strings.TrimSpace(hi)
		if lo == "*" || hi == "*" {
			return all(), nil
		}
		l, err1 := strconv.Atoi(lo)
		h, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || l < b.min || h > b.max || l > h {
			return f, fmt.Errorf("%s %q: want values or ranges from %d to %d, or *", b.name, item, b.min, b.max)
		}
		for v := l; v <= h; v++ {
			i := v - b.min
			f.bits[i/64] |= 1 << (i % 64)
		}
	}
	return f, nil
}

func compileRecurrence(r ValidityRecurrence, loc *time.Location) (recurrence, error) {
	c := recurrence{loc: loc, days: r.Interval.Days, hoursLong: r.Interval.Hours, minutesLong: r.Interval.Minutes}
	if c.days < 0 || c.hoursLong < 0 || c.minutesLong < 0 {
		return c, fmt.Errorf("interval %+v is negative", r.Interval)
	}
	c.total = c.days*24*60 + c.hoursLong*60 + c.minutesLong
	s := r.Schedule
	var err error
	for _, f := range []struct {
		spec string
		b    fieldBounds
		to   *fieldSet
	}{
		{s.Minute, minuteField, &c.minutes}, {s.Hour, hourField, &c.hours},
		{s.Month, monthField, &c.months}, {s.Year, yearField, &c.years},
		{s.DayOfMonth, dayOfMonthField, &c.daysOfMonth}, {s.DayOfWeek, dayOfWeekField, &c.daysOfWeek},
	} {
		if *f.to, err = parseField(f.spec, f.b); err != nil {
			return c, err
		}
	}
	c.byDayOfMonth, c.byDayOfWeek = strings.TrimSpace(s.DayOfMonth) != "", strings.TrimSpace(s.DayOfWeek) != ""
	if c.total > 0 && !c.byDayOfMonth && !c.byDayOfWeek {
		// Ranger finds no start for such a schedule and never applies
		// it; a deny written so would silently never deny.
		return c, fmt.Errorf("schedule gives neither dayOfMonth nor dayOfWeek")
	}
	return c, nil
}

func (r recurrence) holds(now time.Time) bool {
	if r.total == 0 {
		return true // Ranger lets a recurrence without an interval hold
	}
	now = now.In(r.loc)
	// No start earlier than this can reach now (an hour's slack for a
	// daylight-saving change inside the interval).
	earliest := now.Add(-time.Duration(r.total)*time.Minute - time.Hour)
	y, m, d := now.Date()
	maxHour, maxMinute := now.Hour(), now.Minute()
	for back := 0; ; back++ {
		day := time.Date(y, m, d-back, 0, 0, 0, 0, r.loc)
		dy, dm, dd := day.Date()
		if time.Date(dy, dm, dd, 23, 59, 0, 0, r.loc).Before(earliest) {
			return false
		}
		if back > 0 {
			maxHour, maxMinute = 23, 59
		}
		if !r.dayMatches(day) {
			continue
		}
		if start, ok := r.latestStartOn(dy, dm, dd, maxHour, maxMinute, now); ok {
			end := start.Add(time.Duration(r.hoursLong)*time.Hour+time.Duration(r.minutesLong)*time.Minute).AddDate(0, 0, r.days)
			return !now.After(end)
		}
	}
}

func (r recurrence) dayMatches(day time.Time) bool {
	if !r.years.has(day.Year()) || !r.months.has(int(day.Month())) {
		return false
	}
	return r.byDayOfMonth && r.daysOfMonth.has(day.Day()) ||
		r.byDayOfWeek && r.daysOfWeek.has(int(day.Weekday())+1) // Ranger: 1 = Sunday
}

// latestStartOn is the latest matching minute of the day at or before
// maxHour:maxMinute and not after now (a time a daylight-saving gap moves
// forward may pass it).
func (r recurrence) latestStartOn(y int, m time.Month, d, maxHour, maxMinute int, now time.Time) (time.Time, bool) {
	for h := maxHour; h >= 0; h-- {
		if !r.hours.has(h) {
			continue
		}
		top := 59
		if h == maxHour {
			top = maxMinute
		}
		for mi := top; mi >= 0; mi-- {
			if r.minutes.has(mi) {
				if t := time.Date(y, m, d, h, mi, 0, 0, r.loc); !t.After(now) {
					return t, true
				}
			}
		}
	}
	return time.Time{}, false
}
