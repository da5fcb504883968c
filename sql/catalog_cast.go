package sql

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/sqe-db/sqe/storage"
)

// castColumns gives, for each scanned column, the Arrow type its data
// must be cast to, or nil when no scanned column needs a cast.
func (a *tableAdapter) castColumns(columns []int) []arrow.DataType {
	var out []arrow.DataType
	for i, c := range columns {
		if !a.casts[c] {
			continue
		}
		if out == nil {
			out = make([]arrow.DataType, len(columns))
		}
		out[i] = a.cols[c].Type.Arrow()
	}
	return out
}

// castStream casts the columns of a scan whose declared type is held in
// a wider Iceberg type (smallint as int) back to the declared type.
type castStream struct {
	ctx  context.Context
	st   storage.RecordStream
	cast []arrow.DataType
}

func (c *castStream) Close() error { return c.st.Close() }

func (c *castStream) Next() (arrow.RecordBatch, error) {
	b, err := c.st.Next()
	if err != nil {
		return nil, err
	}
	defer b.Release()
	return castBatch(c.ctx, b, c.cast)
}

// castBatch casts the columns of b that cast gives a type to (the
// columns held in a wider Iceberg type) to that type.
func castBatch(ctx context.Context, b arrow.RecordBatch, cast []arrow.DataType) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, b.NumCols())
	fields := make([]arrow.Field, b.NumCols())
	defer func() {
		for _, col := range cols {
			if col != nil {
				col.Release()
			}
		}
	}()
	for i := range cols {
		fields[i] = b.Schema().Field(i)
		if cast[i] == nil {
			cols[i] = b.Column(i)
			cols[i].Retain()
			continue
		}
		var out arrow.Array
		var err error
		if cast[i].ID() == arrow.INT16 && b.Column(i).DataType().ID() == arrow.INT32 {
			// A value out of range (another writer) is 22003, not a wrapped number.
			out, err = narrowToInt2(b.Column(i))
		} else {
			out, err = compute.CastToType(ctx, b.Column(i), cast[i])
		}
		if err != nil {
			return nil, fmt.Errorf("cast column %q to %s: %w", fields[i].Name, cast[i], err)
		}
		cols[i] = out
		fields[i].Type = cast[i]
	}
	md := b.Schema().Metadata()
	return array.NewRecordBatch(arrow.NewSchema(fields, &md), cols, b.NumRows()), nil
}
