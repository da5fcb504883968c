package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/iceberg-go"

	"github.com/sqe-db/sqe/storage/theta"
)

// columnCollector gathers ANALYZE's statistics of one column from the
// batches of a scan: rows, NULLs, the bytes of the non-null values, their
// distinct count (a theta sketch of each value in Iceberg's single-value
// serialization, as the specification asks of the blob) and their least
// and greatest values. A column of a type it cannot serialize (nested
// types) is marked unsupported and gets no statistics.
type columnCollector struct {
	fieldID     int
	rows, nulls int64
	width       int64
	sketch      *theta.Sketch
	unsupported bool
	// lower and upper are the least and greatest non-null values (NaN
	// left out), as Arrow holds them; nil before the first.
	lower, upper any
	// encode serializes lower and upper once the scan ends.
	encode func(any) []byte
	buf    []byte
}

func newColumnCollector(fieldID int) *columnCollector {
	return &columnCollector{fieldID: fieldID, sketch: theta.New()}
}

// add folds one batch's column into the statistics.
func (c *columnCollector) add(arr arrow.Array) {
	c.rows += int64(arr.Len())
	c.nulls += int64(arr.NullN())
	switch a := arr.(type) {
	case *array.Int8:
		foldOrdered(c, a, a.Int8Values(), func(b []byte, v int8) []byte { return binary.LittleEndian.AppendUint32(b, uint32(int32(v))) })
	case *array.Int16:
		foldOrdered(c, a, a.Int16Values(), func(b []byte, v int16) []byte { return binary.LittleEndian.AppendUint32(b, uint32(int32(v))) })
	case *array.Int32:
		foldOrdered(c, a, a.Int32Values(), func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) })
	case *array.Int64:
		foldOrdered(c, a, a.Int64Values(), appendInt64[int64])
	case *array.Date32:
		foldOrdered(c, a, a.Date32Values(), func(b []byte, v arrow.Date32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) })
	case *array.Time64:
		foldOrdered(c, a, a.Time64Values(), appendInt64[arrow.Time64])
	case *array.Timestamp:
		foldOrdered(c, a, a.TimestampValues(), appendInt64[arrow.Timestamp])
	case *array.Float32:
		foldOrdered(c, a, a.Float32Values(), func(b []byte, v float32) []byte { return binary.LittleEndian.AppendUint32(b, math.Float32bits(v)) })
	case *array.Float64:
		foldOrdered(c, a, a.Float64Values(), func(b []byte, v float64) []byte { return binary.LittleEndian.AppendUint64(b, math.Float64bits(v)) })
	case *array.Boolean:
		foldEach(c, a, a.Value, func(b []byte, v bool) []byte {
			if v {
				return append(b, 1)
			}
			return append(b, 0)
		}, func(x, y bool) int {
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		})
	case *array.String:
		foldEach(c, a, a.Value, func(b []byte, v string) []byte { return append(b, v...) }, cmp.Compare[string])
	case *array.LargeString:
		foldEach(c, a, a.Value, func(b []byte, v string) []byte { return append(b, v...) }, cmp.Compare[string])
	case *array.Binary:
		foldEach(c, a, a.Value, func(b []byte, v []byte) []byte { return append(b, v...) }, bytes.Compare)
	case *array.LargeBinary:
		foldEach(c, a, a.Value, func(b []byte, v []byte) []byte { return append(b, v...) }, bytes.Compare)
	case *array.FixedSizeBinary:
		foldEach(c, a, a.Value, func(b []byte, v []byte) []byte { return append(b, v...) }, bytes.Compare)
	case *array.Decimal128:
		scale := int(a.DataType().(*arrow.Decimal128Type).Scale)
		foldEach(c, a, a.Value, func(b []byte, v decimal128.Num) []byte {
			lit := iceberg.DecimalLiteral(iceberg.Decimal{Val: decimal.Decimal128(v), Scale: scale})
			enc, _ := lit.MarshalBinary()
			return append(b, enc...)
		}, func(x, y decimal128.Num) int { return x.Cmp(y) })
	default:
		c.unsupported = true
	}
}

func appendInt64[T ~int64](b []byte, v T) []byte {
	return binary.LittleEndian.AppendUint64(b, uint64(v))
}

// foldOrdered folds the values of a fixed-width column whose Go values
// order as the column does.
func foldOrdered[T cmp.Ordered](c *columnCollector, arr arrow.Array, vals []T, enc func([]byte, T) []byte) {
	foldEach(c, arr, func(i int) T { return vals[i] }, enc, cmp.Compare[T])
}

// foldEach folds each non-null value of arr: value reads it, enc
// serializes it, compare orders two.
func foldEach[T any](c *columnCollector, arr arrow.Array, value func(int) T, enc func([]byte, T) []byte, compare func(T, T) int) {
	if c.encode == nil {
		c.encode = func(v any) []byte { return enc(nil, v.(T)) }
	}
	var lower, upper T
	seen := false
	if c.lower != nil {
		lower, upper, seen = c.lower.(T), c.upper.(T), true
	}
	for i := range arr.Len() {
		if arr.IsNull(i) {
			continue
		}
		v := value(i)
		c.buf = enc(c.buf[:0], v)
		c.width += int64(len(c.buf))
		c.sketch.Update(c.buf)
		if isNaN(v) { // counted, never a bound
			continue
		}
		if !seen {
			lower, upper, seen = v, v, true
			continue
		}
		if compare(v, lower) < 0 {
			lower = v
		}
		if compare(v, upper) > 0 {
			upper = v
		}
	}
	if seen {
		c.lower, c.upper = owned(lower), owned(upper)
	}
}

// owned is v, or a copy of the bytes it shares with the batch: a text or
// binary value points into its batch's buffer, which the scan reuses once
// the batch is released.
func owned[T any](v T) T {
	switch x := any(v).(type) {
	case string:
		return any(strings.Clone(x)).(T)
	case []byte:
		return any(bytes.Clone(x)).(T)
	}
	return v
}

// bounds are the serialized least and greatest values, nil when the
// column has no non-null value that orders.
func (c *columnCollector) bounds() (lower, upper []byte) {
	if c.lower == nil || c.encode == nil {
		return nil, nil
	}
	return c.encode(c.lower), c.encode(c.upper)
}

func isNaN[T any](v T) bool {
	switch x := any(v).(type) {
	case float32:
		return x != x
	case float64:
		return x != x
	}
	return false
}
