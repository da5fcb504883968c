package exec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// castArray converts a to type to, for the conversions the binder allows
// at run time (planner.castSupported).
func castArray(a arrow.Array, from, to types.T) (arrow.Array, error) {
	if from.IsGeneralNumeric() || to.IsGeneralNumeric() {
		return castGeneral(a, from, to)
	}
	validity, nulls := validity1(a)
	n := a.Len()
	switch {
	case to.Family() == types.FamilyString && from.Family() == types.FamilyString && (from.OID == types.OIDBpchar || to.OID == types.OIDBpchar):
		return castBpchar(a, from, to)
	case to.Family() == types.FamilyString:
		if from.Family() == types.FamilyString && (to.OID != types.OIDVarchar || to.Precision == 0) {
			a.Retain()
			return a, nil
		}
		return castToText(a, to)
	case from.Family() == types.FamilyJSON && to.OID == types.OIDJSON:
		// jsonb's text is valid json as it stands.
		a.Retain()
		return a, nil
	case from.Family() == types.FamilyString, from.Family() == types.FamilyJSON:
		// I/O conversion: each value through the type's input function.
		str := a.(*array.String)
		vals := make([]any, n)
		for i := 0; i < n; i++ {
			if str.IsNull(i) {
				continue
			}
			var v any
			var err error
			if to.Family() == types.FamilyNumeric {
				// At exactly the target's scale (ParseText keeps a longer
				// written scale for an unconstrained numeric).
				n, scale, perr := types.ParseNumericLiteral(strings.TrimSpace(str.Value(i)))
				if perr != nil {
					return nil, pgerror.New(pgerror.InvalidTextRepresentation, "invalid input syntax for type numeric: \"%s\"", str.Value(i))
				}
				v, err = types.RescaleNumeric(n, scale, to)
			} else {
				v, err = types.ParseText(str.Value(i), to)
			}
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return valuesArray(to, vals)
	case from.Family() == types.FamilyArray && to.Family() == types.FamilyArray:
		return castList(a, from, to)
	case from.Family() == types.FamilyFloat && to.Family() == types.FamilyNumeric:
		return floatToNumeric(a, to, validity, nulls)
	case isDatetimeCast(from, to):
		return castDatetime(a, from, to)
	case from.Family() == types.FamilyOID:
		oids := values[uint32](a)
		ints := make([]int64, n)
		for i, v := range oids {
			ints[i] = int64(v)
		}
		if to.Family() == types.FamilyOID {
			a.Retain()
			return a, nil
		}
		return intsTo(ints, to, validity, nulls), nil
	case from.Family() == types.FamilyInt && to.Family() == types.FamilyOID:
		ints := intsOf(a)
		out := make([]uint32, n)
		for i, v := range ints {
			if validAt(validity, i) && (v < -(1<<31) || v > 1<<32-1) {
				return nil, pgerror.New(pgerror.NumericValueOutOfRange, "OID out of range")
			}
			out[i] = uint32(v)
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	case from.Family() == types.FamilyBool && to.OID == types.OIDInt4:
		bools := a.(*array.Boolean)
		out := make([]int32, n)
		for i := range out {
			if bools.IsValid(i) && bools.Value(i) {
				out[i] = 1
			}
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	case from.Family() == types.FamilyInt && to.Family() == types.FamilyBool:
		ints := intsOf(a)
		out := make([]any, n)
		for i, v := range ints {
			if validAt(validity, i) {
				out[i] = v != 0
			}
		}
		return valuesArray(to, out)
	case from.Family() == types.FamilyInt:
		ints := intsOf(a)
		switch to.Family() {
		case types.FamilyInt:
			lo, hi := intBounds(to)
			for i, v := range ints {
				if (v < lo || v > hi) && validAt(validity, i) {
					return nil, errIntOverflow(to)
				}
			}
			return intsTo(ints, to, validity, nulls), nil
		case types.FamilyFloat:
			if to.OID == types.OIDFloat4 {
				out := make([]float32, n)
				for i, v := range ints {
					out[i] = float32(v)
				}
				return newFixed(to.Arrow(), out, validity, nulls), nil
			}
			out := make([]float64, n)
			for i, v := range ints {
				out[i] = float64(v)
			}
			return newFixed(to.Arrow(), out, validity, nulls), nil
		case types.FamilyNumeric:
			out := make([]decimal128.Num, n)
			for i, v := range ints {
				r, ok := types.Rescale(decimal128.FromI64(v), 0, to.Scale)
				if !ok && validAt(validity, i) {
					return nil, errNumericOverflow()
				}
				out[i] = r
			}
			return checkDecimals(out, to, validity, nulls)
		}
	case from.Family() == types.FamilyFloat:
		fs := floatsOf(a)
		switch to.Family() {
		case types.FamilyFloat:
			if to.OID == types.OIDFloat4 {
				out := make([]float32, n)
				for i, v := range fs {
					if validAt(validity, i) && !math.IsInf(v, 0) && math.Abs(v) > math.MaxFloat32 {
						return nil, pgerror.New(pgerror.NumericValueOutOfRange, "value out of range: overflow")
					}
					out[i] = float32(v)
				}
				return newFixed(to.Arrow(), out, validity, nulls), nil
			}
			return newFixed(to.Arrow(), fs, validity, nulls), nil
		case types.FamilyInt:
			lo, hi := intBounds(to)
			ints := make([]int64, n)
			for i, v := range fs {
				r := math.RoundToEven(v)
				if validAt(validity, i) && (math.IsNaN(r) || r < float64(lo) || r > float64(hi) || r >= math.MaxInt64) {
					return nil, errIntOverflow(to)
				}
				ints[i] = int64(r)
			}
			return intsTo(ints, to, validity, nulls), nil
		}
	case from.Family() == types.FamilyNumeric:
		in := decimalValues(a)
		fs := decimalScale(a)
		switch to.Family() {
		case types.FamilyInt:
			return decimalToInt(a, to, validity, nulls)
		case types.FamilyNumeric:
			out := make([]decimal128.Num, n)
			for i, v := range in {
				r, ok := types.Rescale(v, fs, to.Scale)
				if !ok && validAt(validity, i) {
					return nil, errNumericOverflow()
				}
				out[i] = r
			}
			return checkDecimals(out, to, validity, nulls)
		case types.FamilyFloat:
			out := make([]float64, n)
			for i, v := range in {
				out[i] = v.ToFloat64(fs)
			}
			if to.OID == types.OIDFloat4 {
				f32 := make([]float32, n)
				for i, v := range out {
					f32[i] = float32(v)
				}
				return newFixed(to.Arrow(), f32, validity, nulls), nil
			}
			return newFixed(to.Arrow(), out, validity, nulls), nil
		}
	case from.Family() == types.FamilyTimestamp && to.Family() == types.FamilyTimestamp:
		// timestamp and timestamptz hold the same microseconds: in a UTC
		// session the wall clock is the instant (castInZone does the rest).
		return newFixed(to.Arrow(), append([]int64(nil), values[int64](a)...), validity, nulls), nil
	case from.Family() == types.FamilyDate && to.Family() == types.FamilyTimestamp:
		days := values[int32](a)
		out := make([]int64, n)
		for i, d := range days {
			out[i] = types.DateToTimestamp(d)
		}
		return newFixed(to.Arrow(), out, validity, nulls), nil
	}
	return nil, fmt.Errorf("cast from %s to %s is not implemented", from.Name(), to.Name())
}

func checkDecimals(out []decimal128.Num, to types.T, validity []byte, nulls int) (arrow.Array, error) {
	p := to.Precision
	if p == 0 {
		p = types.MaxNumericPrecision
	}
	for i, v := range out {
		if validAt(validity, i) && !v.FitsInPrecision(p) {
			if to.Precision == 0 {
				return nil, errNumericOverflow()
			}
			return nil, pgerror.New(pgerror.NumericValueOutOfRange, "numeric field overflow").
				WithDetail("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", to.Precision, to.Scale, to.Precision-to.Scale)
		}
	}
	return newDecimal(to.Arrow(), out, validity, nulls), nil
}

func intBounds(t types.T) (int64, int64) {
	switch t.OID {
	case types.OIDInt2:
		return math.MinInt16, math.MaxInt16
	case types.OIDInt4:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// intsOf widens any integer array to int64 values.
func intsOf(a arrow.Array) []int64 {
	switch a.DataType().ID() {
	case arrow.INT16:
		return widen(values[int16](a))
	case arrow.INT32:
		return widen(values[int32](a))
	case arrow.DECIMAL64:
		// Its int64s are unscaled values, not integers.
		panic("integers of a decimal64 array")
	}
	return values[int64](a)
}

func widen[T int16 | int32](in []T) []int64 {
	out := make([]int64, len(in))
	for i, v := range in {
		out[i] = int64(v)
	}
	return out
}

func floatsOf(a arrow.Array) []float64 {
	if a.DataType().ID() == arrow.FLOAT32 {
		in := values[float32](a)
		out := make([]float64, len(in))
		for i, v := range in {
			out[i] = float64(v)
		}
		return out
	}
	return values[float64](a)
}

func intsTo(ints []int64, to types.T, validity []byte, nulls int) arrow.Array {
	switch to.OID {
	case types.OIDInt2:
		out := make([]int16, len(ints))
		for i, v := range ints {
			out[i] = int16(v)
		}
		return newFixed(to.Arrow(), out, validity, nulls)
	case types.OIDInt4:
		out := make([]int32, len(ints))
		for i, v := range ints {
			out[i] = int32(v)
		}
		return newFixed(to.Arrow(), out, validity, nulls)
	}
	return newFixed(to.Arrow(), append([]int64(nil), ints...), validity, nulls)
}

// floatToNumeric converts float4/float8 to numeric as PostgreSQL does:
// through the float's shortest decimal text (15 significant digits for
// float8, 6 for float4), then rounded to the target scale. NaN and the
// infinities have no numeric here.
func floatToNumeric(a arrow.Array, to types.T, validity []byte, nulls int) (arrow.Array, error) {
	digits := 15
	if a.DataType().ID() == arrow.FLOAT32 {
		digits = 6
	}
	in := floatsOf(a)
	out := make([]decimal128.Num, len(in))
	var buf []byte
	for i, f := range in {
		if !validAt(validity, i) {
			continue
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, pgerror.New(pgerror.FeatureNotSupported, "cannot convert %s to numeric", strings.ToLower(strconv.FormatFloat(f, 'g', -1, 64)))
		}
		// Keep the float's significant digits only, as float8out does.
		buf = strconv.AppendFloat(buf[:0], mustParse(strconv.FormatFloat(f, 'g', digits, 64)), 'f', -1, 64)
		n, scale, err := types.ParseNumericLiteral(string(buf))
		if err != nil {
			return nil, err
		}
		v, ok := rescaleRounding(n, scale, to.Scale, true)
		if !ok {
			return nil, errNumericOverflow()
		}
		out[i] = v
	}
	return checkDecimals(out, to, validity, nulls)
}

func mustParse(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

// castList converts an array's elements to the target array's element
// type, keeping each row's offsets and NULLs.
func castList(a arrow.Array, from, to types.T) (arrow.Array, error) {
	l, ok := a.(*array.List)
	if !ok {
		return nil, fmt.Errorf("cast from %s to %s is not implemented", from.Name(), to.Name())
	}
	fe, _ := from.Elem()
	te, _ := to.Elem()
	elems, err := castArray(l.ListValues(), fe, te)
	if err != nil {
		return nil, err
	}
	defer elems.Release()
	offsets := append([]int32(nil), l.Offsets()...)
	validity, nulls := validity1(a)
	return newList(to.Arrow().(*arrow.ListType), offsets, elems, validity, nulls), nil
}
