package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// The policy suite's table, policybench.orders(id bigint NOT NULL, region
// text, ssn text, email text, amount numeric(12,2), order_date date): the
// demo's orders, generated at any size. No row's region is
// policyFilterMissing, so the suite's row filter keeps every row and the
// comparison measures the policy's cost, not a smaller result.
const (
	policyNamespace = "policybench"
	policyTable     = "orders"
	// policyRowsPerCommit rows go to each data file, so scans run on
	// parallel workers.
	policyRowsPerCommit = 1_000_000
	policyRowsPerBatch  = 131_072
)

var policyRegions = []string{"EU", "US", "APAC", "LATAM"}

func policySchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ssn", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "email", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}, Nullable: true},
		{Name: "order_date", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	}, nil)
}

// preparePolicyDir writes policybench.orders with rows generated rows
// into a fresh data directory through the storage API (the fastest way
// in; loading is not what the suite measures).
func preparePolicyDir(ctx context.Context, dataDir string, rows int) (err error) {
	cat, err := storage.OpenEmbedded(ctx, sqeDatabase, dataDir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("prepare policy data dir: %w", err)
	}
	defer func() {
		if cerr := cat.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("prepare policy data dir: close catalog: %w", cerr)
		}
	}()
	loader := storage.WithPrincipal(ctx, storage.Principal{User: benchUser})
	if err := cat.CreateNamespace(loader, policyNamespace); err != nil {
		return fmt.Errorf("prepare policy data dir: %w", err)
	}
	schema := policySchema()
	t, err := cat.CreateTable(loader, policyNamespace, policyTable, schema, storage.CreateTableOptions{})
	if err != nil {
		return fmt.Errorf("prepare policy data dir: %w", err)
	}
	if _, err := demo.AppendGenerated(loader, t, schema, rows, policyRowsPerCommit, policyRowsPerBatch, newOrdersGen(schema).batch); err != nil {
		return fmt.Errorf("prepare policy data dir: append rows: %w", err)
	}
	return nil
}

// ordersGen draws rows from one fixed-seed PCG stream, in id order, so
// the same row count gives the same table.
type ordersGen struct {
	schema *arrow.Schema
	rng    *rand.Rand
	buf    []byte
}

func newOrdersGen(schema *arrow.Schema) *ordersGen {
	return &ordersGen{schema: schema, rng: rand.New(rand.NewPCG(0x504f4c4943, 0x42454e4348))}
}

// ordersFirstDay and ordersDays span 2023-01-01 to 2024-12-31.
var ordersFirstDay = arrow.Date32FromTime(time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC))

const ordersDays = 365 + 366

// batch generates n rows with ids firstID, firstID+1, ...
func (g *ordersGen) batch(firstID int64, n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, g.schema)
	defer b.Release()
	b.Reserve(n)
	id := b.Field(0).(*array.Int64Builder)
	region := b.Field(1).(*array.StringBuilder)
	ssn := b.Field(2).(*array.StringBuilder)
	email := b.Field(3).(*array.StringBuilder)
	amount := b.Field(4).(*array.Decimal128Builder)
	orderDate := b.Field(5).(*array.Date32Builder)
	ssn.ReserveData(n * len("123-45-6789"))
	email.ReserveData(n * len("customer0000000@example.com"))
	r := g.rng
	for i := range n {
		rowID := firstID + int64(i)
		id.Append(rowID)
		region.Append(policyRegions[r.IntN(len(policyRegions))])
		g.buf = appendSSN(g.buf[:0], r.IntN(1_000_000_000))
		ssn.BinaryBuilder.Append(g.buf)
		g.buf = append(strconv.AppendInt(append(g.buf[:0], "customer"...), rowID, 10), "@example.com"...)
		email.BinaryBuilder.Append(g.buf)
		// 1.00 to 10,000.00.
		amount.Append(decimal128.FromI64(int64(100 + r.IntN(1_000_000))))
		orderDate.Append(ordersFirstDay + arrow.Date32(r.IntN(ordersDays)))
	}
	return b.NewRecordBatch()
}

// appendSSN appends the nine digits of v (below 10^9) as ddd-dd-dddd.
func appendSSN(dst []byte, v int) []byte {
	var d [9]byte
	for i := 8; i >= 0; i-- {
		d[i] = byte('0' + v%10)
		v /= 10
	}
	return append(dst, d[0], d[1], d[2], '-', d[3], d[4], '-', d[5], d[6], d[7], d[8])
}
