package demo

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var money = &arrow.Decimal128Type{Precision: 12, Scale: 2}

// ordersSchema is acdemo.orders(id bigint NOT NULL, region text, ssn text,
// amount numeric(12,2), order_date date).
var ordersSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "ssn", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "amount", Type: money, Nullable: true},
	{Name: "order_date", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

type order struct {
	id          int64
	region, ssn string
	cents       int64
	date        time.Time
}

// orders are the rows the access-control examples are written against.
var orders = []order{
	{1, "EU", "111-11-1111", 12050, time.Date(2024, 1, 15, 0, 0, 0, 0, time.UTC)},
	{2, "US", "222-22-2222", 7500, time.Date(2024, 2, 3, 0, 0, 0, 0, time.UTC)},
	{3, "EU", "333-33-3333", 31025, time.Date(2024, 3, 22, 0, 0, 0, 0, time.UTC)},
}

func ordersReader() (array.RecordReader, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, ordersSchema)
	defer b.Release()
	for _, o := range orders {
		b.Field(0).(*array.Int64Builder).Append(o.id)
		b.Field(1).(*array.StringBuilder).Append(o.region)
		b.Field(2).(*array.StringBuilder).Append(o.ssn)
		b.Field(3).(*array.Decimal128Builder).Append(decimal128.FromI64(o.cents))
		b.Field(4).(*array.Date32Builder).Append(arrow.Date32FromTime(o.date))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return array.NewRecordReader(ordersSchema, []arrow.RecordBatch{rec})
}
