package exec

import (
	"bytes"
	"cmp"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// cmpResult turns a three-way comparison into the operator's answer.
func cmpResult(op string) (func(c int) bool, error) {
	switch op {
	case "=":
		return func(c int) bool { return c == 0 }, nil
	case "<>":
		return func(c int) bool { return c != 0 }, nil
	case "<":
		return func(c int) bool { return c < 0 }, nil
	case "<=":
		return func(c int) bool { return c <= 0 }, nil
	case ">":
		return func(c int) bool { return c > 0 }, nil
	case ">=":
		return func(c int) bool { return c >= 0 }, nil
	}
	return nil, fmt.Errorf("unknown comparison %q", op)
}

// compareArrays evaluates l op r for two arrays of one type.
func compareArrays(op string, l, r arrow.Array) (arrow.Array, error) {
	test, err := cmpResult(op)
	if err != nil {
		return nil, err
	}
	n := l.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	validity, nulls := validity2(l, r)
	// The common types test a three-way result against acc, without a
	// call per row.
	acc, _ := cmpAccept(op)
	switch l.DataType().ID() {
	case arrow.INT16:
		compareFixed(values[int16](l), values[int16](r), bits, acc)
	case arrow.INT32, arrow.DATE32:
		compareFixed(values[int32](l), values[int32](r), bits, acc)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		compareFixed(values[int64](l), values[int64](r), bits, acc)
	case arrow.INTERVAL_MONTH_DAY_NANO:
		compareIntervalValues(values[arrow.MonthDayNanoInterval](l), values[arrow.MonthDayNanoInterval](r), bits, test)
	case arrow.UINT32:
		compareFixed(values[uint32](l), values[uint32](r), bits, acc)
	case arrow.FLOAT32:
		compareFloat(values[float32](l), values[float32](r), bits, acc)
	case arrow.FLOAT64:
		compareFloat(values[float64](l), values[float64](r), bits, acc)
	case arrow.STRING:
		ls, rs := l.(*array.String), r.(*array.String)
		for i := 0; i < n; i++ {
			if acc[strCmp(ls.Value(i), rs.Value(i))+1] {
				bitutil.SetBit(bits, i)
			}
		}
	case arrow.FIXED_SIZE_BINARY, arrow.BINARY:
		lb, rb := l.(bytesValues), r.(bytesValues)
		for i := 0; i < n; i++ {
			if test(bytes.Compare(lb.Value(i), rb.Value(i))) {
				bitutil.SetBit(bits, i)
			}
		}
	case arrow.BOOL:
		lb, rb := l.(*array.Boolean), r.(*array.Boolean)
		for i := 0; i < n; i++ {
			if test(boolCmp(lb.Value(i), rb.Value(i))) {
				bitutil.SetBit(bits, i)
			}
		}
	case arrow.DECIMAL128, arrow.DECIMAL64:
		ls, rs := decimalScale(l), decimalScale(r)
		if ls == rs && l.DataType().ID() == arrow.DECIMAL64 && r.DataType().ID() == arrow.DECIMAL64 {
			compareFixed(values[int64](l), values[int64](r), bits, acc)
			break
		}
		lv, rv := decimalValues(l), decimalValues(r)
		if ls == rs {
			for i := 0; i < n; i++ {
				if acc[lv[i].Cmp(rv[i])+1] {
					bitutil.SetBit(bits, i)
				}
			}
			break
		}
		for i := 0; i < n; i++ {
			a, b := alignDecimal(lv[i], ls, rv[i], rs)
			if test(a.Cmp(b)) {
				bitutil.SetBit(bits, i)
			}
		}
	case arrow.LIST:
		if err := compareLists(l, r, bits, test); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("comparison of %s is not implemented", l.DataType())
	}
	return newBool(n, bits, validity, nulls), nil
}

func compareFixed[T int16 | int32 | int64 | uint32](l, r []T, bits []byte, acc [3]bool) {
	r = r[:len(l)]
	for i := range l {
		c := 0
		if l[i] < r[i] {
			c = -1
		} else if l[i] > r[i] {
			c = 1
		}
		if acc[c+1] {
			bitutil.SetBit(bits, i)
		}
	}
}

// compareFloat orders NaN above every other value and equal to itself,
// as PostgreSQL does.
func compareFloat[T float32 | float64](l, r []T, bits []byte, acc [3]bool) {
	for i := range l {
		if acc[floatCmp(float64(l[i]), float64(r[i]))+1] {
			bitutil.SetBit(bits, i)
		}
	}
}

func floatCmp(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmp.Compare(a, b)
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// alignDecimal brings two decimals to the larger of their scales.
func alignDecimal(a decimal128.Num, as int32, b decimal128.Num, bs int32) (decimal128.Num, decimal128.Num) {
	switch {
	case as < bs:
		a = a.Mul(decimal128.GetScaleMultiplier(int(bs - as)))
	case bs < as:
		b = b.Mul(decimal128.GetScaleMultiplier(int(as - bs)))
	}
	return a, b
}

// bytesValues is an Arrow array of byte strings: uuid
// (fixed_size_binary) or bytea (binary). Both order bytewise, as
// PostgreSQL's uuid_cmp and byteacmp do.
type bytesValues interface {
	arrow.Array
	Value(int) []byte
}
