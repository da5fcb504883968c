package exec

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/types"
)

// bitInt is the storage of the integer types bit_and, bit_or and
// bit_xor fold.
type bitInt interface{ int16 | int32 | int64 }

// bitAcc folds smallint, integer or bigint values with one bitwise
// operation per group, in the argument's own type; a group without a
// non-NULL value is NULL.
type bitAcc[T bitInt] struct {
	op   func(a, b T) T
	out  arrow.DataType
	vals []T
	seen []bool
}

func newBitAcc(name string, in types.T) (accumulator, error) {
	switch in.OID {
	case types.OIDInt2:
		return &bitAcc[int16]{op: bitOp[int16](name), out: in.Arrow()}, nil
	case types.OIDInt4:
		return &bitAcc[int32]{op: bitOp[int32](name), out: in.Arrow()}, nil
	case types.OIDInt8:
		return &bitAcc[int64]{op: bitOp[int64](name), out: in.Arrow()}, nil
	}
	return nil, fmt.Errorf("aggregate %s(%s) cannot be executed", name, in.Name())
}

func bitOp[T bitInt](name string) func(a, b T) T {
	switch name {
	case "bit_and":
		return func(a, b T) T { return a & b }
	case "bit_or":
		return func(a, b T) T { return a | b }
	}
	return func(a, b T) T { return a ^ b }
}

func (s *bitAcc[T]) update(groups []int32, n int, arg arrow.Array) error {
	s.vals, s.seen = grow(s.vals, n), grow(s.seen, n)
	in := values[T](arg)
	hasNulls := arg.NullN() > 0
	for i, g := range groups {
		if hasNulls && arg.IsNull(i) {
			continue
		}
		if s.seen[g] {
			s.vals[g] = s.op(s.vals[g], in[i])
		} else {
			s.vals[g], s.seen[g] = in[i], true
		}
	}
	return nil
}

func (s *bitAcc[T]) memBytes() int64 {
	var zero T
	return int64(cap(s.vals))*int64(unsafe.Sizeof(zero)) + int64(cap(s.seen))
}

func (s *bitAcc[T]) result(n int) (arrow.Array, error) {
	s.vals = grow(s.vals, n)
	bits, nulls := seenBitmap(s.seen, n)
	return newFixed(s.out, s.vals[:n], bits, nulls), nil
}
