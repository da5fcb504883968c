package exec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
)

// castToText formats each value as PostgreSQL's output function for its
// type would (the same formatting pgwire sends), truncating to a
// varchar's length when an explicit cast asks for one.
func castToText(a arrow.Array, to types.T) (arrow.Array, error) {
	if l, ok := a.(*array.List); ok {
		return listToText(l, to)
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(a.Len())
	buf := make([]byte, 0, 64)
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = buf[:0]
		switch x := a.(type) {
		case *array.String:
			buf = append(buf, x.Value(i)...)
		case *array.Boolean:
			if x.Value(i) {
				buf = append(buf, "true"...)
			} else {
				buf = append(buf, "false"...)
			}
		case *array.Int16:
			buf = strconv.AppendInt(buf, int64(x.Value(i)), 10)
		case *array.Int32:
			buf = strconv.AppendInt(buf, int64(x.Value(i)), 10)
		case *array.Int64:
			buf = strconv.AppendInt(buf, x.Value(i), 10)
		case *array.Uint32:
			buf = strconv.AppendUint(buf, uint64(x.Value(i)), 10)
		case *array.Float32:
			buf = types.AppendFloat(buf, float64(x.Value(i)), 32)
		case *array.Float64:
			buf = types.AppendFloat(buf, x.Value(i), 64)
		case *array.Decimal128:
			v := x.Value(i)
			buf = types.AppendDecimal128(buf, v.HighBits(), v.LowBits(), decimalScale(a))
		case *array.Decimal64:
			v := int64(x.Value(i))
			buf = types.AppendDecimal128(buf, v>>63, uint64(v), decimalScale(a))
		case *types.NumericArray:
			buf = types.AppendNumericText(buf, x.Bytes(i))
		case *array.Date32:
			var bc bool
			buf, bc = types.AppendDate(buf, int64(x.Value(i)))
			if bc {
				buf = append(buf, " BC"...)
			}
		case *array.FixedSizeBinary:
			buf = types.AppendUUID(buf, x.Value(i))
		case *array.Binary:
			buf = types.AppendByteaHex(buf, x.Value(i))
		case *array.Time64:
			buf = types.AppendTime(buf, int64(x.Value(i)))
		case *array.MonthDayNanoInterval:
			buf = types.AppendInterval(buf, types.IntervalFromArrow(x.Value(i)))
		case *array.Timestamp:
			// Values with a zone are UTC instants, printed here as in a UTC
			// session; castInZone prints them in other session zones.
			zone := ""
			if a.DataType().(*arrow.TimestampType).TimeZone != "" {
				zone = "+00"
			}
			buf = types.AppendTimestamp(buf, int64(x.Value(i)), zone)
		default:
			return nil, fmt.Errorf("cast from %s to text is not implemented", a.DataType())
		}
		if to.OID == types.OIDVarchar && to.Precision > 0 {
			buf = truncateRunes(buf, int(to.Precision))
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray(), nil
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s []byte, n int) []byte {
	count := 0
	for i := range string(s) {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}

// decimalToInt rounds numerics to integers, half away from zero.
func decimalToInt(a arrow.Array, to types.T, validity []byte, nulls int) (arrow.Array, error) {
	in := decimalValues(a)
	scale := decimalScale(a)
	lo, hi := intBounds(to)
	ints := make([]int64, len(in))
	for i, v := range in {
		if !validAt(validity, i) {
			continue
		}
		r, ok := types.Rescale(v, scale, 0)
		if !ok || !r.BigInt().IsInt64() || r.BigInt().Int64() < lo || r.BigInt().Int64() > hi {
			return nil, errIntOverflow(to)
		}
		ints[i] = r.BigInt().Int64()
	}
	return intsTo(ints, to, validity, nulls), nil
}

// castBpchar converts between character(n) and the other string types:
// to character(n) values are blank-padded (or cut) to n characters, from
// it they lose their trailing blanks, as PostgreSQL's bpchar casts do.
func castBpchar(a arrow.Array, from, to types.T) (arrow.Array, error) {
	str := a.(*array.String)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(str.Len())
	for i := 0; i < str.Len(); i++ {
		if str.IsNull(i) {
			b.AppendNull()
			continue
		}
		v := str.Value(i)
		if from.OID == types.OIDBpchar {
			v = strings.TrimRight(v, " ")
		}
		switch {
		case to.OID == types.OIDBpchar && to.Precision > 0:
			v = types.PadBpchar(v, to.Precision)
		case to.OID == types.OIDVarchar && to.Precision > 0:
			v = string(truncateRunes([]byte(v), int(to.Precision)))
		}
		b.Append(v)
	}
	return b.NewArray(), nil
}
