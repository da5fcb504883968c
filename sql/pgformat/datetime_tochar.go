package pgformat

import "time"

// brokenDown is the field set to_char prints from, PostgreSQL's fmt_tm:
// a calendar date for timestamps, raw interval components for intervals.
type brokenDown struct {
	year, mon, mday int
	hour            int64
	min, sec        int
	yday, wday      int
	fsec            int64 // microseconds
	gmtoff          int   // seconds east of UTC
	zone            string
	isInterval      bool
}

// AppendTimestamp formats ts as to_char(timestamp|timestamptz, fmt) and
// appends the result to dst. The wall clock of ts in ts.Location() is what
// prints. With withZone false (plain timestamp) TZ and tz print nothing and
// OF/TZH/TZM print a zero offset, as PostgreSQL does for timestamp.
func (t *DateTimeTemplate) AppendTimestamp(dst []byte, ts time.Time, withZone bool) []byte {
	y, mo, d := ts.Date()
	h, mi, s := ts.Clock()
	jd := date2j(y, int(mo), d)
	tm := brokenDown{
		year: y, mon: int(mo), mday: d,
		hour: int64(h), min: mi, sec: s,
		yday: jd - date2j(y, 1, 1) + 1,
		wday: j2day(jd),
		fsec: int64(ts.Nanosecond() / 1000),
	}
	if withZone {
		tm.zone, tm.gmtoff = ts.Zone()
	}
	return t.appendFields(dst, &tm)
}

// AppendInterval formats an interval as to_char(interval, fmt). Patterns
// that ValidForInterval rejects print nothing.
func (t *DateTimeTemplate) AppendInterval(dst []byte, months, days int32, micros int64) []byte {
	tm := brokenDown{
		year:       int(months / 12),
		mon:        int(months % 12),
		mday:       int(days),
		isInterval: true,
	}
	tm.hour = micros / 3600000000
	micros -= tm.hour * 3600000000
	tm.min = int(micros / 60000000)
	micros -= int64(tm.min) * 60000000
	tm.sec = int(micros / 1000000)
	tm.fsec = micros - int64(tm.sec)*1000000
	// PostgreSQL approximates the day of year by the whole span in days.
	tm.yday = (tm.year*12+tm.mon)*30 + tm.mday
	return t.appendFields(dst, &tm)
}

// adjustYear maps astronomical years to the BC-style numbering printed
// for timestamps (0 -> 1, -1 -> 2); interval years print as they are.
func (tm *brokenDown) adjustYear(year int) int {
	if !tm.isInterval && year <= 0 {
		return -(year - 1)
	}
	return year
}

func width(n *dtNode, w int) int {
	if n.suffix&sufFM != 0 {
		return 0
	}
	return w
}

// signedWidth is PostgreSQL's "FM ? 0 : (v >= 0 ? w : w+1)" padding rule.
func signedWidth(n *dtNode, v int64, w int) int {
	if n.suffix&sufFM != 0 {
		return 0
	}
	if v < 0 {
		return w + 1
	}
	return w
}

func (t *DateTimeTemplate) appendFields(dst []byte, tm *brokenDown) []byte {
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.kind != nodeAction {
			dst = append(dst, n.text...)
			continue
		}
		id := n.keyword().id
		if tm.isInterval && !intervalAllows(id) {
			continue
		}
		start := len(dst)
		numeric := true
		switch id {
		case dtADDots, dtBCDots, dtAD, dtBC, dtadDots, dtbcDots, dtad, dtbc:
			numeric = false
			dst = appendEra(dst, id, tm.year <= 0)
		case dtAMDots, dtPMDots, dtAM, dtPM, dtamDots, dtpmDots, dtam, dtpm:
			numeric = false
			dst = appendMeridiem(dst, id, tm.hour%24 >= 12)
		case dtHH, dtHH12:
			h := tm.hour % 12
			if h == 0 {
				h = 12
			}
			dst = appendInt(dst, h, signedWidth(n, tm.hour, 2))
		case dtHH24:
			dst = appendInt(dst, tm.hour, signedWidth(n, tm.hour, 2))
		case dtMI:
			dst = appendInt(dst, int64(tm.min), signedWidth(n, int64(tm.min), 2))
		case dtSS:
			dst = appendInt(dst, int64(tm.sec), signedWidth(n, int64(tm.sec), 2))
		case dtFF1:
			dst = appendInt(dst, tm.fsec/100000, 1)
		case dtFF2:
			dst = appendInt(dst, tm.fsec/10000, 2)
		case dtFF3, dtMS:
			dst = appendInt(dst, tm.fsec/1000, 3)
		case dtFF4:
			dst = appendInt(dst, tm.fsec/100, 4)
		case dtFF5:
			dst = appendInt(dst, tm.fsec/10, 5)
		case dtFF6, dtUS:
			dst = appendInt(dst, tm.fsec, 6)
		case dtSSSS:
			dst = appendInt(dst, tm.hour*3600+int64(tm.min*60+tm.sec), 0)
		case dttz, dtTZ:
			numeric = false
			if id == dttz {
				dst = appendLower(dst, tm.zone)
			} else {
				dst = append(dst, tm.zone...)
			}
		case dtTZH:
			numeric = false
			dst = appendOffsetSign(dst, tm.gmtoff)
			dst = appendInt(dst, int64(absInt(tm.gmtoff)/3600), 2)
		case dtTZM:
			numeric = false
			dst = appendInt(dst, int64(absInt(tm.gmtoff)%3600/60), 2)
		case dtOF:
			numeric = false
			dst = appendOffsetSign(dst, tm.gmtoff)
			dst = appendInt(dst, int64(absInt(tm.gmtoff)/3600), width(n, 2))
			if m := absInt(tm.gmtoff) % 3600; m != 0 {
				dst = append(dst, ':')
				dst = appendInt(dst, int64(m/60), 2)
			}
		case dtMONTH, dtMonth, dtmonth:
			numeric = false
			dst = appendName(dst, n, id, monthsFull[tm.mon-1], dtMONTH, dtmonth)
		case dtMON, dtMon, dtmon:
			numeric = false
			dst = appendCase(dst, id, monthsShort[tm.mon-1], dtMON, dtmon)
		case dtMM:
			dst = appendInt(dst, int64(tm.mon), signedWidth(n, int64(tm.mon), 2))
		case dtDAY, dtDay, dtday:
			numeric = false
			dst = appendName(dst, n, id, daysFull[tm.wday], dtDAY, dtday)
		case dtDY, dtDy, dtdy:
			numeric = false
			dst = appendCase(dst, id, daysShort[tm.wday], dtDY, dtdy)
		case dtDDD:
			dst = appendInt(dst, int64(tm.yday), width(n, 3))
		case dtIDDD:
			dst = appendInt(dst, int64(date2isoyearday(tm.year, tm.mon, tm.mday)), width(n, 3))
		case dtDD:
			dst = appendInt(dst, int64(tm.mday), width(n, 2))
		case dtD:
			dst = appendInt(dst, int64(tm.wday+1), 0)
		case dtID:
			d := tm.wday
			if d == 0 {
				d = 7
			}
			dst = appendInt(dst, int64(d), 0)
		case dtWW:
			dst = appendInt(dst, int64((tm.yday-1)/7+1), width(n, 2))
		case dtIW:
			dst = appendInt(dst, int64(date2isoweek(tm.year, tm.mon, tm.mday)), width(n, 2))
		case dtQ:
			if tm.mon == 0 {
				continue
			}
			dst = appendInt(dst, int64((tm.mon-1)/3+1), 0)
		case dtCC:
			dst = appendCentury(dst, n, tm)
		case dtYCommaYYY:
			y := tm.adjustYear(tm.year)
			dst = appendInt(dst, int64(y/1000), 0)
			dst = append(dst, ',')
			dst = appendInt(dst, int64(y-(y/1000)*1000), 3)
		case dtYYYY, dtIYYY, dtYYY, dtIYY, dtYY, dtIY, dtY, dtI:
			dst = appendYear(dst, n, id, tm)
		case dtRM, dtrm:
			numeric = false
			dst = appendRomanMonth(dst, n, id == dtrm, tm)
		case dtW:
			dst = appendInt(dst, int64((tm.mday-1)/7+1), 0)
		case dtJ:
			dst = appendInt(dst, int64(date2j(tm.year, tm.mon, tm.mday)), 0)
		default: // FX prints nothing
			numeric = false
		}
		if numeric && n.suffix&(sufTH|sufth) != 0 {
			dst = appendOrdinal(dst, dst[start:], n.suffix&sufTH != 0)
		}
	}
	return dst
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func appendOffsetSign(dst []byte, gmtoff int) []byte {
	if gmtoff >= 0 {
		return append(dst, '+')
	}
	return append(dst, '-')
}

func appendEra(dst []byte, id dtPattern, bc bool) []byte {
	switch id {
	case dtADDots, dtBCDots:
		return append(dst, pick(bc, "B.C.", "A.D.")...)
	case dtAD, dtBC:
		return append(dst, pick(bc, "BC", "AD")...)
	case dtadDots, dtbcDots:
		return append(dst, pick(bc, "b.c.", "a.d.")...)
	default:
		return append(dst, pick(bc, "bc", "ad")...)
	}
}

func appendMeridiem(dst []byte, id dtPattern, pm bool) []byte {
	switch id {
	case dtAMDots, dtPMDots:
		return append(dst, pick(pm, "P.M.", "A.M.")...)
	case dtAM, dtPM:
		return append(dst, pick(pm, "PM", "AM")...)
	case dtamDots, dtpmDots:
		return append(dst, pick(pm, "p.m.", "a.m.")...)
	default:
		return append(dst, pick(pm, "pm", "am")...)
	}
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// appendCase writes name in the case the pattern spelling asks for.
func appendCase(dst []byte, id dtPattern, name string, upper, lower dtPattern) []byte {
	switch id {
	case upper:
		return appendUpper(dst, name)
	case lower:
		return appendLower(dst, name)
	}
	return append(dst, name...)
}

// appendName writes a full month or day name, padded to nine characters
// unless FM or TM is in effect.
func appendName(dst []byte, n *dtNode, id dtPattern, name string, upper, lower dtPattern) []byte {
	start := len(dst)
	dst = appendCase(dst, id, name, upper, lower)
	if n.suffix&(sufFM|sufTM) == 0 {
		dst = padTo(dst, start, 9)
	}
	return dst
}

func appendCentury(dst []byte, n *dtNode, tm *brokenDown) []byte {
	var c int
	switch {
	case tm.isInterval:
		c = tm.year / 100
	case tm.year > 0:
		c = (tm.year-1)/100 + 1 // century 21 is 2001..2100
	default:
		c = tm.year/100 - 1 // century 6 BC is 600..501 BC
	}
	if c <= 99 && c >= -99 {
		return appendInt(dst, int64(c), signedWidth(n, int64(c), 2))
	}
	return appendInt(dst, int64(c), 0)
}

func appendYear(dst []byte, n *dtNode, id dtPattern, tm *brokenDown) []byte {
	var y int
	switch id {
	case dtIYYY, dtIYY, dtIY, dtI:
		y = tm.adjustYear(date2isoyear(tm.year, tm.mon, tm.mday))
	default:
		y = tm.adjustYear(tm.year)
	}
	switch id {
	case dtYYYY, dtIYYY:
		return appendInt(dst, int64(y), signedWidth(n, int64(y), 4))
	case dtYYY, dtIYY:
		return appendInt(dst, int64(y%1000), signedWidth(n, int64(y), 3))
	case dtYY, dtIY:
		return appendInt(dst, int64(y%100), signedWidth(n, int64(y), 2))
	default:
		return appendInt(dst, int64(y%10), 1)
	}
}

// appendRomanMonth writes the month in Roman numerals, padded to four. For
// intervals a whole number of years prints as XII (or I when negative) and
// negative months count back from December.
func appendRomanMonth(dst []byte, n *dtNode, lower bool, tm *brokenDown) []byte {
	if tm.mon == 0 && tm.year == 0 {
		return dst
	}
	var idx int
	switch {
	case tm.mon == 0:
		if tm.year < 0 {
			idx = 11
		}
	case tm.mon < 0:
		idx = -(tm.mon + 1)
	default:
		idx = 12 - tm.mon
	}
	start := len(dst)
	if lower {
		dst = append(dst, romanMonthsLower[idx]...)
	} else {
		dst = append(dst, romanMonthsUpper[idx]...)
	}
	return padTo(dst, start, width(n, 4))
}
