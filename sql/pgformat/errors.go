package pgformat

import (
	"math"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// invalidTimeZoneDisplacement is SQLSTATE 22009, which package pgerror
// does not name.
const invalidTimeZoneDisplacement = "22009"

func errInvalidForInterval() error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid format specification for an interval value").
		WithHint("Intervals are not tied to specific calendar dates.")
}

func errFieldOverflow(input string) error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "date/time field value out of range: \"%s\"", input)
}

func errTimestampOutOfRange() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "timestamp out of range")
}

func errDateOutOfRange(input string) error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "date out of range: \"%s\"", input)
}

func errInvalidValue(value, field string) *pgerror.Error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "invalid value \"%s\" for \"%s\"", value, field)
}

func errConflict(field string) error {
	return pgerror.New(pgerror.InvalidDatetimeFormat, "conflicting values for \"%s\" field in formatting string", field).
		WithDetail("This value contradicts a previous setting for the same field type.")
}

func errFieldRange(field string) error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "value for \"%s\" in source string is out of range", field).
		WithDetail("Value must be in the range %d to %d.", math.MinInt32, math.MaxInt32)
}

func errNumberSyntax(format string, args ...any) *pgerror.Error {
	return pgerror.New(pgerror.SyntaxError, format, args...)
}
