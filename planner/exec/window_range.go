package exec

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// inRangeFunc is PostgreSQL's in_range support function for one ORDER BY
// key type and a fixed offset: whether key[j] >= key[i] ± offset, or <=
// when less (minus when sub).
type inRangeFunc func(j, i int, sub, less bool) bool

// boundFunc is in_range with sub and less fixed, as they are for one end
// of a frame.
type boundFunc func(j, i int) bool

// rangeBound finds, for RANGE offset frames, each row's frame start (the
// first row of its partition not before key ± offset in sort order) or
// end (the first row past it). NULL keys sort as their NULLS placement
// says; a row whose key is NULL has its NULL peers as bounds.
func rangeBound(r *windowRows, key arrow.Array, sk planner.SortKey, off arrow.Array, preceding, isEnd bool, loc *time.Location) (func(i int) int, error) {
	if key == nil {
		return nil, fmt.Errorf("RANGE offset frame without an ORDER BY key")
	}
	sub := preceding != sk.Desc
	less := isEnd != sk.Desc
	inRange, err := newBoundFunc(key, off, sub, less, loc)
	if err != nil {
		if key.NullN() == key.Len() {
			// in_range never runs without a non-NULL key.
			inRange = func(int, int) bool { return false }
		} else {
			return nil, err
		}
	}
	return func(i int) int {
		if key.IsNull(i) {
			if isEnd {
				return r.peerEnd[i]
			}
			return r.peerStart[i]
		}
		ps, pe := r.partStart[i], r.partEnd[i]
		// Rows are ordered so that the condition flips once: the first
		// row where it holds is the bound.
		return ps + sort.Search(pe-ps, func(k int) bool {
			j := ps + k
			if key.IsNull(j) {
				return !sk.NullsFirst
			}
			return inRange(j, i) != isEnd
		})
	}, nil
}

func errFrameSize() error {
	return pgerror.New(errInvalidFrameSize, "invalid preceding or following size in window function")
}

// newBoundFunc is in_range over key with the constant offset off.
func newBoundFunc(key, off arrow.Array, sub, less bool, loc *time.Location) (boundFunc, error) {
	switch key.DataType().ID() {
	case arrow.DATE32, arrow.TIMESTAMP, arrow.TIME64, arrow.INTERVAL_MONTH_DAY_NANO:
		return datetimeBound(key, off, sub, less, loc)
	}
	inRange, err := newInRange(key, off)
	if err != nil {
		return nil, err
	}
	return func(j, i int) bool { return inRange(j, i, sub, less) }, nil
}

func newInRange(key, off arrow.Array) (inRangeFunc, error) {
	switch key.DataType().ID() {
	case arrow.INT16, arrow.INT32, arrow.INT64:
		vals, o := intsOf(key), intsOf(off)[0]
		if o < 0 {
			return nil, errFrameSize()
		}
		return func(j, i int, sub, less bool) bool {
			base, delta := vals[i], o
			if sub {
				delta = -o
			}
			sum := base + delta
			if (base^sum)&(delta^sum) < 0 {
				// The true sum is beyond every value, as in in_range_int8_int8.
				return sub != less
			}
			if less {
				return vals[j] <= sum
			}
			return vals[j] >= sum
		}, nil
	case arrow.FLOAT32, arrow.FLOAT64:
		vals, o := floatsOf(key), floatsOf(off)[0]
		if math.IsNaN(o) || o < 0 {
			return nil, errFrameSize()
		}
		return func(j, i int, sub, less bool) bool {
			val, base := vals[j], vals[i]
			switch {
			case math.IsNaN(val):
				return math.IsNaN(base) || !less
			case math.IsNaN(base):
				return less
			case math.IsInf(o, 0) && math.IsInf(base, 0) && (sub && base > 0 || !sub && base < 0):
				return true
			}
			sum := base + o
			if sub {
				sum = base - o
			}
			if less {
				return val <= sum
			}
			return val >= sum
		}, nil
	case arrow.DECIMAL128, arrow.DECIMAL64:
		ks, os := decimalScale(key), decimalScale(off)
		scale := max(ks, os)
		scaled := func(v decimal128.Num, from int32) *big.Int {
			b := v.BigInt()
			return b.Mul(b, types.Pow10(scale-from))
		}
		o := scaled(decimalValues(off)[0], os)
		if o.Sign() < 0 {
			return nil, errFrameSize()
		}
		raw := decimalValues(key)
		vals := make([]*big.Int, len(raw))
		for i, v := range raw {
			vals[i] = scaled(v, ks)
		}
		sum := new(big.Int)
		return func(j, i int, sub, less bool) bool {
			if sub {
				sum.Sub(vals[i], o)
			} else {
				sum.Add(vals[i], o)
			}
			c := vals[j].Cmp(sum)
			if less {
				return c <= 0
			}
			return c >= 0
		}, nil
	}
	return nil, fmt.Errorf("RANGE offset over %s cannot be executed", key.DataType())
}
