package exec

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// kleene evaluates AND / OR with SQL's three-valued logic.
func kleene(ctx context.Context, op string, l, r arrow.Array) (arrow.Array, error) {
	fn := "and_kleene"
	if op == "OR" {
		fn = "or_kleene"
	}
	out, err := compute.CallFunction(ctx, fn, nil, compute.NewDatumWithoutOwning(l), compute.NewDatumWithoutOwning(r))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	defer out.Release()
	arr := out.(*compute.ArrayDatum).MakeArray()
	return arr, nil
}

// not inverts a boolean array, keeping NULLs.
func not(a arrow.Array) arrow.Array {
	b := a.(*array.Boolean)
	n := b.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		if !b.Value(i) {
			bitutil.SetBit(bits, i)
		}
	}
	validity, nulls := validity1(a)
	return newBool(n, bits, validity, nulls)
}

// isNull tests each value for NULL; the result is never NULL.
func isNull(a arrow.Array, negated bool) arrow.Array {
	n := a.Len()
	bits := make([]byte, bitutil.BytesForBits(int64(n)))
	for i := 0; i < n; i++ {
		if a.IsNull(i) != negated {
			bitutil.SetBit(bits, i)
		}
	}
	return newBool(n, bits, nil, 0)
}

// concat joins two string arrays (||); NULL in, NULL out.
func concat(l, r arrow.Array) arrow.Array {
	ls, rs := l.(*array.String), r.(*array.String)
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.Reserve(ls.Len())
	buf := make([]byte, 0, 64)
	for i := 0; i < ls.Len(); i++ {
		if ls.IsNull(i) || rs.IsNull(i) {
			b.AppendNull()
			continue
		}
		buf = append(append(buf[:0], ls.Value(i)...), rs.Value(i)...)
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray()
}
