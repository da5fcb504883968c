package types

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// A session's TimeZone turns timestamptz values, which are UTC instants,
// into wall clocks for output, functions and casts, and reads wall clocks
// without an offset back into instants. The helpers here follow
// PostgreSQL's rules for the ambiguous and skipped wall clocks of DST
// transitions and for printing offsets that are not whole hours.

// LoadZone resolves a TimeZone setting or an AT TIME ZONE argument as
// PostgreSQL does: an IANA name (case-insensitively where the name's
// usual capitalisation can be guessed), UTC/GMT/Z, or a POSIX-style fixed
// offset such as 'UTC+5' or '+05:30', which with POSIX's sign convention
// lie west of Greenwich.
func LoadZone(name string) (*time.Location, error) {
	trimmed := strings.TrimSpace(name)
	switch strings.ToUpper(trimmed) {
	case "UTC", "GMT", "Z", "ZULU", "UCT", "UNIVERSAL", "ETC/UTC", "ETC/GMT", "ETC/UCT", "ETC/UNIVERSAL", "ETC/ZULU", "GMT0", "ETC/GMT0":
		return time.UTC, nil
	}
	if trimmed != "" && trimmed != "Local" && !strings.HasPrefix(trimmed, "/") && !strings.Contains(trimmed, "..") {
		for _, cand := range []string{trimmed, zoneCapitalised(trimmed), strings.ToUpper(trimmed)} {
			if loc, err := time.LoadLocation(cand); err == nil {
				return loc, nil
			}
		}
	}
	if loc, ok := posixFixedZone(trimmed); ok {
		return loc, nil
	}
	return nil, pgerror.New(pgerror.InvalidParameterValue, "time zone \"%s\" not recognized", name)
}

// CanonicalZoneName is the spelling SHOW TimeZone reports for a name
// LoadZone accepted: the IANA name as the database spells it.
func CanonicalZoneName(name string, loc *time.Location) string {
	if s := loc.String(); s != "" && s != "Local" && strings.EqualFold(s, strings.TrimSpace(name)) {
		return s
	}
	return name
}

// zoneCapitalised guesses an IANA name's capitalisation from a
// lower-case spelling: america/new_york → America/New_York.
func zoneCapitalised(s string) string {
	b := []rune(strings.ToLower(s))
	up := true
	for i, r := range b {
		if up {
			b[i] = unicode.ToUpper(r)
		}
		up = r == '/' || r == '_' || r == '-'
	}
	return string(b)
}

// posixFixedZone reads a POSIX TZ string without DST rules: an optional
// abbreviation (letters, or <...>) then an offset [+-]hh[:mm[:ss]] west of
// Greenwich.
func posixFixedZone(s string) (*time.Location, bool) {
	rest := s
	if strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return nil, false
		}
		rest = rest[end+1:]
	} else {
		i := 0
		for i < len(rest) && unicode.IsLetter(rune(rest[i])) {
			i++
		}
		if i > 0 && i < 3 {
			return nil, false
		}
		rest = rest[i:]
	}
	if rest == "" {
		return nil, false
	}
	sign := 1
	switch rest[0] {
	case '+':
		rest = rest[1:]
	case '-':
		sign = -1
		rest = rest[1:]
	}
	parts := strings.Split(rest, ":")
	if len(parts) > 3 {
		return nil, false
	}
	secs := 0
	for i, p := range parts {
		if p == "" || len(p) > 3 {
			return nil, false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || (i > 0 && n > 59) {
			return nil, false
		}
		secs += n * []int{3600, 60, 1}[i]
	}
	if secs > 15*3600+59*60 {
		return nil, false
	}
	return time.FixedZone(s, -sign*secs), true
}

// NumericZoneName is the name PostgreSQL gives SET TIME ZONE -7 (hours
// east of Greenwich, the ISO convention): "<-07>+07".
func NumericZoneName(hours float64) (string, error) {
	secs := int(hours * 3600)
	if secs < -15*3600 || secs > 15*3600 {
		return "", pgerror.New(pgerror.InvalidParameterValue, "invalid value for parameter \"TimeZone\": \"%g\"", hours)
	}
	abbrev := string(AppendZoneOffset(nil, secs))
	posix := string(AppendZoneOffset(nil, -secs))
	if secs == 0 {
		posix = "-00" // as PostgreSQL spells it
	}
	return "<" + abbrev + ">" + posix, nil
}

// ZoneOffset is the offset east of UTC, in seconds, in effect in loc at
// the instant micros.
func ZoneOffset(micros int64, loc *time.Location) int {
	if loc == time.UTC || loc == nil || IsInfiniteTimestamp(micros) {
		return 0
	}
	_, off := time.Unix(floorDivMicros(micros), 0).In(loc).Zone()
	return off
}

// LocalMicros is the wall clock, as micros since the epoch of a timestamp
// without time zone, that loc shows at the instant micros.
func LocalMicros(micros int64, loc *time.Location) int64 {
	return micros + int64(ZoneOffset(micros, loc))*1_000_000
}

// InstantFromLocal is the instant at which loc's wall clock reads wall
// (micros of a timestamp without time zone). A wall clock skipped by a
// spring-forward transition takes the offset from before it; one repeated
// by a fall-back transition takes the offset from after it, as in
// PostgreSQL.
func InstantFromLocal(wall int64, loc *time.Location) int64 {
	if loc == time.UTC || loc == nil || IsInfiniteTimestamp(wall) {
		return wall
	}
	w := floorDivMicros(wall)
	frac := wall - w*1_000_000
	guess := time.Unix(w, 0).In(loc)
	_, off := guess.Zone()
	cur := time.Unix(w-int64(off), 0).In(loc)
	start, end := cur.ZoneBounds()
	_, curOff := cur.Zone()
	type period struct {
		off        int64
		start, end int64
		open       [2]bool // unbounded start, end
	}
	mk := func(t time.Time) period {
		s, e := t.ZoneBounds()
		_, o := t.Zone()
		p := period{off: int64(o), open: [2]bool{s.IsZero(), e.IsZero()}}
		if !s.IsZero() {
			p.start = s.Unix()
		}
		if !e.IsZero() {
			p.end = e.Unix()
		}
		return p
	}
	periods := []period{mk(cur)}
	if !start.IsZero() {
		periods = append([]period{mk(start.Add(-time.Second))}, periods...)
	}
	if !end.IsZero() {
		periods = append(periods, mk(end))
	}
	valid := func(p period) bool {
		t := w - p.off
		return (p.open[0] || t >= p.start) && (p.open[1] || t < p.end)
	}
	// The latest valid interpretation wins (fall-back: after).
	for i := len(periods) - 1; i >= 0; i-- {
		if valid(periods[i]) {
			return (w-periods[i].off)*1_000_000 + frac
		}
	}
	// A skipped wall clock: the offset before the transition it falls in.
	for i := 0; i+1 < len(periods); i++ {
		b, a := periods[i], periods[i+1]
		if w-b.off >= a.start && w-a.off < a.start {
			return (w-b.off)*1_000_000 + frac
		}
	}
	return (w-int64(curOff))*1_000_000 + frac
}

func floorDivMicros(m int64) int64 {
	q := m / 1_000_000
	if m%1_000_000 < 0 {
		q--
	}
	return q
}

// AppendZoneOffset appends an offset east of UTC as PostgreSQL prints it:
// +HH, +HH:MM when minutes are not zero, +HH:MM:SS when seconds are not.
func AppendZoneOffset(dst []byte, secs int) []byte {
	sign := byte('+')
	if secs < 0 {
		sign = '-'
		secs = -secs
	}
	dst = append(dst, sign)
	dst = appendPadded(dst, int64(secs/3600), 2)
	if secs%3600 != 0 {
		dst = append(dst, ':')
		dst = appendPadded(dst, int64(secs/60%60), 2)
		if secs%60 != 0 {
			dst = append(dst, ':')
			dst = appendPadded(dst, int64(secs%60), 2)
		}
	}
	return dst
}

// AppendTimestampTZ appends a timestamptz as timestamptz_out does in
// session zone loc: the wall clock, then its offset.
func AppendTimestampTZ(dst []byte, micros int64, loc *time.Location) []byte {
	off := ZoneOffset(micros, loc)
	var zone [12]byte
	return AppendTimestamp(dst, micros+int64(off)*1_000_000, string(AppendZoneOffset(zone[:0], off)))
}

// ParseTimestampIn reads text as a value of t (timestamp or timestamptz)
// with a session in zone loc: a timestamptz written without a zone is a
// wall clock in loc, and 'now', 'today', 'tomorrow' and 'yesterday' are
// read on the clock in loc.
func ParseTimestampIn(s string, t T, loc *time.Location) (int64, error) {
	p, err := parseTimestampInput(s, t)
	if err != nil {
		return 0, err
	}
	return p.instant(t, loc, time.Now()), nil
}
