package pgformat

// dtPattern identifies a date/time template pattern. Lower-case spellings that
// print the same as their upper-case form share its id.
type dtPattern uint8

const (
	dtADDots dtPattern = iota + 1 // A.D.
	dtAMDots                      // A.M.
	dtAD                          // AD
	dtAM                          // AM
	dtBCDots                      // B.C.
	dtBC                          // BC
	dtCC
	dtDAY
	dtDDD
	dtDD
	dtDY
	dtDay
	dtDy
	dtD
	dtFF1
	dtFF2
	dtFF3
	dtFF4
	dtFF5
	dtFF6
	dtFX
	dtHH24
	dtHH12
	dtHH
	dtIDDD
	dtID
	dtIW
	dtIYYY
	dtIYY
	dtIY
	dtI
	dtJ
	dtMI
	dtMM
	dtMONTH
	dtMON
	dtMS
	dtMonth
	dtMon
	dtOF
	dtPMDots // P.M.
	dtPM
	dtQ
	dtRM
	dtSSSS
	dtSS
	dtTZH
	dtTZM
	dtTZ
	dtUS
	dtWW
	dtW
	dtYCommaYYY
	dtYYYY
	dtYYY
	dtYY
	dtY
	dtadDots // a.d.
	dtamDots // a.m.
	dtad
	dtam
	dtbcDots // b.c.
	dtbc
	dtday
	dtdy
	dtmonth
	dtmon
	dtpmDots // p.m.
	dtpm
	dtrm
	dttz
)

// dateMode says which calendar a field belongs to; to_timestamp refuses to
// mix Gregorian and ISO-week fields.
type dateMode uint8

const (
	modeNone dateMode = iota
	modeGregorian
	modeISOWeek
)

type dtKeyword struct {
	name    string
	id      dtPattern
	isDigit bool // the field reads/prints digits (matters for to_timestamp field widths)
	mode    dateMode
}

// dtKeywords is searched in order and the first keyword that prefixes the
// template wins, so longer spellings come before their prefixes.
var dtKeywords = [...]dtKeyword{
	{"A.D.", dtADDots, false, modeNone},
	{"A.M.", dtAMDots, false, modeNone},
	{"AD", dtAD, false, modeNone},
	{"AM", dtAM, false, modeNone},
	{"B.C.", dtBCDots, false, modeNone},
	{"BC", dtBC, false, modeNone},
	{"CC", dtCC, true, modeNone},
	{"DAY", dtDAY, false, modeNone},
	{"DDD", dtDDD, true, modeGregorian},
	{"DD", dtDD, true, modeGregorian},
	{"DY", dtDY, false, modeNone},
	{"Day", dtDay, false, modeNone},
	{"Dy", dtDy, false, modeNone},
	{"D", dtD, true, modeGregorian},
	{"FF1", dtFF1, false, modeNone},
	{"FF2", dtFF2, false, modeNone},
	{"FF3", dtFF3, false, modeNone},
	{"FF4", dtFF4, false, modeNone},
	{"FF5", dtFF5, false, modeNone},
	{"FF6", dtFF6, false, modeNone},
	{"FX", dtFX, false, modeNone},
	{"HH24", dtHH24, true, modeNone},
	{"HH12", dtHH12, true, modeNone},
	{"HH", dtHH, true, modeNone},
	{"IDDD", dtIDDD, true, modeISOWeek},
	{"ID", dtID, true, modeISOWeek},
	{"IW", dtIW, true, modeISOWeek},
	{"IYYY", dtIYYY, true, modeISOWeek},
	{"IYY", dtIYY, true, modeISOWeek},
	{"IY", dtIY, true, modeISOWeek},
	{"I", dtI, true, modeISOWeek},
	{"J", dtJ, true, modeNone},
	{"MI", dtMI, true, modeNone},
	{"MM", dtMM, true, modeGregorian},
	{"MONTH", dtMONTH, false, modeGregorian},
	{"MON", dtMON, false, modeGregorian},
	{"MS", dtMS, true, modeNone},
	{"Month", dtMonth, false, modeGregorian},
	{"Mon", dtMon, false, modeGregorian},
	{"OF", dtOF, false, modeNone},
	{"P.M.", dtPMDots, false, modeNone},
	{"PM", dtPM, false, modeNone},
	{"Q", dtQ, true, modeNone},
	{"RM", dtRM, false, modeGregorian},
	{"SSSSS", dtSSSS, true, modeNone},
	{"SSSS", dtSSSS, true, modeNone},
	{"SS", dtSS, true, modeNone},
	{"TZH", dtTZH, false, modeNone},
	{"TZM", dtTZM, true, modeNone},
	{"TZ", dtTZ, false, modeNone},
	{"US", dtUS, true, modeNone},
	{"WW", dtWW, true, modeGregorian},
	{"W", dtW, true, modeGregorian},
	{"Y,YYY", dtYCommaYYY, true, modeGregorian},
	{"YYYY", dtYYYY, true, modeGregorian},
	{"YYY", dtYYY, true, modeGregorian},
	{"YY", dtYY, true, modeGregorian},
	{"Y", dtY, true, modeGregorian},
	{"a.d.", dtadDots, false, modeNone},
	{"a.m.", dtamDots, false, modeNone},
	{"ad", dtad, false, modeNone},
	{"am", dtam, false, modeNone},
	{"b.c.", dtbcDots, false, modeNone},
	{"bc", dtbc, false, modeNone},
	{"cc", dtCC, true, modeNone},
	{"day", dtday, false, modeNone},
	{"ddd", dtDDD, true, modeGregorian},
	{"dd", dtDD, true, modeGregorian},
	{"dy", dtdy, false, modeNone},
	{"d", dtD, true, modeGregorian},
	{"ff1", dtFF1, false, modeNone},
	{"ff2", dtFF2, false, modeNone},
	{"ff3", dtFF3, false, modeNone},
	{"ff4", dtFF4, false, modeNone},
	{"ff5", dtFF5, false, modeNone},
	{"ff6", dtFF6, false, modeNone},
	{"fx", dtFX, false, modeNone},
	{"hh24", dtHH24, true, modeNone},
	{"hh12", dtHH12, true, modeNone},
	{"hh", dtHH, true, modeNone},
	{"iddd", dtIDDD, true, modeISOWeek},
	{"id", dtID, true, modeISOWeek},
	{"iw", dtIW, true, modeISOWeek},
	{"iyyy", dtIYYY, true, modeISOWeek},
	{"iyy", dtIYY, true, modeISOWeek},
	{"iy", dtIY, true, modeISOWeek},
	{"i", dtI, true, modeISOWeek},
	{"j", dtJ, true, modeNone},
	{"mi", dtMI, true, modeNone},
	{"mm", dtMM, true, modeGregorian},
	{"month", dtmonth, false, modeGregorian},
	{"mon", dtmon, false, modeGregorian},
	{"ms", dtMS, true, modeNone},
	{"of", dtOF, false, modeNone},
	{"p.m.", dtpmDots, false, modeNone},
	{"pm", dtpm, false, modeNone},
	{"q", dtQ, true, modeNone},
	{"rm", dtrm, false, modeGregorian},
	{"sssss", dtSSSS, true, modeNone},
	{"ssss", dtSSSS, true, modeNone},
	{"ss", dtSS, true, modeNone},
	{"tzh", dtTZH, false, modeNone},
	{"tzm", dtTZM, true, modeNone},
	{"tz", dttz, false, modeNone},
	{"us", dtUS, true, modeNone},
	{"ww", dtWW, true, modeGregorian},
	{"w", dtW, true, modeGregorian},
	{"y,yyy", dtYCommaYYY, true, modeGregorian},
	{"yyyy", dtYYYY, true, modeGregorian},
	{"yyy", dtYYY, true, modeGregorian},
	{"yy", dtYY, true, modeGregorian},
	{"y", dtY, true, modeGregorian},
}

// lookupDateTimeKeyword returns the index of the first keyword that
// prefixes s, or -1.
func lookupDateTimeKeyword(s string) int {
	for i := range dtKeywords {
		name := dtKeywords[i].name
		if len(s) >= len(name) && s[:len(name)] == name {
			return i
		}
	}
	return -1
}
