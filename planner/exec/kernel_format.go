package exec

import (
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/pgformat"
	"github.com/sqe-db/sqe/sql/types"
)

// The template functions: to_char, to_timestamp(text, text) and
// to_date(text, text), over package pgformat. A template is compiled once
// per distinct format text in a batch (it is nearly always a constant).

// toCharKernel is to_char(value, format).
func toCharKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	return toCharIn(args, res, time.UTC)
}

// toCharIn is to_char with a timestamptz shown in zone loc.
func toCharIn(args []arrow.Array, res types.T, loc *time.Location) (arrow.Array, error) {
	vals, formats := args[0], args[1].(*array.String)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(vals.Len())
	dtCache := map[string]*pgformat.DateTimeTemplate{}
	numCache := map[string]*pgformat.NumberTemplate{}
	var buf []byte
	for i := 0; i < vals.Len(); i++ {
		if vals.IsNull(i) || formats.IsNull(i) {
			b.AppendNull()
			continue
		}
		if ts, ok := vals.(*array.Timestamp); ok && types.IsInfiniteTimestamp(int64(ts.Value(i))) {
			// PostgreSQL formats no infinite timestamp: NULL.
			b.AppendNull()
			continue
		}
		format := formats.Value(i)
		buf = buf[:0]
		switch x := vals.(type) {
		case *array.Timestamp, *array.MonthDayNanoInterval:
			tmpl, ok := dtCache[format]
			if !ok {
				var err error
				if tmpl, err = pgformat.ParseDateTime(format); err != nil {
					return nil, err
				}
				if _, isInterval := x.(*array.MonthDayNanoInterval); isInterval {
					if err := tmpl.ValidForInterval(); err != nil {
						return nil, err
					}
				}
				dtCache[format] = tmpl
			}
			if tmpl.Empty() {
				b.AppendNull()
				continue
			}
			if ts, isTS := x.(*array.Timestamp); isTS {
				withZone := ts.DataType().(*arrow.TimestampType).TimeZone != ""
				t := time.UnixMicro(int64(ts.Value(i))).UTC()
				if withZone {
					t = t.In(loc)
				}
				buf = tmpl.AppendTimestamp(buf, t, withZone)
			} else {
				iv := types.IntervalFromArrow(x.(*array.MonthDayNanoInterval).Value(i))
				buf = tmpl.AppendInterval(buf, iv.Months, iv.Days, iv.Micros)
			}
		default:
			tmpl, ok := numCache[format]
			if !ok {
				var err error
				if tmpl, err = pgformat.ParseNumber(format); err != nil {
					return nil, err
				}
				numCache[format] = tmpl
			}
			var text [48]byte
			switch n := x.(type) {
			case *array.Int64:
				buf = tmpl.AppendDecimal(buf, string(strconv.AppendInt(text[:0], n.Value(i), 10)))
			case *array.Decimal128:
				v := n.Value(i)
				buf = tmpl.AppendDecimal(buf, string(types.AppendDecimal128(text[:0], v.HighBits(), v.LowBits(), decimalScale(n))))
			case *array.Decimal64:
				v := int64(n.Value(i))
				buf = tmpl.AppendDecimal(buf, string(types.AppendDecimal128(text[:0], v>>63, uint64(v), decimalScale(n))))
			case *types.NumericArray:
				if v := n.Bytes(i); types.NumericIsSpecial(v) {
					// NaN and the infinities print as a double's do.
					buf = tmpl.AppendFloat(buf, types.NumericToFloat64(types.NumericFromBytes(v)), 64)
				} else {
					buf = tmpl.AppendDecimal(buf, string(types.AppendNumericText(text[:0], v)))
				}
			case *array.Float64:
				buf = tmpl.AppendFloat(buf, n.Value(i), 64)
			case *array.Float32:
				buf = tmpl.AppendFloat(buf, float64(n.Value(i)), 32)
			default:
				return nil, fmt.Errorf("to_char of %s is not implemented", vals.DataType())
			}
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

// parseTemplateKernel is to_timestamp(text, format) (date false) and
// to_date(text, format).
func parseTemplateKernel(date bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		cache := map[string]*pgformat.DateTimeTemplate{}
		return rowKernel(func(v []any) (any, error) {
			format := v[1].(string)
			tmpl, ok := cache[format]
			if !ok {
				var err error
				if tmpl, err = pgformat.ParseDateTime(format); err != nil {
					return nil, err
				}
				cache[format] = tmpl
			}
			if date {
				y, m, d, err := tmpl.ParseDate(v[0].(string))
				if err != nil {
					return nil, err
				}
				days, ok := types.DaysFromCivil(int64(y), int(m), d)
				if !ok || days != int64(int32(days)) {
					return nil, types.ErrDateRange()
				}
				return int32(days), nil
			}
			t, err := tmpl.ParseTimestamp(v[0].(string), time.UTC)
			if err != nil {
				return nil, err
			}
			return t.UnixMicro(), nil
		})(args, res)
	}
}
