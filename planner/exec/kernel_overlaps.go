package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/sqe-db/sqe/sql/types"
)

// overlapsKernel is (s1, e1) OVERLAPS (s2, e2) over timestamps,
// timestamptzs or times, all held as int64 microseconds.
func overlapsKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	if len(args) != 4 {
		return nil, fmt.Errorf("overlaps takes 4 arguments, got %d", len(args))
	}
	var v [4][]int64
	for k, a := range args {
		switch a.DataType().ID() {
		case arrow.TIMESTAMP, arrow.TIME64, arrow.INT64:
			v[k] = values[int64](a)
		default:
			return nil, fmt.Errorf("overlaps of %s", a.DataType())
		}
	}
	n := args[0].Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	valid := make([]byte, bitutil.BytesForBits(int64(n)))
	nulls := 0
	for i := 0; i < n; i++ {
		res, ok := overlapsRow(
			v[0][i], args[0].IsNull(i), v[1][i], args[1].IsNull(i),
			v[2][i], args[2].IsNull(i), v[3][i], args[3].IsNull(i))
		if !ok {
			nulls++
			continue
		}
		bitutil.SetBit(valid, i)
		if res {
			bitutil.SetBit(bits, i)
		}
	}
	return newBool(n, bits, valid, nulls), nil
}

// overlapsRow is PostgreSQL's overlaps_timestamp: each period is ordered
// (a NULL endpoint is taken as the end), then the periods overlap when
// each starts before the other ends; ok is false for an unknown (NULL)
// answer, which a NULL endpoint gives only where it could decide it.
func overlapsRow(s1 int64, s1Null bool, e1 int64, e1Null bool, s2 int64, s2Null bool, e2 int64, e2Null bool) (res, ok bool) {
	if s1Null {
		if e1Null {
			return false, false
		}
		s1, e1Null = e1, true
	} else if !e1Null && s1 > e1 {
		s1, e1 = e1, s1
	}
	if s2Null {
		if e2Null {
			return false, false
		}
		s2, e2Null = e2, true
	} else if !e2Null && s2 > e2 {
		s2, e2 = e2, s2
	}
	switch {
	case s1 > s2:
		// s1 < e2 OR e1 < e2, the second implied by the first when e1
		// is known.
		if e2Null {
			return false, false
		}
		if s1 < e2 {
			return true, true
		}
		if e1Null {
			return false, false
		}
		return false, true
	case s1 < s2:
		if e1Null {
			return false, false
		}
		if s2 < e1 {
			return true, true
		}
		if e2Null {
			return false, false
		}
		return false, true
	default:
		// Equal starts: true when both ends are known.
		if e1Null || e2Null {
			return false, false
		}
		return true, true
	}
}
