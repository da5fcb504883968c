package planner

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

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

// bindExtract binds extract(field FROM x) (numeric) and date_part(field,
// x) (double precision); the field must be a constant, as it decides the
// result's scale.
func (b *Binder) bindExtract(fc *pg_query.FuncCall, name string, ec *exprCtx) (Expr, error) {
	if len(fc.Args) != 2 {
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s with %d arguments does not exist", name, len(fc.Args))
	}
	fieldExpr, err := b.bindExpr(fc.Args[0], ec)
	if err != nil {
		return nil, err
	}
	c, ok := fieldExpr.(*Const)
	field, isText := "", false
	if ok {
		field, isText = c.Value.(string)
	}
	if !isText {
		return nil, pgerror.Unsupported("%s with a non-constant field is not supported yet", name)
	}
	field = canonicalUnit(strings.ToLower(field))
	arg, err := b.bindExpr(fc.Args[1], ec)
	if err != nil {
		return nil, err
	}
	if isUnknown(arg) {
		if arg, err = b.cast(arg, types.Timestamp, fc.Location); err != nil {
			return nil, err
		}
	}
	f, known := extractFields[field]
	switch fam := arg.Type().Family(); {
	case known && fam == types.FamilyTime && !timeFields[field],
		known && fam == types.FamilyInterval && !intervalFields[field]:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "unit \"%s\" not supported for type %s", field, arg.Type().Name())
	case known && (fam == types.FamilyTime || fam == types.FamilyInterval):
		res := types.T{OID: types.OIDNumeric, Scale: f.timeScale}
		if name == "date_part" {
			res = types.Float8
		}
		return &Func{Name: "extract", Args: []Expr{&Const{Typ: types.Text, Value: field}, arg}, Typ: res}, nil
	case !known:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "unit \"%s\" not supported for type %s", field, arg.Type().Name())
	case arg.Type().Family() == types.FamilyDate && !f.dateOK:
		return nil, b.errAt(fc.Location, pgerror.FeatureNotSupported, "unit \"%s\" not supported for type date", field)
	case arg.Type().Family() != types.FamilyDate && arg.Type().Family() != types.FamilyTimestamp:
		return nil, b.errAt(fc.Location, pgerror.UndefinedFunction, "function %s(unknown, %s) does not exist", name, arg.Type().Name())
	}
	res := types.T{OID: types.OIDNumeric}
	if arg.Type().Family() == types.FamilyTimestamp {
		res.Scale = f.timeScale
	}
	if name == "date_part" {
		res = types.Float8
	}
	return &Func{Name: "extract", Args: []Expr{&Const{Typ: types.Text, Value: field}, arg}, Typ: res}, nil
}

// unitSynonyms are the other spellings of extract's units PostgreSQL
// reads (its deltatktbl), each compared on its first unitTokenLen
// characters as PostgreSQL does, so "microseconds" is "microsecon".
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
}

// unitTokenLen is PostgreSQL's TOKMAXLEN: units are told apart by their
// first ten characters.
const unitTokenLen = 10

// canonicalUnit is the name extractFields knows a unit by.
func canonicalUnit(unit string) string {
	if len(unit) > unitTokenLen {
		unit = unit[:unitTokenLen]
	}
	if c, ok := unitSynonyms[unit]; ok {
		return c
	}
	return unit
}
