package types

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// IntervalValue is a PostgreSQL interval: months, days and microseconds kept
// apart, because a month and a day have no fixed length (a day across a
// daylight-saving change, a month of 28 to 31 days). Arrow's
// month_day_nano interval has the same three parts, in nanoseconds.
type IntervalValue struct {
	Months int32
	Days   int32
	Micros int64
}

const (
	microsPerSecond = 1_000_000
	microsPerMinute = 60 * microsPerSecond
	microsPerHour   = 60 * microsPerMinute
	daysPerMonth    = 30
)

// ToArrow is the interval as Arrow holds it.
func (iv IntervalValue) ToArrow() arrow.MonthDayNanoInterval {
	return arrow.MonthDayNanoInterval{Months: iv.Months, Days: iv.Days, Nanoseconds: iv.Micros * 1000}
}

// IntervalFromArrow reads an Arrow interval, flooring nanoseconds to
// PostgreSQL's microseconds.
func IntervalFromArrow(v arrow.MonthDayNanoInterval) IntervalValue {
	us := v.Nanoseconds / 1000
	if v.Nanoseconds%1000 < 0 {
		us--
	}
	return IntervalValue{Months: v.Months, Days: v.Days, Micros: us}
}

// SpanKey orders intervals as PostgreSQL does: as if a month were 30
// days and a day 24 hours. Two intervals with equal keys are equal
// ('1 month' = '30 days'); the key is (whole days, microseconds into the
// last day), which cannot overflow.
func (iv IntervalValue) SpanKey() (days int64, micros int64) {
	days = int64(iv.Months)*daysPerMonth + int64(iv.Days) + iv.Micros/microsPerDay
	micros = iv.Micros % microsPerDay
	if micros < 0 {
		micros += microsPerDay
		days--
	}
	return days, micros
}

// CompareIntervals returns -1, 0 or 1 as a is shorter than, as long as or
// longer than b.
func CompareIntervals(a, b IntervalValue) int {
	ad, am := a.SpanKey()
	bd, bm := b.SpanKey()
	switch {
	case ad < bd || (ad == bd && am < bm):
		return -1
	case ad == bd && am == bm:
		return 0
	}
	return 1
}

// Interval field masks of an interval type modifier (INTERVAL '3' DAY),
// as PostgreSQL's INTERVAL_MASK gives them.
const (
	IntervalMonth  int32 = 1 << 1
	IntervalYear   int32 = 1 << 2
	IntervalDay    int32 = 1 << 3
	IntervalHour   int32 = 1 << 10
	IntervalMinute int32 = 1 << 11
	IntervalSecond int32 = 1 << 12
	// IntervalFullRange is the mask of an interval without fields.
	IntervalFullRange int32 = 0x7FFF
)

func errIntervalRange() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "interval out of range")
}

func badInterval(s string) error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input syntax for type interval: \"%s\"", s)
}

// intervalBuilder accumulates an interval's parts in float64 while
// parsing, so that overflow is detected before conversion.
type intervalBuilder struct {
	months, days, micros float64
}

// addUnit adds v units, cascading a fraction into the smaller parts as
// PostgreSQL's DecodeInterval does (1.5 months = 1 month 15 days).
func (b *intervalBuilder) addUnit(unit string, v float64) bool {
	whole, frac := math.Modf(v)
	switch unit {
	case "microsecond":
		b.micros += v
	case "millisecond":
		b.micros += v * 1000
	case "second":
		b.micros += v * microsPerSecond
	case "minute":
		b.micros += v * microsPerMinute
	case "hour":
		b.micros += v * microsPerHour
	case "day":
		b.days += whole
		b.micros += frac * microsPerDay
	case "week":
		d := v * 7
		wd, fd := math.Modf(d)
		b.days += wd
		b.micros += fd * microsPerDay
	case "month":
		b.months += whole
		d := frac * daysPerMonth
		wd, fd := math.Modf(d)
		b.days += wd
		b.micros += fd * microsPerDay
	case "year":
		b.months += whole*12 + math.RoundToEven(frac*12)
	case "decade":
		b.months += whole*120 + math.RoundToEven(frac*120)
	case "century":
		b.months += whole*1200 + math.RoundToEven(frac*1200)
	case "millennium":
		b.months += whole*12000 + math.RoundToEven(frac*12000)
	default:
		return false
	}
	return true
}

// intervalUnits maps the unit words interval input accepts to their
// canonical unit.
var intervalUnits = map[string]string{
	"microsecond": "microsecond", "microseconds": "microsecond", "microsecon": "microsecond", "us": "microsecond", "usec": "microsecond", "usecs": "microsecond", "useconds": "microsecond",
	"millisecond": "millisecond", "milliseconds": "millisecond", "millisecon": "millisecond", "ms": "millisecond", "msec": "millisecond", "msecs": "millisecond", "mseconds": "millisecond",
	"second": "second", "seconds": "second", "sec": "second", "secs": "second", "s": "second",
	"minute": "minute", "minutes": "minute", "min": "minute", "mins": "minute", "m": "minute",
	"hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour", "h": "hour",
	"day": "day", "days": "day", "d": "day",
	"week": "week", "weeks": "week", "w": "week",
	"month": "month", "months": "month", "mon": "month", "mons": "month",
	"year": "year", "years": "year", "yr": "year", "yrs": "year", "y": "year",
	"decade": "decade", "decades": "decade", "dec": "decade", "decs": "decade",
	"century": "century", "centuries": "century", "cent": "century", "c": "century",
	"millennium": "millennium", "millennia": "millennium", "millenniums": "millennium", "mil": "millennium", "mils": "millennium",
}

// ParseInterval reads interval input in PostgreSQL's postgres style
// ("1 year 2 mons 3 days 04:05:06.5", "@ 1 hour ago", "-1 day +02:00")
// and ISO 8601 designators ("P1Y2M3DT4H5M6S"). fields is the type
// modifier's field mask (IntervalFullRange for none): a bare number is
// read in its lowest field, and smaller parts are truncated away.
func ParseInterval(s string, fields int32) (IntervalValue, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "" {
		return IntervalValue{}, badInterval(s)
	}
	var b intervalBuilder
	var err error
	if in[0] == 'p' {
		err = parseISOInterval(in[1:], &b)
	} else {
		err = parsePostgresInterval(in, fields, &b)
	}
	if err != nil {
		if _, ok := err.(*pgerror.Error); ok {
			return IntervalValue{}, err
		}
		return IntervalValue{}, badInterval(s)
	}
	iv, ok := b.interval()
	if !ok {
		return IntervalValue{}, pgerror.New(pgerror.IntervalFieldOverflow, "interval field value out of range: \"%s\"", s)
	}
	return truncateInterval(iv, fields), nil
}

func (b *intervalBuilder) interval() (IntervalValue, bool) {
	micros := math.RoundToEven(b.micros)
	if math.Abs(b.months) > math.MaxInt32 || math.Abs(b.days) > math.MaxInt32 || math.Abs(micros) >= math.MaxInt64 {
		return IntervalValue{}, false
	}
	return IntervalValue{Months: int32(b.months), Days: int32(b.days), Micros: int64(micros)}, true
}

// parsePostgresInterval reads a sequence of "number unit" pairs and at
// most one [-]HH:MM[:SS] time, with an optional leading '@' and a
// trailing "ago".
func parsePostgresInterval(in string, fields int32, b *intervalBuilder) error {
	in = strings.TrimPrefix(in, "@")
	i := 0
	sawAny, ago := false, false
	skipSpace := func() {
		for i < len(in) && unicode.IsSpace(rune(in[i])) {
			i++
		}
	}
	for {
		skipSpace()
		if i >= len(in) {
			break
		}
		if ago {
			return syntaxError{}
		}
		c := in[i]
		if isLetter(c) {
			w := readWord(in, &i)
			if w == "ago" && sawAny {
				ago = true
				continue
			}
			return syntaxError{}
		}
		numStart := i
		if c == '+' || c == '-' {
			i++
		}
		for i < len(in) && (isDigit(in[i]) || in[i] == '.') {
			i++
		}
		num := in[numStart:i]
		if i < len(in) && in[i] == ':' {
			if err := parseIntervalTime(in, numStart, &i, b); err != nil {
				return err
			}
			sawAny = true
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return syntaxError{}
		}
		skipSpace()
		unit := ""
		if i < len(in) && isLetter(in[i]) {
			save := i
			w := readWord(in, &i)
			if u, ok := intervalUnits[w]; ok {
				unit = u
			} else if w == "ago" {
				i = save
			} else {
				return syntaxError{}
			}
		}
		if unit == "" {
			// A bare number: days when a time follows ("1 02:00"),
			// else the lowest field of the type modifier, else seconds.
			rest := i
			for rest < len(in) && (isDigit(in[rest]) || in[rest] == '+' || in[rest] == '-') {
				rest++
			}
			if rest < len(in) && in[rest] == ':' && rest > i {
				unit = "day"
			} else {
				unit = lowestField(fields)
			}
		}
		b.addUnit(unit, v)
		sawAny = true
	}
	if !sawAny {
		return syntaxError{}
	}
	if ago {
		b.months, b.days, b.micros = -b.months, -b.days, -b.micros
	}
	return nil
}

// syntaxError marks malformed input; ParseInterval and ParseTime replace
// it with PostgreSQL's message quoting the whole input.
type syntaxError struct{}

func (syntaxError) Error() string { return "invalid syntax" }

// parseIntervalTime reads [+-]H:MM[:SS[.f]] starting at start.
func parseIntervalTime(in string, start int, i *int, b *intervalBuilder) error {
	j := start
	neg := false
	if in[j] == '+' || in[j] == '-' {
		neg = in[j] == '-'
		j++
	}
	end := j
	for end < len(in) && (isDigit(in[end]) || in[end] == ':' || in[end] == '.') {
		end++
	}
	parts := strings.Split(in[j:end], ":")
	if len(parts) < 2 || len(parts) > 3 {
		return syntaxError{}
	}
	h, err := strconv.ParseFloat(parts[0], 64)
	if err != nil || strings.Contains(parts[0], ".") {
		return syntaxError{}
	}
	m, err := strconv.ParseFloat(parts[1], 64)
	if err != nil || m >= 60 || (len(parts) == 3 && strings.Contains(parts[1], ".")) {
		return syntaxError{}
	}
	var sec float64
	if len(parts) == 3 {
		if sec, err = strconv.ParseFloat(parts[2], 64); err != nil || sec >= 60 {
			return syntaxError{}
		}
	}
	micros := h*microsPerHour + m*microsPerMinute + sec*microsPerSecond
	if neg {
		micros = -micros
	}
	b.micros += micros
	*i = end
	return nil
}

// parseISOInterval reads the part after 'P' of an ISO 8601 duration with
// designators: nY nM nW nD, then T nH nM nS.
func parseISOInterval(in string, b *intervalBuilder) error {
	timePart := false
	if in == "" {
		return syntaxError{}
	}
	for i := 0; i < len(in); {
		if in[i] == 't' {
			if timePart {
				return syntaxError{}
			}
			timePart = true
			i++
			continue
		}
		start := i
		if in[i] == '-' || in[i] == '+' {
			i++
		}
		for i < len(in) && (isDigit(in[i]) || in[i] == '.') {
			i++
		}
		if i == start || i >= len(in) {
			return syntaxError{}
		}
		v, err := strconv.ParseFloat(in[start:i], 64)
		if err != nil {
			return syntaxError{}
		}
		var unit string
		switch d := in[i]; {
		case d == 'y' && !timePart:
			unit = "year"
		case d == 'm' && !timePart:
			unit = "month"
		case d == 'w' && !timePart:
			unit = "week"
		case d == 'd' && !timePart:
			unit = "day"
		case d == 'h' && timePart:
			unit = "hour"
		case d == 'm' && timePart:
			unit = "minute"
		case d == 's' && timePart:
			unit = "second"
		default:
			return syntaxError{}
		}
		b.addUnit(unit, v)
		i++
	}
	return nil
}

// lowestField is the unit a bare number is read in for a field mask.
func lowestField(fields int32) string {
	switch {
	case fields == IntervalFullRange || fields&IntervalSecond != 0:
		return "second"
	case fields&IntervalMinute != 0:
		return "minute"
	case fields&IntervalHour != 0:
		return "hour"
	case fields&IntervalDay != 0:
		return "day"
	case fields&IntervalMonth != 0:
		return "month"
	case fields&IntervalYear != 0:
		return "year"
	}
	return "second"
}

// truncateInterval drops the parts below a field mask's lowest field, as
// PostgreSQL's AdjustIntervalForTypmod does.
func truncateInterval(iv IntervalValue, fields int32) IntervalValue {
	switch lowestField(fields) {
	case "year":
		return IntervalValue{Months: iv.Months / 12 * 12}
	case "month":
		return IntervalValue{Months: iv.Months}
	case "day":
		return IntervalValue{Months: iv.Months, Days: iv.Days}
	case "hour":
		iv.Micros = iv.Micros / microsPerHour * microsPerHour
	case "minute":
		iv.Micros = iv.Micros / microsPerMinute * microsPerMinute
	}
	return iv
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

func readWord(in string, i *int) string {
	start := *i
	for *i < len(in) && isLetter(in[*i]) {
		*i++
	}
	return in[start:*i]
}

// AppendInterval appends iv as PostgreSQL's IntervalStyle postgres prints
// it: "1 year 2 mons 3 days 04:05:06.5", "-1 days +02:00:00", "00:00:00".
func AppendInterval(dst []byte, iv IntervalValue) []byte {
	years := int64(iv.Months) / 12
	months := int64(iv.Months) % 12
	isZero, isBefore := true, false
	part := func(v int64, unit string) {
		if v == 0 {
			return
		}
		if !isZero {
			dst = append(dst, ' ')
		}
		if isBefore && v > 0 {
			dst = append(dst, '+')
		}
		dst = strconv.AppendInt(dst, v, 10)
		dst = append(dst, ' ')
		dst = append(dst, unit...)
		if v != 1 {
			dst = append(dst, 's')
		}
		isBefore = v < 0
		isZero = false
	}
	part(years, "year")
	part(months, "mon")
	part(int64(iv.Days), "day")
	if isZero || iv.Micros != 0 {
		if !isZero {
			dst = append(dst, ' ')
		}
		u := iv.Micros
		switch {
		case u < 0:
			dst = append(dst, '-')
		case isBefore:
			dst = append(dst, '+')
		}
		dst = appendClock(dst, absUint(u))
	}
	return dst
}

func absUint(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

// appendClock appends HH:MM:SS[.ffffff] for a non-negative duration in
// microseconds; hours may exceed 24 (intervals) and take at least two
// digits. Trailing fractional zeros are trimmed.
func appendClock(dst []byte, u uint64) []byte {
	hours := u / microsPerHour
	rem := u % microsPerHour
	dst = appendPadded(dst, int64(hours), 2)
	dst = append(dst, ':')
	dst = appendPadded(dst, int64(rem/microsPerMinute), 2)
	dst = append(dst, ':')
	rem %= microsPerMinute
	dst = appendPadded(dst, int64(rem/microsPerSecond), 2)
	if frac := rem % microsPerSecond; frac != 0 {
		width := 6
		for frac%10 == 0 {
			frac /= 10
			width--
		}
		dst = append(dst, '.')
		dst = appendPadded(dst, int64(frac), width)
	}
	return dst
}
