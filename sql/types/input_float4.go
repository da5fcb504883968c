package types

import (
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// real values are held as float64 while an expression is folded, but
// always as the nearest float32, so that widening to double precision
// shows the float4's own digits (0.1::real::float8 is
// 0.10000000149011612), as in PostgreSQL.

// parseFloat4 is float4in: text to the nearest float4. A value beyond
// float4's range, or one that is not zero but rounds to zero, is out of
// range; denormals are kept.
func parseFloat4(text, trimmed string) (float64, error) {
	f, err := strconv.ParseFloat(trimmed, 32)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, float4OutOfRange(text)
		}
		return 0, invalidInput("real", text)
	}
	if f == 0 {
		if wide, err := strconv.ParseFloat(trimmed, 64); err == nil && wide != 0 {
			return 0, float4OutOfRange(text)
		}
	}
	return f, nil
}

func float4OutOfRange(text string) error {
	return pgerror.New(pgerror.NumericValueOutOfRange, "\"%s\" is out of range for type real", text)
}

// Float4FromFloat8 is float8 to real: the nearest float4, an error when a
// finite value overflows or a nonzero one underflows to zero.
func Float4FromFloat8(f float64) (float64, error) {
	r := float64(float32(f))
	if math.IsInf(r, 0) && !math.IsInf(f, 0) {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
	}
	if r == 0 && f != 0 {
		return 0, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: underflow")
	}
	return r, nil
}

// Float4FromNumeric is numeric to real, which PostgreSQL does through the
// numeric's text: the nearest float4, so 3.4028235e+38 is float4's
// largest value rather than an overflow.
func Float4FromNumeric(n decimal128.Num, scale int32) (float64, error) {
	text := string(AppendDecimal128(nil, n.HighBits(), n.LowBits(), scale))
	return parseFloat4(text, text)
}
