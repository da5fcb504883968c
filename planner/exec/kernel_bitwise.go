package exec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
)

// The integer bitwise operators: &, |, # (xor), ~ (not), << and >>, over
// smallint, integer and bigint as PostgreSQL's int2and ... int8shr. None
// can fail. A shift count is used as the C code PostgreSQL compiles to
// uses it on x86-64: modulo 32 for smallint and integer (a smallint is
// shifted as an int and truncated), modulo 64 for bigint, so a negative
// or too large count wraps instead of failing.

// bitwise2 applies f to two integer columns of one width.
func bitwise2(f func(a, b int64) int64) scalarKernel {
	return func(args []arrow.Array, res types.T) (arrow.Array, error) {
		validity, nulls := nullsOf(args)
		switch args[0].DataType().ID() {
		case arrow.INT16:
			return intBinary(values[int16](args[0]), values[int16](args[1]), arrow.PrimitiveTypes.Int16, validity, nulls,
				func(a, b int16) int16 { return int16(f(int64(a), int64(b))) }), nil
		case arrow.INT32:
			return intBinary(values[int32](args[0]), values[int32](args[1]), arrow.PrimitiveTypes.Int32, validity, nulls,
				func(a, b int32) int32 { return int32(f(int64(a), int64(b))) }), nil
		case arrow.INT64:
			return intBinary(values[int64](args[0]), values[int64](args[1]), arrow.PrimitiveTypes.Int64, validity, nulls, f), nil
		}
		return nil, fmt.Errorf("bitwise operator over %s", args[0].DataType())
	}
}

// intBinary computes f row by row where validity says both are set.
func intBinary[L, R, O int16 | int32 | int64](l []L, r []R, dt arrow.DataType, validity []byte, nulls int, f func(L, R) O) arrow.Array {
	out := make([]O, len(l))
	for i := range l {
		if validAt(validity, i) {
			out[i] = f(l[i], r[i])
		}
	}
	return newFixed(dt, out, validity, nulls)
}

func bitnotKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	validity, nulls := validity1(args[0])
	switch args[0].DataType().ID() {
	case arrow.INT16:
		return intUnary(values[int16](args[0]), arrow.PrimitiveTypes.Int16, validity, nulls), nil
	case arrow.INT32:
		return intUnary(values[int32](args[0]), arrow.PrimitiveTypes.Int32, validity, nulls), nil
	case arrow.INT64:
		return intUnary(values[int64](args[0]), arrow.PrimitiveTypes.Int64, validity, nulls), nil
	}
	return nil, fmt.Errorf("~ over %s", args[0].DataType())
}

func intUnary[T int16 | int32 | int64](in []T, dt arrow.DataType, validity []byte, nulls int) arrow.Array {
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = ^v
	}
	return newFixed(dt, out, validity, nulls)
}

// shiftKernel is << (left) or >> (arithmetic right) by an integer count.
func shiftKernel(left bool) scalarKernel {
	return func(args []arrow.Array, _ types.T) (arrow.Array, error) {
		validity, nulls := nullsOf(args)
		counts := values[int32](args[1])
		switch args[0].DataType().ID() {
		case arrow.INT16:
			return intBinary(values[int16](args[0]), counts, arrow.PrimitiveTypes.Int16, validity, nulls, func(v int16, n int32) int16 {
				return int16(shift32(int32(v), n, left))
			}), nil
		case arrow.INT32:
			return intBinary(values[int32](args[0]), counts, arrow.PrimitiveTypes.Int32, validity, nulls, func(v int32, n int32) int32 {
				return shift32(v, n, left)
			}), nil
		case arrow.INT64:
			return intBinary(values[int64](args[0]), counts, arrow.PrimitiveTypes.Int64, validity, nulls, func(v int64, n int32) int64 {
				c := uint(n) & 63
				if left {
					return v << c
				}
				return v >> c
			}), nil
		}
		return nil, fmt.Errorf("shift of %s", args[0].DataType())
	}
}

func shift32(v, n int32, left bool) int32 {
	c := uint(n) & 31
	if left {
		return v << c
	}
	return v >> c
}
