package types

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Date and timestamp input, after PostgreSQL's datetime parser
// (ParseDateTime and DecodeDateTime): the text is split into fields,
// each field is classified (a date with separators, a time, a number, a
// month or weekday name, BC/AD, AM/PM, a zone, a Julian day), and the
// numbers that are left are placed by their size and the field order of
// DateStyle. SQE supports only DateStyle's MDY order, so 01/02/03 is
// January 2, 2003.

// julianEpochDays is the Julian day number of 1970-01-01.
const julianEpochDays = 2440588

// minDateDays is 4714-11-24 BC (Julian day 0), the first date PostgreSQL
// takes; maxTimestampYear is the last year of a timestamp.
const (
	minDateDays      = -julianEpochDays
	maxDateYear      = 5874897
	maxTimestampYear = 294276
)

// dateTime is what a date or timestamp input says.
type dateTime struct {
	year          int64 // as written, before BC and two-digit adjustment
	month, day    int
	haveYear      bool
	twoDigitYear  bool
	haveMonth     bool
	haveDay       bool
	bc            bool
	julian        bool  // days holds a Julian day
	julianDays    int64 // days since 1970-01-01 of a Julian day or year.doy
	time          int64 // microseconds since midnight
	haveTime      bool
	meridiem      string
	zoneSecs      int            // an explicit offset east of UTC
	zone          *time.Location // or a named zone
	haveZone      bool
	special       string // epoch, infinity, -infinity, now, today, tomorrow, yesterday
	haveTextMonth bool
}

// monthNames are the month words PostgreSQL's datetime input knows.
var monthNames = map[string]int{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11,
	"dec": 12, "december": 12,
}

// weekdayNames are ignored, as PostgreSQL ignores them.
var weekdayNames = map[string]bool{
	"sun": true, "sunday": true, "mon": true, "monday": true, "tue": true, "tues": true, "tuesday": true,
	"wed": true, "wednesday": true, "thu": true, "thur": true, "thurs": true, "thursday": true,
	"fri": true, "friday": true, "sat": true, "saturday": true,
}

// errDatetimeSyntax and errDatetimeRange tell the callers which of
// PostgreSQL's two errors to raise, with their own type name and text.
type datetimeError struct{ overflow bool }

func (e datetimeError) Error() string { return "bad datetime" }

var (
	errDatetimeSyntax = datetimeError{}
	errDatetimeRange  = datetimeError{overflow: true}
)

// datetimeFailure is PostgreSQL's error for bad date/time input s of type
// typ: 22008 for a field out of range, 22007 otherwise.
func datetimeFailure(err error, typ, s string) error {
	if de, ok := err.(datetimeError); ok && de.overflow {
		return pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
	}
	return badDatetime(typ, s)
}

// splitDatetimeFields splits input into fields at whitespace and commas,
// and splits a field where a date runs into a time ("1999-01-08T04:05")
// or a time into its zone ("04:05:06+02", "04:05:06Z").
func splitDatetimeFields(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ','
	}) {
		low := strings.ToLower(f)
		// ISO 8601's T between a date and a time.
		if i := strings.IndexByte(low, 't'); i > 0 && i < len(low)-1 && isDigit(low[i-1]) && isDigit(low[i+1]) {
			out = append(out, low[:i])
			low = low[i+1:]
		}
		// A zone after a time of day.
		if c := strings.IndexByte(low, ':'); c > 0 && isDigit(low[0]) {
			if z := strings.IndexAny(low[c:], "+-z"); z > 0 {
				out = append(out, low[:c+z], low[c+z:])
				continue
			}
		}
		out = append(out, low)
	}
	return out
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// decodeDateTime reads the fields of date or timestamp input.
func decodeDateTime(s string) (dateTime, error) {
	var dt dateTime
	fields := splitDatetimeFields(strings.TrimSpace(s))
	if len(fields) == 0 {
		return dt, errDatetimeSyntax
	}
	if len(fields) == 1 {
		switch fields[0] {
		case "epoch", "infinity", "-infinity", "now", "today", "tomorrow", "yesterday":
			dt.special = fields[0]
			return dt, nil
		}
	}
	for _, f := range fields {
		switch {
		case f == "bc":
			dt.bc = true
		case f == "ad":
		case f == "am" || f == "pm":
			dt.meridiem = f
		case f == "allballs":
			if dt.haveTime {
				return dt, errDatetimeSyntax
			}
			dt.time, dt.haveTime = 0, true
		case f == "z" || f == "utc" || f == "gmt" || f == "zulu":
			dt.haveZone = true
		case f[0] == '+' || f[0] == '-':
			secs, ok := parseZoneOffset(f)
			if !ok {
				return dt, errDatetimeSyntax
			}
			dt.zoneSecs, dt.haveZone = secs, true
		case f[0] == 'j' && len(f) > 1 && allDigits(f[1:]):
			jd, err := strconv.ParseInt(f[1:], 10, 64)
			if err != nil {
				return dt, errDatetimeRange
			}
			dt.julian, dt.julianDays = true, jd-julianEpochDays
		case strings.Contains(f, ":"):
			if dt.haveTime {
				return dt, errDatetimeSyntax
			}
			t, err := parseClock(f)
			if err != nil {
				return dt, err
			}
			dt.time, dt.haveTime = t, true
		case strings.ContainsAny(f, "-/.") && !dt.dateDone():
			if err := dt.decodeDate(f); err != nil {
				return dt, err
			}
		case allDigits(f) && len(f) >= 6 && (!dt.dateDone() || !dt.haveTime):
			if err := dt.decodeNumberField(f); err != nil {
				return dt, err
			}
		case allDigits(f):
			if err := dt.decodeNumber(f); err != nil {
				return dt, err
			}
		default:
			if m, ok := monthNames[f]; ok {
				if err := dt.textMonth(m); err != nil {
					return dt, err
				}
				continue
			}
			if weekdayNames[f] {
				continue
			}
			if strings.Contains(f, "/") {
				if loc, err := LoadZone(f); err == nil {
					dt.zone, dt.haveZone = loc, true
					continue
				}
			}
			return dt, errDatetimeSyntax
		}
	}
	return dt, nil
}

func (dt *dateTime) dateDone() bool { return dt.haveYear && dt.haveMonth && dt.haveDay || dt.julian }

// textMonth sets the month from its name. A number already taken as the
// month becomes the day ("8 January 1999"), as in PostgreSQL.
func (dt *dateTime) textMonth(m int) error {
	if dt.haveMonth {
		if dt.haveTextMonth || dt.haveDay || dt.month < 1 || dt.month > 31 {
			return errDatetimeSyntax
		}
		dt.day, dt.haveDay = dt.month, true
	}
	dt.month, dt.haveMonth, dt.haveTextMonth = m, true, true
	return nil
}

// decodeDate reads a field with separators as PostgreSQL's DecodeDate
// does: a month name among its parts first, then the numbers in order
// (decodeNumber); together they must make a whole date.
func (dt *dateTime) decodeDate(f string) error {
	parts := strings.FieldsFunc(f, func(r rune) bool { return r == '-' || r == '/' || r == '.' })
	var numbers []string
	for _, p := range parts {
		if allDigits(p) {
			numbers = append(numbers, p)
			continue
		}
		m, ok := monthNames[p]
		if !ok {
			return errDatetimeSyntax
		}
		if dt.haveMonth {
			return errDatetimeSyntax
		}
		dt.month, dt.haveMonth, dt.haveTextMonth = m, true, true
	}
	for _, n := range numbers {
		if err := dt.decodeNumber(n); err != nil {
			return err
		}
	}
	if !dt.dateDone() {
		return errDatetimeSyntax
	}
	return nil
}

// decodeNumberField reads six or more digits: YYYYMMDD or YYMMDD before
// any date, HHMMSS after one.
func (dt *dateTime) decodeNumberField(n string) error {
	if !dt.dateDone() {
		switch len(n) {
		case 8:
			return dt.assign([]string{n[:4], n[4:6], n[6:]}, []byte{'y', 'm', 'd'})
		case 6:
			return dt.assign([]string{n[:2], n[2:4], n[4:]}, []byte{'y', 'm', 'd'})
		}
		return errDatetimeSyntax
	}
	if len(n) != 6 {
		return errDatetimeSyntax
	}
	t, err := parseClock(n[:2] + ":" + n[2:4] + ":" + n[4:])
	if err != nil {
		return err
	}
	dt.time, dt.haveTime = t, true
	return nil
}

// assign sets fields from numbers in the given order.
func (dt *dateTime) assign(numbers []string, order []byte) error {
	for i, n := range numbers {
		v, err := strconv.ParseInt(n, 10, 64)
		if err != nil {
			return errDatetimeRange
		}
		switch order[i] {
		case 'y':
			if dt.haveYear {
				return errDatetimeSyntax
			}
			dt.year, dt.haveYear, dt.twoDigitYear = v, true, len(n) <= 2
		case 'm':
			if dt.haveMonth {
				return errDatetimeSyntax
			}
			dt.month, dt.haveMonth = int(min(v, 99)), true
		case 'd':
			if dt.haveDay {
				return errDatetimeSyntax
			}
			dt.day, dt.haveDay = int(min(v, 99)), true
		}
	}
	return nil
}

// decodeNumber places a number standing alone by what is known so far,
// as PostgreSQL's DecodeNumber does in DateStyle MDY order: three digits
// after a year alone are the day of the year; a first number is the year
// when it has three or more digits, else the month; after a month name
// the next number is the day, unless it has three or more digits.
func (dt *dateTime) decodeNumber(n string) error {
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return errDatetimeRange
	}
	switch {
	case len(n) == 3 && dt.haveYear && !dt.haveMonth && !dt.haveDay && v >= 1 && v <= 366:
		y := dt.year
		if dt.bc {
			y = 1 - y
		}
		start, _ := DaysFromCivil(y, 1, 1)
		dt.julian, dt.julianDays = true, start+v-1
		dt.haveYear = false
		return nil
	case !dt.haveYear && !dt.haveMonth && !dt.haveDay:
		if len(n) >= 3 {
			return dt.assign([]string{n}, []byte{'y'})
		}
		return dt.assign([]string{n}, []byte{'m'})
	case dt.haveYear && !dt.haveMonth && !dt.haveDay:
		return dt.assign([]string{n}, []byte{'m'})
	case !dt.haveYear && dt.haveMonth && !dt.haveDay:
		if dt.haveTextMonth && len(n) >= 3 {
			return dt.assign([]string{n}, []byte{'y'})
		}
		return dt.assign([]string{n}, []byte{'d'})
	case dt.haveYear && dt.haveMonth && !dt.haveDay:
		if dt.haveTextMonth && len(n) >= 3 && dt.twoDigitYear {
			// The first number was the day after all (DD-MON-YYYY).
			dt.day, dt.haveDay = int(dt.year), true
			dt.year, dt.twoDigitYear = v, false
			return nil
		}
		return dt.assign([]string{n}, []byte{'d'})
	case !dt.haveYear && dt.haveMonth && dt.haveDay:
		return dt.assign([]string{n}, []byte{'y'})
	}
	return errDatetimeSyntax
}

// parseClock reads HH:MM[:SS[.ffffff]]; 24:00:00 is the end of the day.
func parseClock(f string) (int64, error) {
	parts := strings.Split(f, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, errDatetimeSyntax
	}
	num := func(p string) (int64, error) {
		if !allDigits(p) || len(p) > 9 {
			return 0, errDatetimeSyntax
		}
		v, _ := strconv.ParseInt(p, 10, 64)
		return v, nil
	}
	h, err := num(parts[0])
	if err != nil {
		return 0, err
	}
	m, err := num(parts[1])
	if err != nil {
		return 0, err
	}
	var sec, frac int64
	if len(parts) == 3 {
		secText, fracText, hasFrac := strings.Cut(parts[2], ".")
		if sec, err = num(secText); err != nil {
			return 0, err
		}
		if hasFrac {
			f, ok := parseFraction(fracText)
			if !ok {
				return 0, errDatetimeSyntax
			}
			frac = f
		}
	}
	if h > 24 || m > 59 || sec > 60 {
		return 0, errDatetimeRange
	}
	total := h*microsPerHour + m*microsPerMinute + sec*microsPerSecond + frac
	if total > microsPerDay {
		return 0, errDatetimeRange
	}
	return total, nil
}

// parseZoneOffset reads +HH, +HHMM, +HH:MM or +HH:MM:SS.
func parseZoneOffset(f string) (int, bool) {
	sign := 1
	if f[0] == '-' {
		sign = -1
	}
	body := f[1:]
	var h, m, sec string
	switch parts := strings.Split(body, ":"); {
	case len(parts) > 1:
		if len(parts) > 3 {
			return 0, false
		}
		h, m = parts[0], parts[1]
		if len(parts) == 3 {
			sec = parts[2]
		}
	case len(body) == 4:
		h, m = body[:2], body[2:]
	default:
		h = body
	}
	val := func(p string, limit int) (int, bool) {
		if p == "" {
			return 0, true
		}
		if !allDigits(p) || len(p) > 2 {
			return 0, false
		}
		v, _ := strconv.Atoi(p)
		return v, v < limit
	}
	hv, ok1 := val(h, 16)
	mv, ok2 := val(m, 60)
	sv, ok3 := val(sec, 60)
	if h == "" || !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return sign * (hv*3600 + mv*60 + sv), true
}

// days turns the date fields into days since 1970-01-01.
func (dt *dateTime) days() (int64, error) {
	if dt.julian {
		if dt.haveYear || dt.haveMonth || dt.haveDay {
			return 0, errDatetimeSyntax
		}
		return dt.julianDays, nil
	}

	if !dt.haveYear || !dt.haveMonth || !dt.haveDay {
		return 0, errDatetimeSyntax
	}
	y := dt.year
	switch {
	case dt.bc:
		if y == 0 {
			return 0, errDatetimeRange
		}
		y = 1 - y
	case dt.twoDigitYear:
		if y < 70 {
			y += 2000
		} else {
			y += 1900
		}
	case y == 0:
		return 0, errDatetimeRange
	}
	if dt.month < 1 || dt.month > 12 || dt.day < 1 || dt.day > DaysInMonth(y, dt.month) {
		return 0, errDatetimeRange
	}
	d, ok := DaysFromCivil(y, dt.month, dt.day)
	if !ok {
		return 0, errDatetimeRange
	}
	return d, nil
}

// clock applies AM/PM to the time of day.
func (dt *dateTime) clock() (int64, error) {
	t := dt.time
	switch dt.meridiem {
	case "am", "pm":
		if t >= 13*microsPerHour {
			return 0, errDatetimeRange
		}
		if t >= 12*microsPerHour {
			t -= 12 * microsPerHour
		}
		if dt.meridiem == "pm" {
			t += 12 * microsPerHour
		}
	}
	return t, nil
}

// parseDateInput is date_in for the forms PostgreSQL accepts, in
// DateStyle MDY. A time of day or zone after the date is checked and
// ignored.
func parseDateInput(s string) (any, error) {
	dt, err := decodeDateTime(s)
	if err != nil {
		return nil, datetimeFailure(err, "date", s)
	}
	switch dt.special {
	case "epoch":
		return int32(0), nil
	case "infinity":
		return DatePosInfinity, nil
	case "-infinity":
		return DateNegInfinity, nil
	case "":
	default:
		// today, now ... depend on the session's clock and zone, which
		// this input function does not have.
		return nil, pgerror.Unsupported("date input \"%s\" is not supported yet", strings.TrimSpace(s))
	}
	if _, err := dt.clock(); err != nil {
		return nil, datetimeFailure(err, "date", s)
	}
	days, err := dt.days()
	if err != nil {
		return nil, datetimeFailure(err, "date", s)
	}
	if y, _, _ := CivilFromDays(days); days < minDateDays || y > maxDateYear {
		return nil, pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range: \"%s\"", s)
	}
	return int32(days), nil
}

// parsedTimestamp is timestamp input: the wall clock in micros since the
// epoch, and the zone it named, if any.
type parsedTimestamp struct {
	wall     int64
	haveZone bool
	zoneSecs int
	zone     *time.Location
	special  string // now, today, tomorrow, yesterday: relative to the clock
}

// parseTimestampInput is timestamp_in and timestamptz_in's parsing.
func parseTimestampInput(s string, t T) (parsedTimestamp, error) {
	typ := "timestamp"
	if t.OID == OIDTimestampTZ {
		typ = "timestamp with time zone"
	}
	dt, err := decodeDateTime(s)
	if err != nil {
		return parsedTimestamp{}, datetimeFailure(err, typ, s)
	}
	switch dt.special {
	case "epoch":
		return parsedTimestamp{haveZone: true}, nil
	case "infinity":
		return parsedTimestamp{wall: TimestampPosInfinity, haveZone: true}, nil
	case "-infinity":
		return parsedTimestamp{wall: TimestampNegInfinity, haveZone: true}, nil
	case "":
	default:
		return parsedTimestamp{special: dt.special}, nil
	}
	clock, err := dt.clock()
	if err != nil {
		return parsedTimestamp{}, datetimeFailure(err, typ, s)
	}
	days, err := dt.days()
	if err != nil {
		return parsedTimestamp{}, datetimeFailure(err, typ, s)
	}
	// Microseconds since 1970 in 64 bits end in 294247, a little before
	// PostgreSQL's last timestamp (294276-12-31, counted from 2000).
	if y, _, _ := CivilFromDays(days); days < minDateDays || y > maxTimestampYear || days > math.MaxInt64/microsPerDay-1 {
		return parsedTimestamp{}, pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range: \"%s\"", s)
	}
	return parsedTimestamp{wall: days*microsPerDay + clock, haveZone: dt.haveZone, zoneSecs: dt.zoneSecs, zone: dt.zone}, nil
}

// instant is the timestamptz of p read in session zone loc (nil = UTC),
// or for timestamp without time zone the wall clock (the zone is
// ignored, as in PostgreSQL). now is the clock for 'now' and 'today'.
func (p parsedTimestamp) instant(t T, loc *time.Location, now time.Time) int64 {
	if loc == nil {
		loc = time.UTC
	}
	if p.special != "" {
		wall := LocalMicros(now.UnixMicro(), loc)
		if p.special != "now" {
			wall = floorDiv(wall, microsPerDay) * microsPerDay
			switch p.special {
			case "tomorrow":
				wall += microsPerDay
			case "yesterday":
				wall -= microsPerDay
			}
		}
		if t.OID != OIDTimestampTZ {
			return wall
		}
		if p.special == "now" {
			return now.UnixMicro()
		}
		return InstantFromLocal(wall, loc)
	}
	if t.OID != OIDTimestampTZ || IsInfiniteTimestamp(p.wall) {
		return p.wall
	}
	switch {
	case p.zone != nil:
		return InstantFromLocal(p.wall, p.zone)
	case p.haveZone:
		return p.wall - int64(p.zoneSecs)*microsPerSecond
	case loc == time.UTC:
		return p.wall
	}
	return InstantFromLocal(p.wall, loc)
}
