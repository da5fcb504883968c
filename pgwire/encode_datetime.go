package pgwire

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/types"
)

// Encoders for time of day and interval, in text (time_out,
// interval_out with IntervalStyle postgres) and binary (time_send: int64
// microseconds; interval_send: int64 microseconds, int32 days, int32
// months).

type time64Text struct {
	arrayOf[*array.Time64]
	unit arrow.TimeUnit
}

func (e *time64Text) appendText(dst []byte, i int) []byte {
	return types.AppendTime(dst, timeMicros(int64(e.arr.Value(i)), e.unit))
}

type time64Binary struct {
	arrayOf[*array.Time64]
	unit arrow.TimeUnit
}

func (e *time64Binary) appendBinary(dst []byte, i int) []byte {
	return binary.BigEndian.AppendUint64(dst, uint64(timeMicros(int64(e.arr.Value(i)), e.unit)))
}

// timeMicros converts a time64 value to microseconds.
func timeMicros(v int64, unit arrow.TimeUnit) int64 {
	if unit == arrow.Nanosecond {
		return v / 1000
	}
	return v
}

type intervalText struct {
	arrayOf[*array.MonthDayNanoInterval]
}

func (e *intervalText) appendText(dst []byte, i int) []byte {
	return types.AppendInterval(dst, types.IntervalFromArrow(e.arr.Value(i)))
}

type intervalBinary struct {
	arrayOf[*array.MonthDayNanoInterval]
}

func (e *intervalBinary) appendBinary(dst []byte, i int) []byte {
	iv := types.IntervalFromArrow(e.arr.Value(i))
	dst = binary.BigEndian.AppendUint64(dst, uint64(iv.Micros))
	dst = binary.BigEndian.AppendUint32(dst, uint32(iv.Days))
	return binary.BigEndian.AppendUint32(dst, uint32(iv.Months))
}
