package exec

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/cockroachdb/apd/v3"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// extractKernel computes extract(field FROM date|timestamp): args[0] is
// the (constant) field, args[1] the value. The result is numeric at the
// scale the binder chose, or double precision for date_part.
func extractKernel(args []arrow.Array, res types.T) (arrow.Array, error) {
	n := args[1].Len()
	vals := make([]any, n)
	switch args[1].DataType().ID() {
	case arrow.TIME64, arrow.INTERVAL_MONTH_DAY_NANO:
		return extractDuration(args, res)
	}
	isDate := args[1].DataType().ID() == arrow.DATE32
	for r := 0; r < n; r++ {
		if args[0].IsNull(r) || args[1].IsNull(r) {
			continue
		}
		field := valueAt(args[0], r).(string)
		var micros int64
		if isDate {
			micros = types.DateToTimestamp(valueAt(args[1], r).(int32))
		} else {
			micros = valueAt(args[1], r).(int64)
		}
		if types.IsInfiniteTimestamp(micros) {
			v, err := extractInfinite(field, micros, res)
			if err != nil {
				return nil, err
			}
			vals[r] = v
			continue
		}
		// value is the field in units of 10^-6 (seconds-based fields) or
		// whole units, as scaled says.
		value, scaled, err := extractField(field, micros)
		if err != nil {
			return nil, err
		}
		if field == "millisecond" {
			// The seconds field in thousandths, with three decimals.
			scaled = false
			if res.OID == types.OIDFloat8 {
				vals[r] = float64(value) / 1e3
				continue
			}
		}
		if res.OID == types.OIDFloat8 {
			if scaled {
				vals[r] = float64(value) / 1e6
			} else {
				vals[r] = float64(value)
			}
			continue
		}
		num := decimal128.FromI64(value)
		from := int32(0)
		switch {
		case field == "millisecond":
			from = 3
		case scaled:
			from = 6
		}
		out, ok := types.Rescale(num, from, res.Scale)
		if !ok {
			return nil, errNumericOverflow()
		}
		vals[r] = out
	}
	return valuesArray(res, vals)
}

// extractInfinite is extract(field FROM ±infinity), as PostgreSQL 15's
// NonFiniteTimestampTzPart: the fields that grow with time (year,
// decade, century, millennium, isoyear, julian, epoch) are the same
// infinity, the others NULL. The field is checked first, so an unknown
// one fails as for a finite value. A numeric infinity (extract, rather
// than date_part) has no decimal128 form and is refused.
func extractInfinite(field string, micros int64, res types.T) (any, error) {
	if _, _, err := extractField(field, 0); err != nil {
		return nil, err
	}
	switch field {
	case "year", "decade", "century", "millennium", "isoyear", "julian", "epoch":
	default:
		return nil, nil
	}
	sign := 1
	if micros == types.TimestampNegInfinity {
		sign = -1
	}
	if res.OID == types.OIDFloat8 {
		return math.Inf(sign), nil
	}
	return nil, pgerror.New(pgerror.FeatureNotSupported, "extract(%s) of an infinite date or timestamp is not supported yet: the result is an infinite numeric", field)
}

// extractField reads one field of an instant given in microseconds since
// 1970-01-01 UTC; scaled reports a value in millionths (the seconds-based
// fields).
func extractField(field string, micros int64) (int64, bool, error) {
	t := time.UnixMicro(micros).UTC()
	secMicros := int64(t.Second())*1_000_000 + int64(t.Nanosecond()/1000)
	year := int64(t.Year())
	switch field {
	case "epoch":
		return micros, true, nil
	case "year":
		return year, false, nil
	case "month":
		return int64(t.Month()), false, nil
	case "day":
		return int64(t.Day()), false, nil
	case "dow":
		return int64(t.Weekday()), false, nil
	case "isodow":
		d := int64(t.Weekday())
		if d == 0 {
			d = 7
		}
		return d, false, nil
	case "doy":
		return int64(t.YearDay()), false, nil
	case "quarter":
		return (int64(t.Month())-1)/3 + 1, false, nil
	case "week":
		_, w := t.ISOWeek()
		return int64(w), false, nil
	case "isoyear":
		y, _ := t.ISOWeek()
		return int64(y), false, nil
	case "decade":
		return floorDiv(year, 10), false, nil
	case "century":
		if year > 0 {
			return (year + 99) / 100, false, nil
		}
		return -((99 - (year - 1)) / 100), false, nil
	case "millennium":
		if year > 0 {
			return (year + 999) / 1000, false, nil
		}
		return -((999 - (year - 1)) / 1000), false, nil
	case "hour":
		return int64(t.Hour()), false, nil
	case "minute":
		return int64(t.Minute()), false, nil
	case "second", "millisecond":
		return secMicros, true, nil
	case "microsecond":
		return secMicros, false, nil
	}
	return 0, false, fmt.Errorf("extract field %q cannot be executed", field)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// roundingKernel computes floor or ceil of a numeric (to scale 0) or a
// double.
func roundingKernel(up bool) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		a := args[0]
		n := a.Len()
		vals := make([]any, n)
		for r := 0; r < n; r++ {
			if a.IsNull(r) {
				continue
			}
			switch v := valueAt(a, r).(type) {
			case float64:
				if up {
					vals[r] = math.Ceil(v)
				} else {
					vals[r] = math.Floor(v)
				}
			case decimal128.Num:
				scale := decimalScale(a)
				q, rem := v.Div(decimal128.GetScaleMultiplier(int(scale)))
				if rem.Sign() != 0 && (v.Sign() > 0) == up {
					if up {
						q = q.Add(decimal128.FromI64(1))
					} else {
						q = q.Sub(decimal128.FromI64(1))
					}
				}
				vals[r] = q
			}
		}
		return valuesArray(res, vals)
	}
}

// extractRowUnitKernel is extract / date_part with a unit that is not a
// constant (planner's extract_row_unit): each row's unit is checked as
// the binder checks a constant one (types.ExtractUnit, with PostgreSQL's
// errors) and the row computed as extractKernel does, at the scale its
// unit gives; extract's result is a general numeric, which also holds
// the infinities of an infinite date or timestamp. A timestamptz is read
// on the wall clock of loc, except for its epoch.
func extractRowUnitKernel(loc *time.Location) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		argType, err := types.FromArrow(args[1].DataType())
		if err != nil {
			return nil, err
		}
		n := args[1].Len()
		out := make([]any, n)
		var nums []apd.Decimal
		general := res.IsGeneralNumeric()
		if general {
			nums = make([]apd.Decimal, n)
		}
		for r := 0; r < n; r++ {
			if args[0].IsNull(r) || args[1].IsNull(r) {
				continue
			}
			unit, scale, err := types.ExtractUnit(valueAt(args[0], r).(string), argType)
			if err != nil {
				return nil, err
			}
			v, valueType := valueAt(args[1], r), argType
			if isTimestampTZ(argType) && unit != "epoch" && loc != time.UTC {
				v, valueType = types.LocalMicros(v.(int64), loc), types.Timestamp
			}
			one, err := extractOne(unit, v, valueType, types.Float8)
			if err != nil || one == nil || !general {
				out[r] = one
				if err != nil {
					return nil, err
				}
				continue
			}
			if f := one.(float64); math.IsInf(f, 0) {
				nums[r].Form, nums[r].Negative = apd.Infinite, f < 0
				out[r] = true
				continue
			}
			fixed, err := extractOne(unit, v, valueType, types.T{OID: types.OIDNumeric, Scale: scale})
			if err != nil {
				return nil, err
			}
			types.SetNumericFromDecimal128(&nums[r], fixed.(decimal128.Num), scale)
			out[r] = true
		}
		if !general {
			return valuesArray(res, out)
		}
		validity := make([]byte, bitutil.BytesForBits(int64(n)))
		for r, v := range out {
			if v != nil {
				bitutil.SetBit(validity, r)
			}
		}
		return buildGeneral(n, validity, func(i int, d *apd.Decimal) error {
			d.Set(&nums[i])
			return nil
		})
	}
}

// extractOne runs the extract kernel over one value of type t.
func extractOne(unit string, v any, t types.T, res types.T) (any, error) {
	field, err := valuesArray(types.Text, []any{unit})
	if err != nil {
		return nil, err
	}
	defer field.Release()
	value, err := valuesArray(t, []any{v})
	if err != nil {
		return nil, err
	}
	defer value.Release()
	got, err := extractKernel([]arrow.Array{field, value}, res)
	if err != nil {
		return nil, err
	}
	defer got.Release()
	if got.IsNull(0) {
		return nil, nil
	}
	return valueAt(got, 0), nil
}
