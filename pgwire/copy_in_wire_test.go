package pgwire_test

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/storage"
)

// copyTargetDDL is acdemo.inbox, the table the COPY FROM scripts write,
// as PostgreSQL creates it; createCopyTarget makes the same in SQE.
const copyTargetDDL = "CREATE TABLE acdemo.inbox (id bigint NOT NULL, note text, amount numeric(12,2), day date)"

func createCopyTarget(ctx context.Context, cat storage.Catalog) error {
	_, err := cat.CreateTable(ctx, "acdemo", "inbox", arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "amount", Type: &arrow.Decimal128Type{Precision: 12, Scale: 2}, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	}, nil), storage.CreateTableOptions{})
	return err
}
