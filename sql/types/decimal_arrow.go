package types

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// MaxDecimal64Precision is the largest precision a numeric is held in 64
// bits for: 10^18 - 1 fits an int64, 10^19 - 1 does not.
const MaxDecimal64Precision = 18

// DecimalArrowType is the Arrow type a numeric(p, s) is held in: a scaled
// 64-bit integer up to precision 18 (the Parquet files' INT64 decimals
// read without widening, and half the bytes through filters, joins and
// sorts), a 128-bit one beyond.
func DecimalArrowType(p, s int32) arrow.DataType {
	if p <= MaxDecimal64Precision {
		return &arrow.Decimal64Type{Precision: p, Scale: s}
	}
	return &arrow.Decimal128Type{Precision: p, Scale: s}
}

// Arrow's compute kernels (take, filter) have none for decimal64. A
// decimal64 array is its unscaled int64 values with a scale in the type,
// so they run on the same buffers seen as int64 (Retyped) and the result
// is seen as the decimal again.

// Retyped is a with its buffers seen as type dt, which must lay out values
// the same way (decimal64 and int64). The caller releases it.
func Retyped(a arrow.Array, dt arrow.DataType) arrow.Array {
	d := a.Data()
	data := array.NewData(dt, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	defer data.Release()
	return array.MakeFromData(data)
}

// FilterRecordBatch is compute.FilterRecordBatch for a batch that may hold
// decimal64 columns.
func FilterRecordBatch(ctx context.Context, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	var decimals []int
	for i, f := range b.Schema().Fields() {
		if f.Type.ID() == arrow.DECIMAL64 {
			decimals = append(decimals, i)
		}
	}
	if len(decimals) == 0 {
		return compute.FilterRecordBatch(ctx, b, mask, compute.DefaultFilterOptions())
	}
	cols := make([]arrow.Array, b.NumCols())
	fields := b.Schema().Fields()
	for i := range cols {
		cols[i] = b.Column(i)
	}
	for _, i := range decimals {
		cols[i] = Retyped(cols[i], arrow.PrimitiveTypes.Int64)
		defer cols[i].Release()
		fields[i].Type = arrow.PrimitiveTypes.Int64
	}
	md := b.Schema().Metadata()
	in := array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, b.NumRows())
	defer in.Release()
	out, err := compute.FilterRecordBatch(ctx, in, mask, compute.DefaultFilterOptions())
	if err != nil {
		return nil, err
	}
	defer out.Release()
	res := make([]arrow.Array, out.NumCols())
	for i := range res {
		res[i] = out.Column(i)
	}
	for _, i := range decimals {
		res[i] = Retyped(res[i], b.Schema().Field(i).Type)
		defer res[i].Release()
	}
	return array.NewRecordBatch(b.Schema(), res, out.NumRows()), nil
}
