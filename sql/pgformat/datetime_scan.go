package pgformat

import (
	"math"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// inputFields collects what to_timestamp reads from its input before the
// fields are resolved into a date (PostgreSQL's TmFromChar). Zero means
// "not given", which is why a second, different value for a field is a
// conflict only when the first was non-zero.
type inputFields struct {
	mode     dateMode
	hh, pm   int
	mi, ss   int
	ssss     int
	d, dd    int
	ddd, mm  int
	ms, us   int
	ff       int // FFn precision, rounds the result
	year, bc int
	ww, w    int
	cc, j    int
	yysz     int // digits of the year field, CC applies only to 1-2 digit years
	clock12  bool
	tzsign   int
	tzh, tzm int
}

// scanner walks the input text alongside the template nodes.
type scanner struct {
	nodes []dtNode
	in    string
	p     int
	out   inputFields
}

func (sc *scanner) cur() byte {
	if sc.p < len(sc.in) {
		return sc.in[sc.p]
	}
	return 0
}

func (sc *scanner) advanceRune() {
	if sc.p < len(sc.in) {
		sc.p += runeLen(sc.in[sc.p:])
	}
}

// scan is PostgreSQL's DCH_from_char in its non-standard mode: outside FX
// mode, runs of spaces are skipped around fields and a template separator
// matches one input space or separator, or nothing.
func (sc *scanner) scan() error {
	fx := false
	extraSkip := 0
	for i := 0; i < len(sc.nodes) && sc.p < len(sc.in); i++ {
		n := &sc.nodes[i]
		isFX := n.kind == nodeAction && n.keyword().id == dtFX
		if !fx && !isFX && (n.kind == nodeAction || i == 0) {
			for sc.p < len(sc.in) && isSpace(sc.in[sc.p]) {
				sc.p++
				extraSkip++
			}
		}
		switch n.kind {
		case nodeSpace, nodeSeparator:
			if fx {
				sc.advanceRune()
				continue
			}
			extraSkip--
			if c := sc.cur(); isSpace(c) || isSeparatorChar(c) {
				sc.p++
				extraSkip++
			}
			continue
		case nodeChar:
			// A literal consumes one input character without checking it,
			// unless extra spaces were already skipped in its place.
			if !fx && extraSkip > 0 {
				extraSkip--
			} else {
				sc.advanceRune()
			}
			continue
		}
		if err := sc.field(i, &fx, extraSkip); err != nil {
			return err
		}
		if !fx {
			extraSkip = 0
			for sc.p < len(sc.in) && isSpace(sc.in[sc.p]) {
				sc.p++
				extraSkip++
			}
		}
	}
	return nil
}

// field reads the pattern at node i.
func (sc *scanner) field(i int, fx *bool, extraSkip int) error {
	n := &sc.nodes[i]
	kw := n.keyword()
	if err := sc.setMode(kw.mode); err != nil {
		return err
	}
	out := &sc.out
	var err error
	switch kw.id {
	case dtFX:
		*fx = true
	case dtAMDots, dtPMDots, dtamDots, dtpmDots:
		err = sc.seq(&out.pm, ampmLong[:], n, func(v int) int { return v % 2 })
		out.clock12 = true
	case dtAM, dtPM, dtam, dtpm:
		err = sc.seq(&out.pm, ampmShort[:], n, func(v int) int { return v % 2 })
		out.clock12 = true
	case dtHH, dtHH12:
		_, err = sc.intLen(&out.hh, 2, i)
		out.clock12 = true
	case dtHH24:
		_, err = sc.intLen(&out.hh, 2, i)
	case dtMI:
		_, err = sc.intLen(&out.mi, len(kw.name), i)
	case dtSS:
		_, err = sc.intLen(&out.ss, len(kw.name), i)
	case dtMS:
		var l int
		l, err = sc.intLen(&out.ms, 3, i)
		// "25" means 250 ms, "025" means 25 ms.
		switch l {
		case 1:
			out.ms *= 100
		case 2:
			out.ms *= 10
		}
	case dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6, dtUS:
		width := 6
		if kw.id != dtUS {
			out.ff = int(kw.id-dtFF1) + 1
			width = out.ff
		}
		var l int
		l, err = sc.intLen(&out.us, width, i)
		if l >= 1 && l <= 5 {
			out.us *= int(math.Pow10(6 - l))
		}
	case dtSSSS:
		_, err = sc.intLen(&out.ssss, len(kw.name), i)
	case dtTZ, dttz, dtOF:
		return pgerror.New(pgerror.FeatureNotSupported, "formatting field \"%s\" is only supported in to_char", kw.name)
	case dtTZH:
		switch c := sc.cur(); c {
		case '+', '-', ' ':
			out.tzsign = 1
			if c == '-' {
				out.tzsign = -1
			}
			sc.p++
		default:
			// A minus skipped as a separator belongs to the hour offset.
			out.tzsign = 1
			if extraSkip > 0 && sc.p > 0 && sc.in[sc.p-1] == '-' {
				out.tzsign = -1
			}
		}
		_, err = sc.intLen(&out.tzh, 2, i)
	case dtTZM:
		if out.tzsign == 0 {
			out.tzsign = 1
		}
		_, err = sc.intLen(&out.tzm, 2, i)
	case dtADDots, dtBCDots, dtadDots, dtbcDots:
		err = sc.seq(&out.bc, adbcLong[:], n, func(v int) int { return v % 2 })
	case dtAD, dtBC, dtad, dtbc:
		err = sc.seq(&out.bc, adbcShort[:], n, func(v int) int { return v % 2 })
	case dtMONTH, dtMonth, dtmonth:
		err = sc.seq(&out.mm, monthsFull[:], n, func(v int) int { return v + 1 })
	case dtMON, dtMon, dtmon:
		err = sc.seq(&out.mm, monthsShort[:], n, func(v int) int { return v + 1 })
	case dtMM:
		_, err = sc.intLen(&out.mm, len(kw.name), i)
	case dtDAY, dtDay, dtday:
		err = sc.seq(&out.d, daysFull[:], n, func(v int) int { return v })
		out.d++
	case dtDY, dtDy, dtdy:
		err = sc.seq(&out.d, daysShort[:], n, func(v int) int { return v })
		out.d++
	case dtDDD:
		_, err = sc.intLen(&out.ddd, len(kw.name), i)
	case dtIDDD:
		_, err = sc.intLen(&out.ddd, 3, i)
	case dtDD:
		_, err = sc.intLen(&out.dd, len(kw.name), i)
	case dtD:
		_, err = sc.intLen(&out.d, len(kw.name), i)
	case dtID:
		_, err = sc.intLen(&out.d, 1, i)
		// ISO numbers Monday 1..Sunday 7; store Gregorian Sunday = 1.
		if out.d++; out.d > 7 {
			out.d = 1
		}
	case dtWW, dtIW:
		_, err = sc.intLen(&out.ww, len(kw.name), i)
	case dtQ:
		// Parsed but ignored: a quarter does not pick a date.
		_, err = sc.intLen(nil, len(kw.name), i)
	case dtCC:
		_, err = sc.intLen(&out.cc, len(kw.name), i)
	case dtYCommaYYY:
		err = sc.yearWithComma(n)
	case dtYYYY, dtIYYY:
		_, err = sc.intLen(&out.year, len(kw.name), i)
		out.yysz = 4
	case dtYYY, dtIYY, dtYY, dtIY, dtY, dtI:
		var l int
		l, err = sc.intLen(&out.year, len(kw.name), i)
		if l < 4 {
			out.year = adjustPartialYear(out.year)
		}
		out.yysz = len(kw.name)
	case dtRM, dtrm:
		err = sc.seq(&out.mm, romanMonthsLower[:], n, func(v int) int { return 12 - v })
	case dtW:
		_, err = sc.intLen(&out.w, len(kw.name), i)
	case dtJ:
		_, err = sc.intLen(&out.j, len(kw.name), i)
	}
	if err != nil {
		return err
	}
	if n.suffix&(sufTH|sufth) != 0 && skipsOrdinal(kw.id) {
		sc.advanceRune()
		sc.advanceRune()
	}
	return nil
}

func (sc *scanner) setMode(mode dateMode) error {
	if mode == modeNone {
		return nil
	}
	if sc.out.mode == modeNone {
		sc.out.mode = mode
		return nil
	}
	if sc.out.mode != mode {
		return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid combination of date conventions").
			WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
	}
	return nil
}

// setInt stores a field value, refusing to overwrite a different non-zero one.
func setInt(dest *int, value int, field string) error {
	if *dest != 0 && *dest != value {
		return errConflict(field)
	}
	*dest = value
	return nil
}

// seq matches one of the words (ASCII case-insensitively, first match in
// list order) at the current position and stores conv(index).
func (sc *scanner) seq(dest *int, words []string, n *dtNode, conv func(int) int) error {
	rest := sc.in[sc.p:]
	for idx, w := range words {
		if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) && asciiOnly(rest[:len(w)]) {
			sc.p += len(w)
			return setInt(dest, conv(idx), n.keyword().name)
		}
	}
	word := rest
	if k := strings.IndexAny(word, " \t\n\r\f"); k >= 0 {
		word = word[:k]
	}
	return errInvalidValue(word, n.keyword().name).
		WithDetail("The given value did not match any of the allowed values for this field.")
}

func asciiOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// nextIsSeparator reports whether the field at node i may read a variable
// number of digits: it has an ordinal suffix, is last, or is followed by
// something that cannot be a digit.
func (sc *scanner) nextIsSeparator(i int) bool {
	if sc.nodes[i].suffix&(sufTH|sufth) != 0 {
		return true
	}
	if i+1 >= len(sc.nodes) {
		return true
	}
	next := &sc.nodes[i+1]
	if next.kind == nodeAction {
		return !next.keyword().isDigit
	}
	return !(len(next.text) == 1 && isDigit(next.text[0]))
}

// intLen reads an integer field of the given width (or of any width in FM
// mode or before a separator) and returns how many input bytes it used,
// counting skipped leading spaces.
func (sc *scanner) intLen(dest *int, width, i int) (int, error) {
	n := &sc.nodes[i]
	name := n.keyword().name
	init := sc.p
	for sc.p < len(sc.in) && isSpace(sc.in[sc.p]) {
		sc.p++
	}
	copied := sc.in[sc.p:]
	if len(copied) > width {
		copied = copied[:width]
	}
	var result int64
	var overflow bool
	if n.suffix&sufFM != 0 || sc.nextIsSeparator(i) {
		var end int
		result, end, overflow = strtol(sc.in, init)
		sc.p = end
	} else {
		if len(copied) < width {
			return 0, pgerror.New(pgerror.InvalidDatetimeFormat, "source string too short for \"%s\" formatting field", name).
				WithDetail("Field requires %d characters, but only %d remain.", width, len(copied)).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		var used int
		result, used, overflow = strtol(copied, 0)
		if used > 0 && used < width {
			return 0, errInvalidValue(copied, name).
				WithDetail("Field requires %d characters, but only %d could be parsed.", width, used).
				WithHint("If your source string is not fixed-width, try using the \"FM\" modifier.")
		}
		sc.p += used
	}
	if sc.p == init {
		return 0, errInvalidValue(copied, name).WithDetail("Value must be an integer.")
	}
	if overflow || result < math.MinInt32 || result > math.MaxInt32 {
		return 0, errFieldRange(name)
	}
	if dest != nil {
		if err := setInt(dest, int(result), name); err != nil {
			return 0, err
		}
	}
	return sc.p - init, nil
}

// strtol parses like C's strtol(s+from, &end, 10): leading white space, an
// optional sign, then digits. With no digits, end is from.
func strtol(s string, from int) (v int64, end int, overflow bool) {
	p := from
	for p < len(s) && isSpace(s[p]) {
		p++
	}
	neg := false
	if p < len(s) && (s[p] == '+' || s[p] == '-') {
		neg = s[p] == '-'
		p++
	}
	start := p
	var u uint64
	for p < len(s) && isDigit(s[p]) {
		if u > (math.MaxInt64-9)/10 {
			overflow = true
		} else {
			u = u*10 + uint64(s[p]-'0')
		}
		p++
	}
	if p == start {
		return 0, from, false
	}
	v = int64(u)
	if neg {
		v = -v
	}
	return v, p, overflow
}

// yearWithComma reads "Y,YYY" the way sscanf("%d,%03d") does.
func (sc *scanner) yearWithComma(n *dtNode) error {
	bad := pgerror.New(pgerror.InvalidDatetimeFormat, "invalid input string for \"Y,YYY\"")
	millennia, p, _ := strtol(sc.in, sc.p)
	if p == sc.p || p >= len(sc.in) || sc.in[p] != ',' {
		return bad
	}
	p++
	for p < len(sc.in) && isSpace(sc.in[p]) {
		p++
	}
	limit := p + 3
	if limit > len(sc.in) {
		limit = len(sc.in)
	}
	years, end, _ := strtol(sc.in[:limit], p)
	if end == p {
		return bad
	}
	if err := setInt(&sc.out.year, int(years+millennia*1000), n.keyword().name); err != nil {
		return err
	}
	sc.out.yysz = 4
	sc.p = end
	return nil
}

// adjustPartialYear maps a year given with fewer than four digits to the
// one nearest 2020, as PostgreSQL does.
func adjustPartialYear(year int) int {
	switch {
	case year < 70:
		return year + 2000
	case year < 100:
		return year + 1900
	case year < 520:
		return year + 2000
	case year < 1000:
		return year + 1000
	}
	return year
}

// skipsOrdinal reports whether an ordinal suffix after the field is
// skipped in the input (only numeric fields carry one).
func skipsOrdinal(id dtPattern) bool {
	switch id {
	case dtHH, dtHH12, dtHH24, dtMI, dtSS, dtMS, dtFF1, dtFF2, dtFF3, dtFF4, dtFF5, dtFF6, dtUS,
		dtSSSS, dtMM, dtDDD, dtIDDD, dtDD, dtD, dtID, dtWW, dtIW, dtQ, dtCC, dtYCommaYYY,
		dtYYYY, dtIYYY, dtYYY, dtIYY, dtYY, dtIY, dtY, dtI, dtW, dtJ:
		return true
	}
	return false
}
