package types

import (
	"math"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// The infinite dates and timestamps. As in PostgreSQL (DATEVAL_NOBEGIN,
// DATEVAL_NOEND, DT_NOBEGIN, DT_NOEND) they are the extremes of the
// representation, outside the range of finite values, so they order
// below and above every value with plain integer comparison; arithmetic
// keeps them infinite and output writes them as -infinity / infinity.
const (
	DateNegInfinity      int32 = math.MinInt32
	DatePosInfinity      int32 = math.MaxInt32
	TimestampNegInfinity int64 = math.MinInt64
	TimestampPosInfinity int64 = math.MaxInt64
)

// IsInfiniteDate reports whether days is -infinity or infinity.
func IsInfiniteDate(days int64) bool {
	return days == int64(DateNegInfinity) || days == int64(DatePosInfinity)
}

// dateEndDays is PostgreSQL's DATE_END_JULIAN (Julian day 2147483494)
// in days since 1970: the first day past the date range.
const dateEndDays = 2147483494 - julianEpochDays

// IsValidDate reports whether days is a finite date in PostgreSQL's range
// (IS_VALID_DATE): 4714-11-24 BC up to 5874897-12-31.
func IsValidDate(days int64) bool {
	return days >= minDateDays && days < dateEndDays
}

// IsInfiniteTimestamp reports whether micros is -infinity or infinity.
func IsInfiniteTimestamp(micros int64) bool {
	return micros == TimestampNegInfinity || micros == TimestampPosInfinity
}

// appendInfinity writes an infinite value's text and reports whether
// the value was infinite.
func appendInfinity(dst []byte, neg, pos bool) ([]byte, bool) {
	switch {
	case neg:
		return append(dst, "-infinity"...), true
	case pos:
		return append(dst, "infinity"...), true
	}
	return dst, false
}

// DateToTimestamp is date::timestamp: midnight of the day, infinities
// kept.
func DateToTimestamp(days int32) int64 {
	switch days {
	case DateNegInfinity:
		return TimestampNegInfinity
	case DatePosInfinity:
		return TimestampPosInfinity
	}
	return int64(days) * microsPerDay
}

// TimestampToDate is timestamp::date: the day of the instant's UTC
// calendar (floor division), infinities kept.
func TimestampToDate(micros int64) int32 {
	switch micros {
	case TimestampNegInfinity:
		return DateNegInfinity
	case TimestampPosInfinity:
		return DatePosInfinity
	}
	return int32(floorDiv(micros, microsPerDay))
}

// ErrSubtractInfiniteDates is date - date with an infinite side.
func ErrSubtractInfiniteDates() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "cannot subtract infinite dates")
}

// ErrSubtractInfiniteTimestamps is timestamp - timestamp with an
// infinite side.
func ErrSubtractInfiniteTimestamps() error {
	return pgerror.New(pgerror.DatetimeFieldOverflow, "cannot subtract infinite timestamps")
}
