package sql

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqe-db/sqe/sql/extgrammar"
	"github.com/sqe-db/sqe/sql/types"
)

// Statement is one parsed statement of a query string, ready to execute.
type Statement struct {
	// SQL is the statement's own text (without the other statements of a
	// multi-statement string).
	SQL string
	// Offset is the byte offset of SQL within the original query string, so
	// error positions point into what the client sent.
	Offset int

	node stmtNode
	// ext is an access-control statement of the extension grammar; node
	// is then empty.
	ext extgrammar.Statement
}

// Column describes one result column as RowDescription presents it.
type Column struct {
	Name     string
	Type     types.T
	TableOID uint32 // 0 when the column is not a plain table column
	AttNum   int16  // 0 when the column is not a plain table column
}

// Result is a running statement. Rows are pulled batch by batch, so a
// result is never held in memory as a whole; pgwire encodes each batch as
// DataRows and releases it.
type Result interface {
	// Columns is the row shape, or nil when the statement returns no rows
	// (pgwire then sends no RowDescription, or NoData).
	Columns() []Column
	// Next returns the next batch, or (nil, nil) when there are no more.
	// The caller releases each batch. ctx cancels the work in flight.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// CommandTag is the CommandComplete tag ("SELECT 3", "SET"); valid
	// once Next has returned (nil, nil), with the row count of what was
	// returned.
	CommandTag() string
	// Close releases the result's resources; it is safe to call twice and
	// before the end.
	Close()
}
