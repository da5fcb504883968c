package demo

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqe-db/sqe/storage"
)

// salesSchema is acdemo.sales(id bigint NOT NULL, region text, product text,
// quantity integer, price numeric(12,2), discount double precision,
// sold_on date).
var salesSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "product", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "quantity", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "price", Type: money, Nullable: true},
	{Name: "discount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "sold_on", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

const (
	// rowsPerCommit splits the table into several data files, so that scans
	// can run in parallel and prune.
	rowsPerCommit = 250_000
	rowsPerBatch  = 131_072
	// The generator's fixed seed: the same salesRows give the same table.
	seedHi, seedLo = 0x5153_4544_454d_4f31, 0x73616c6573
)

var (
	regions = []string{"EU", "US", "APAC", "LATAM"}
	colours = []string{"Red", "Blue", "Green", "Black", "White", "Silver", "Gold", "Orange", "Purple", "Grey"}
	items   = []string{"Chair", "Desk", "Lamp", "Shelf", "Sofa"}
	// firstDay and days span 2023-01-01 to 2024-12-31.
	firstDay = arrow.Date32FromTime(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC))
)

const days = 365 + 366

// appendSales writes rows generated rows to t, one commit per
// rowsPerCommit rows.
func appendSales(ctx context.Context, t *storage.Table, rows int) error {
	_, err := AppendGenerated(ctx, t, salesSchema, rows, rowsPerCommit, rowsPerBatch, newSalesGen().batch)
	return err
}

// salesGen draws sales rows from one fixed-seed PCG stream, in id order.
type salesGen struct{ rng *rand.Rand }

func newSalesGen() *salesGen {
	return &salesGen{rng: rand.New(rand.NewPCG(seedHi, seedLo))}
}

// batch generates n rows with ids firstID, firstID+1, ...
func (g *salesGen) batch(firstID int64, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, salesSchema)
	defer b.Release()
	b.Reserve(n)
	id := b.Field(0).(*array.Int64Builder)
	region := b.Field(1).(*array.StringBuilder)
	product := b.Field(2).(*array.StringBuilder)
	quantity := b.Field(3).(*array.Int32Builder)
	price := b.Field(4).(*array.Decimal128Builder)
	discount := b.Field(5).(*array.Float64Builder)
	soldOn := b.Field(6).(*array.Date32Builder)
	r := g.rng
	for i := range n {
		id.Append(firstID + int64(i))
		region.Append(regions[r.IntN(len(regions))])
		p := r.IntN(len(colours) * len(items))
		product.Append(colours[p%len(colours)] + " " + items[p/len(colours)])
		quantity.Append(int32(1 + r.IntN(20)))
		// A per-product list price with some spread: 5.00 to about 1000.00.
		price.Append(decimal128.FromI64(int64(500 + p*1900 + r.IntN(5000))))
		if r.IntN(10) == 0 {
			discount.AppendNull()
		} else {
			discount.Append(float64(r.IntN(31)) / 100)
		}
		soldOn.Append(firstDay + arrow.Date32(r.IntN(days)))
	}
	return b.NewRecordBatch()
}
