package types

import (
	"strconv"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Values of time without time zone are microseconds since midnight,
// 0 to 24:00:00 inclusive (PostgreSQL accepts 24:00:00 as the end of a
// day).

func badTime(s string) error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input syntax for type time: \"%s\"", s)
}

// ParseTime reads time input: HH:MM[:SS[.ffffff]] with an optional AM/PM,
// "allballs", or a timestamp whose time part is taken.
func ParseTime(s string) (int64, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "allballs" {
		return 0, nil
	}
	// A date before the time is accepted and ignored, as time_in does.
	if i := strings.IndexAny(in, " t"); i == 10 && strings.Count(in[:i], "-") == 2 {
		in = strings.TrimSpace(in[i+1:])
	}
	meridiem := ""
	for _, suffix := range []string{"am", "pm"} {
		if strings.HasSuffix(in, suffix) {
			meridiem = suffix
			in = strings.TrimSpace(strings.TrimSuffix(in, suffix))
		}
	}
	parts := strings.Split(in, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, badTime(s)
	}
	field := func(p string, limit int64) (int64, bool) {
		if p == "" || len(p) > 2 && limit < 100 {
			return 0, false
		}
		v, err := strconv.ParseInt(p, 10, 64)
		return v, err == nil && v >= 0 && v < limit
	}
	h, ok1 := field(parts[0], 25)
	m, ok2 := field(parts[1], 60)
	if !ok1 || !ok2 {
		return 0, fieldOverflowOrSyntax(s, parts)
	}
	var micros int64
	if len(parts) == 3 {
		secText, fracText, hasFrac := strings.Cut(parts[2], ".")
		sec, ok := field(secText, 61)
		if !ok {
			return 0, fieldOverflowOrSyntax(s, parts)
		}
		micros = sec * microsPerSecond
		if hasFrac {
			f, ok := parseFraction(fracText)
			if !ok {
				return 0, badTime(s)
			}
			micros += f
		}
	}
	switch meridiem {
	case "am":
		if h > 12 {
			return 0, pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
		}
		if h == 12 {
			h = 0
		}
	case "pm":
		if h > 12 {
			return 0, pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
		}
		if h != 12 {
			h += 12
		}
	}
	total := h*microsPerHour + m*microsPerMinute + micros
	if total > microsPerDay {
		return 0, pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
	}
	return total, nil
}

// fieldOverflowOrSyntax distinguishes "25:00" (out of range, 22008)
// from "ab:cd" (syntax, 22007).
func fieldOverflowOrSyntax(s string, parts []string) error {
	for _, p := range parts {
		digits, _, _ := strings.Cut(p, ".")
		if _, err := strconv.ParseUint(digits, 10, 64); err != nil {
			return badTime(s)
		}
	}
	return pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", s)
}

// parseFraction reads the digits after a decimal point as microseconds,
// rounding beyond the sixth digit.
func parseFraction(digits string) (int64, bool) {
	if digits == "" {
		return 0, true
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		switch {
		case i < 6:
			v = v*10 + int64(c-'0')
		case i == 6 && c >= '5':
			v++
		}
	}
	for i := len(digits); i < 6; i++ {
		v *= 10
	}
	return v, true
}

// AppendTime appends HH:MM:SS[.ffffff] for microseconds since midnight.
func AppendTime(dst []byte, micros int64) []byte {
	if micros < 0 {
		micros = 0
	}
	return appendClock(dst, uint64(micros))
}
