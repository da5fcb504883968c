package exec

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// get_bit, get_byte, set_bit, set_byte and bit_count of bytea: bits are
// numbered from the low-order bit of the first byte, and an index outside
// the value fails with 2202E, as in PostgreSQL.

func errByteaIndex(n, last int64) error {
	return pgerror.New(pgerror.ArraySubscriptError, "index %d out of valid range, 0..%d", n, last)
}

func getBitKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, idx := args[0].(*array.Binary), values[int64](args[1])
	return int32Result(args, func(i int) (int32, error) {
		b, n := in.Value(i), idx[i]
		if n < 0 || n >= int64(len(b))*8 {
			return 0, errByteaIndex(n, int64(len(b))*8-1)
		}
		return int32(b[n/8]>>(n%8)) & 1, nil
	})
}

func getByteKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, idx := args[0].(*array.Binary), values[int32](args[1])
	return int32Result(args, func(i int) (int32, error) {
		b, n := in.Value(i), idx[i]
		if n < 0 || int(n) >= len(b) {
			return 0, errByteaIndex(int64(n), int64(len(b))-1)
		}
		return int32(b[n]), nil
	})
}

func setBitKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, idx, bit := args[0].(*array.Binary), values[int64](args[1]), values[int32](args[2])
	return binaryResult(args, func(i int, buf []byte) ([]byte, error) {
		b, n := in.Value(i), idx[i]
		if n < 0 || n >= int64(len(b))*8 {
			return buf, errByteaIndex(n, int64(len(b))*8-1)
		}
		if v := bit[i]; v != 0 && v != 1 {
			return buf, pgerror.New(pgerror.InvalidParameterValue, "new bit must be 0 or 1")
		}
		buf = append(buf, b...)
		mask := byte(1) << (n % 8)
		buf[n/8] = buf[n/8]&^mask | byte(bit[i])<<(n%8)
		return buf, nil
	})
}

func setByteKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in, idx, val := args[0].(*array.Binary), values[int32](args[1]), values[int32](args[2])
	return binaryResult(args, func(i int, buf []byte) ([]byte, error) {
		b, n := in.Value(i), idx[i]
		if n < 0 || int(n) >= len(b) {
			return buf, errByteaIndex(int64(n), int64(len(b))-1)
		}
		buf = append(buf, b...)
		buf[n] = byte(val[i]) // the low-order byte, as PostgreSQL stores it
		return buf, nil
	})
}

// bitCountKernel is bit_count(bytea): the number of set bits, a bigint.
func bitCountKernel(args []arrow.Array, _ types.T) (arrow.Array, error) {
	in := args[0].(*array.Binary)
	validity, nulls := validity1(in)
	out := make([]int64, in.Len())
	for i := range out {
		if !validAt(validity, i) {
			continue
		}
		var n int
		for _, c := range in.Value(i) {
			n += bits.OnesCount8(c)
		}
		out[i] = int64(n)
	}
	return newFixed(arrow.PrimitiveTypes.Int64, out, validity, nulls), nil
}
