package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/sql/types"
)

// isfiniteKernel is isfinite(date | timestamp | timestamptz | interval):
// false for -infinity and infinity. Intervals are always finite in
// PostgreSQL 15.
func isfiniteKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	a := args[0]
	n := a.Len()
	validity, nulls := validity1(a)
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	set := func(i int, finite bool) {
		if finite {
			bitutil.SetBit(bits, i)
		}
	}
	switch a.DataType().ID() {
	case arrow.DATE32:
		for i, d := range values[int32](a) {
			set(i, d != types.DateNegInfinity && d != types.DatePosInfinity)
		}
	case arrow.TIMESTAMP:
		for i, t := range values[int64](a) {
			set(i, !types.IsInfiniteTimestamp(t))
		}
	case arrow.INTERVAL_MONTH_DAY_NANO:
		for i := 0; i < n; i++ {
			set(i, true)
		}
	default:
		return nil, fmt.Errorf("isfinite of %s", a.DataType())
	}
	return newBool(n, bits, validity, nulls), nil
}
