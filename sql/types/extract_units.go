package types

import (
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The units extract() and date_part() take, shared by the binder (a
// constant unit, checked once) and the executor (a unit that varies per
// row, checked per value).

// extractFields are the fields extract() and date_part() take from a
// date or timestamp, with the numeric scale extract() returns them at in
// PostgreSQL 15 (second and epoch of a timestamp carry microseconds).
var extractFields = map[string]struct {
	dateOK    bool
	timeScale int32
}{
	"epoch": {true, 6}, "year": {true, 0}, "month": {true, 0}, "day": {true, 0}, "dow": {true, 0},
	"isodow": {true, 0}, "doy": {true, 0}, "quarter": {true, 0}, "week": {true, 0}, "decade": {true, 0},
	"century": {true, 0}, "millennium": {true, 0}, "isoyear": {true, 0},
	"hour": {false, 0}, "minute": {false, 0}, "second": {false, 6},
	"millisecond": {false, 3}, "microsecond": {false, 0},
}

// timeFields and intervalFields are the fields a time of day and an
// interval have.
var (
	timeFields = map[string]bool{"hour": true, "minute": true, "second": true, "millisecond": true,
		"microsecond": true, "epoch": true}
	intervalFields = map[string]bool{"hour": true, "minute": true, "second": true, "millisecond": true,
		"microsecond": true, "epoch": true, "day": true, "month": true, "year": true, "quarter": true,
		"decade": true, "century": true, "millennium": true}
)

// recognizedUnits are the other words PostgreSQL reads as a unit (its
// julian and time zone units, and the reserved words its special values
// are spelled with): extract of one is not refused as unrecognized, but
// SQE computes none of them.
var recognizedUnits = map[string]bool{
	"julian": true, "timezone": true, "timezone_h": true, "timezone_m": true,
	"infinity": true, "-infinity": true, "now": true, "today": true, "tomorrow": true,
	"yesterday": true, "allballs": true, "invalid": true, "current": true,
}

// unitSynonyms are the other spellings of extract's units PostgreSQL
// reads (its deltatktbl and datetktbl), each compared on its first
// unitTokenLen characters as PostgreSQL does, so "microseconds" is
// "microsecon".
var unitSynonyms = map[string]string{
	"c": "century", "cent": "century", "centuries": "century",
	"d": "day", "days": "day",
	"dec": "decade", "decades": "decade", "decs": "decade",
	"h": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
	"m": "minute", "min": "minute", "mins": "minute", "minutes": "minute",
	"microsecon": "microsecond", "us": "microsecond", "usec": "microsecond", "usecond": "microsecond",
	"useconds": "microsecond", "usecs": "microsecond",
	"mil": "millennium", "millennia": "millennium", "mils": "millennium",
	"millisecon": "millisecond", "ms": "millisecond", "msec": "millisecond", "msecond": "millisecond",
	"mseconds": "millisecond", "msecs": "millisecond",
	"mon": "month", "mons": "month", "months": "month",
	"qtr": "quarter",
	"s":   "second", "sec": "second", "seconds": "second", "secs": "second",
	"w": "week", "weeks": "week",
	"y": "year", "years": "year", "yr": "year", "yrs": "year",
	"j": "julian", "jd": "julian",
}

// unitTokenLen is PostgreSQL's TOKMAXLEN: units are told apart by their
// first ten characters.
const unitTokenLen = 10

// CanonicalUnit is the name the unit tables know a unit by, given its
// lower-case spelling.
func CanonicalUnit(unit string) string {
	if len(unit) > unitTokenLen {
		unit = unit[:unitTokenLen]
	}
	if c, ok := unitSynonyms[unit]; ok {
		return c
	}
	return unit
}

// ExtractUnit checks extract's unit (as written) for a value of type t
// and returns its canonical name and the scale extract's numeric result
// has for it. The errors are PostgreSQL's: a word that is no unit is not
// recognized (22023), a unit the type has no such field for is not
// supported (0A000). SQE refuses the units it does not compute (julian,
// the time zone fields) as not supported as well.
func ExtractUnit(unit string, t T) (string, int32, error) {
	lower := strings.ToLower(unit)
	field := CanonicalUnit(lower)
	f, known := extractFields[field]
	if !known {
		if recognizedUnits[field] {
			return "", 0, pgerror.New(pgerror.FeatureNotSupported, "unit \"%s\" not supported for type %s", lower, t.Name())
		}
		return "", 0, pgerror.New(pgerror.InvalidParameterValue, "unit \"%s\" not recognized for type %s", lower, t.Name())
	}
	fam := t.Family()
	switch {
	case fam == FamilyTime && !timeFields[field],
		fam == FamilyInterval && !intervalFields[field],
		fam == FamilyDate && !f.dateOK:
		return "", 0, pgerror.New(pgerror.FeatureNotSupported, "unit \"%s\" not supported for type %s", lower, t.Name())
	case fam == FamilyDate:
		return field, 0, nil
	}
	return field, f.timeScale, nil
}
