package storage

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
)

// A scan asked for 64-bit decimals (ScanRequest.Decimal64) returns a
// decimal column of precision 18 or less as Arrow's decimal64: the
// engine's representation of such a numeric. Iceberg's Arrow schema says
// decimal128 for every decimal, and Parquet files hold these columns as
// INT32 or INT64 (the Iceberg spec's choice for p <= 9 and p <= 18), so
// SQE's reader decodes the integers and takes them as the decimal's
// unscaled values without a copy (INT64) or with one widening loop
// (INT32). Columns read otherwise (iceberg-go's reader, a file that
// stores the decimal as bytes, rows staged in memory) are narrowed from
// decimal128 on the way out.

// narrowedType is dt as a 64-bit-decimal scan returns it: a decimal128
// of precision at most 18 (what SQE's files store as integers) becomes a decimal64 of the same precision and
// scale; every other type is itself.
func narrowedType(dt arrow.DataType) arrow.DataType {
	if d, ok := dt.(*arrow.Decimal128Type); ok && d.Precision <= maxDecimalPrecisionAsInteger {
		return &arrow.Decimal64Type{Precision: d.Precision, Scale: d.Scale}
	}
	return dt
}

// narrowedSchema is s with each field's type narrowedType'd (metadata
// kept), or s itself when none changes.
func narrowedSchema(s *arrow.Schema) *arrow.Schema {
	var fields []arrow.Field
	for i, f := range s.Fields() {
		if t := narrowedType(f.Type); t != f.Type {
			if fields == nil {
				fields = s.Fields()
			}
			fields[i].Type = t
		}
	}
	if fields == nil {
		return s
	}
	md := s.Metadata()
	return arrow.NewSchema(fields, &md)
}

// narrowsTo reports whether a column read as got is handed out as want by
// narrowing its decimals: got decimal128, want decimal64 of the same scale
// and a precision that holds got's.
func narrowsTo(got, want arrow.DataType) bool {
	g, ok := got.(*arrow.Decimal128Type)
	w, ok2 := want.(*arrow.Decimal64Type)
	return ok && ok2 && g.Scale == w.Scale && g.Precision <= w.Precision
}

// narrowDecimals returns a, a decimal128 array, as a decimal64 array of
// type to. A value outside 64 bits (a file whose values exceed its
// declared precision) is an error, not a truncation; the error does not
// carry the value, which no row filter or mask has seen yet.
func narrowDecimals(a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	src, ok := a.(*array.Decimal128)
	if !ok {
		return nil, fmt.Errorf("narrow %s to %s: not a decimal128 array", a.DataType(), to)
	}
	n := a.Len()
	buf := memory.NewResizableBuffer(memory.DefaultAllocator)
	buf.Resize(n * 8)
	out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
	vals := src.Values()
	for i, v := range vals {
		lo := int64(v.LowBits())
		out[i] = lo
		if v != decimal128.FromI64(lo) && src.IsValid(i) {
			buf.Release()
			return nil, fmt.Errorf("a decimal value of row %d does not fit %s", i, to)
		}
	}
	return decimalArray(to, a, buf), nil
}

// decimal64FromIntegers returns a, the INT64 or INT32 unscaled values of
// a decimal column as pqarrow decodes them, as a decimal64 array of type
// to: INT64's buffer taken as it is, INT32's widened.
func decimal64FromIntegers(a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	switch src := a.(type) {
	case *array.Int64:
		return retypedArray(a, to), nil
	case *array.Int32:
		buf := memory.NewResizableBuffer(memory.DefaultAllocator)
		buf.Resize(a.Len() * 8)
		out := arrow.Int64Traits.CastFromBytes(buf.Bytes())
		for i, v := range src.Int32Values() {
			out[i] = int64(v)
		}
		return decimalArray(to, a, buf), nil
	}
	return nil, fmt.Errorf("read %s as %s: not an integer array", a.DataType(), to)
}

// decimalArray is an array of type to (a decimal of either width) over
// vals (which it takes over), with like's length and validity.
func decimalArray(to arrow.DataType, like arrow.Array, vals *memory.Buffer) arrow.Array {
	defer vals.Release()
	var validity *memory.Buffer
	nulls := like.NullN()
	if nulls > 0 {
		validity = validityFrom(like.Data())
		defer validity.Release()
	}
	data := array.NewData(to, like.Len(), []*memory.Buffer{validity, vals}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// validityFrom is like's validity bitmap starting at its first row.
func validityFrom(like arrow.ArrayData) *memory.Buffer {
	src := like.Buffers()[0]
	if like.Offset() == 0 {
		src.Retain()
		return src
	}
	out := memory.NewResizableBuffer(memory.DefaultAllocator)
	out.Resize(int(bitutil.BytesForBits(int64(like.Len()))))
	bitutil.CopyBitmap(src.Bytes(), like.Offset(), like.Len(), out.Bytes(), 0)
	return out
}

// decimal64Read is how SQE's reader decodes a column held as decimal64.
type decimal64Read uint8

const (
	decimal64None     decimal64Read = iota // not a decimal64 column
	decimal64FromInts                      // the file's INT32 or INT64 values, as they are
	decimal64Narrowed                      // decoded as decimal128 (bytes in the file), then narrowed
)

// decimal64ReadOf is how a decimal stored as phys is read as decimal64.
func decimal64ReadOf(phys parquet.Type) decimal64Read {
	if phys == parquet.Types.Int32 || phys == parquet.Types.Int64 {
		return decimal64FromInts
	}
	return decimal64Narrowed
}

// integerOf is the Arrow type pqarrow decodes the integers of phys to
// without a copy.
func integerOf(phys parquet.Type) arrow.DataType {
	if phys == parquet.Types.Int32 {
		return arrow.PrimitiveTypes.Int32
	}
	return arrow.PrimitiveTypes.Int64
}

// widenDecimals returns a, a decimal64 array, as a decimal128 array of
// type to (a write to the table's schema; Arrow's cast has no decimal64).
// to's scale is a's, its precision at least a's (losslessCast).
func widenDecimals(a arrow.Array, to arrow.DataType) (arrow.Array, error) {
	src, ok := a.(*array.Decimal64)
	if !ok {
		return nil, fmt.Errorf("widen %s to %s: not a decimal64 array", a.DataType(), to)
	}
	buf := memory.NewResizableBuffer(memory.DefaultAllocator)
	buf.Resize(a.Len() * 16)
	out := arrow.Decimal128Traits.CastFromBytes(buf.Bytes())
	for i, v := range src.Values() {
		out[i] = decimal128.FromI64(int64(v))
	}
	return decimalArray(to, a, buf), nil
}

// NarrowedBatch is b with each decimal128 column of precision 18 or less
// as decimal64: rows a rewrite read from the table's files (Rewrite's
// ReadFile), as a 64-bit-decimal scan returns them. The caller releases
// it.
func NarrowedBatch(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	sc := narrowedSchema(b.Schema())
	positions := make([]int, b.NumCols())
	for i := range positions {
		positions[i] = i
	}
	return reshape(sc, positions, b)
}
