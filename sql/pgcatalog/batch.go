package pgcatalog

import (
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// BuildBatch builds one Arrow batch holding the given columns (indices
// into cols, in the order asked) of rows, each a column name to its Go
// value (nil is NULL). The catalog relations and the metadata tables
// build their batches with it.
func BuildBatch(cols []planner.TableColumn, want []int, rows []map[string]any) (arrow.RecordBatch, error) {
	fields := make([]arrow.Field, len(want))
	arrays := make([]arrow.Array, 0, len(want))
	defer func() {
		for _, a := range arrays {
			a.Release()
		}
	}()
	for i, c := range want {
		if c < 0 || c >= len(cols) {
			return nil, pgerror.New(pgerror.InternalError, "column index %d out of range", c)
		}
		col := cols[c]
		fields[i] = arrow.Field{Name: col.Name, Type: col.Type.Arrow(), Nullable: true}
		b := array.NewBuilder(memory.DefaultAllocator, fields[i].Type)
		for _, r := range rows {
			if err := appendValue(b, r[col.Name]); err != nil {
				b.Release()
				return nil, pgerror.Wrap(err, pgerror.InternalError, "column %s", col.Name)
			}
		}
		arrays = append(arrays, b.NewArray())
		b.Release()
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), arrays, int64(len(rows))), nil
}

// appendValue appends one Go value to a builder of the column's Arrow
// type; nil appends NULL. A value of the wrong Go type is a programming
// error in a relation and is reported rather than coerced.
func appendValue(b array.Builder, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	ok := false
	switch b := b.(type) {
	case *array.StringBuilder:
		var s string
		if s, ok = v.(string); ok {
			b.Append(s)
		}
	case *array.BooleanBuilder:
		var x bool
		if x, ok = v.(bool); ok {
			b.Append(x)
		}
	case *array.Uint32Builder:
		var x uint32
		if x, ok = v.(uint32); ok {
			b.Append(x)
		}
	case *array.Int16Builder:
		var x int16
		if x, ok = v.(int16); ok {
			b.Append(x)
		}
	case *array.Int32Builder:
		var x int32
		if x, ok = v.(int32); ok {
			b.Append(x)
		}
	case *array.Int64Builder:
		var x int64
		if x, ok = v.(int64); ok {
			b.Append(x)
		}
	case *array.Float32Builder:
		var x float32
		if x, ok = v.(float32); ok {
			b.Append(x)
		}
	case *array.Float64Builder:
		var x float64
		if x, ok = v.(float64); ok {
			b.Append(x)
		}
	case *array.BinaryBuilder:
		var x []byte
		if x, ok = v.([]byte); ok {
			b.Append(x)
		}
	case *array.TimestampBuilder:
		var x time.Time
		if x, ok = v.(time.Time); ok {
			b.Append(arrow.Timestamp(x.UnixMicro()))
		}
	case *array.ListBuilder:
		return appendList(b, v)
	}
	if !ok {
		return fmt.Errorf("value %v (%T) does not fit %s", v, v, b.Type())
	}
	return nil
}

// appendList appends a one-dimensional array value.
func appendList(b *array.ListBuilder, v any) error {
	var elems []any
	switch x := v.(type) {
	case []string:
		elems = make([]any, len(x))
		for i := range x {
			elems[i] = x[i]
		}
	case []uint32:
		elems = make([]any, len(x))
		for i := range x {
			elems[i] = x[i]
		}
	case []int16:
		elems = make([]any, len(x))
		for i := range x {
			elems[i] = x[i]
		}
	case []int32:
		elems = make([]any, len(x))
		for i := range x {
			elems[i] = x[i]
		}
	case []int64:
		elems = make([]any, len(x))
		for i := range x {
			elems[i] = x[i]
		}
	default:
		return fmt.Errorf("value %v (%T) does not fit %s", v, v, b.Type())
	}
	b.Append(true)
	for _, e := range elems {
		if err := appendValue(b.ValueBuilder(), e); err != nil {
			return err
		}
	}
	return nil
}

// OneBatch streams a single batch, which its first Next hands over (the
// caller releases it) and Close releases when it was never taken.
type OneBatch struct {
	Batch arrow.RecordBatch
}

func (o *OneBatch) Next() (arrow.RecordBatch, error) {
	if o.Batch == nil {
		return nil, io.EOF
	}
	b := o.Batch
	o.Batch = nil
	return b, nil
}

func (o *OneBatch) Close() error {
	if o.Batch != nil {
		o.Batch.Release()
		o.Batch = nil
	}
	return nil
}

func wrapScanError(r *relation, err error) error {
	return fmt.Errorf("compute %s.%s: %w", r.schema, r.name, err)
}
