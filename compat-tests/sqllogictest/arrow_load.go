package sqllogictest

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// Schema is the table's Arrow schema, as SQE's type mapping gives it.
func (p *TablePlan) Schema() *arrow.Schema {
	fields := make([]arrow.Field, len(p.Columns))
	for i, c := range p.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.Arrow(), Nullable: !c.NotNull}
	}
	return arrow.NewSchema(fields, nil)
}

// Batch builds the table's rows as one Arrow batch, each text value read
// by SQE's own input function for the column's type.
func (p *TablePlan) Batch(mem memory.Allocator) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(mem, p.Schema())
	defer b.Release()
	for r, row := range p.Rows {
		for i, col := range p.Columns {
			if err := appendText(b.Field(i), col.Type, row[i]); err != nil {
				return nil, fmt.Errorf("table %s row %d column %s: %w", p.Name, r+1, col.Name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

func appendText(b array.Builder, t types.T, v *string) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	val, err := types.ParseText(*v, t)
	if err != nil {
		return err
	}
	ok := true
	switch bb := b.(type) {
	case *array.BooleanBuilder:
		x, isBool := val.(bool)
		ok = isBool
		bb.Append(x)
	case *array.Int16Builder:
		x, isInt := val.(int64)
		ok = isInt
		bb.Append(int16(x))
	case *array.Int32Builder:
		x, isInt := val.(int64)
		ok = isInt
		bb.Append(int32(x))
	case *array.Int64Builder:
		x, isInt := val.(int64)
		ok = isInt
		bb.Append(x)
	case *array.Float32Builder:
		x, isFloat := val.(float64)
		ok = isFloat
		bb.Append(float32(x))
	case *array.Float64Builder:
		x, isFloat := val.(float64)
		ok = isFloat
		bb.Append(x)
	case *array.StringBuilder:
		x, isString := val.(string)
		ok = isString
		bb.Append(x)
	case *array.Date32Builder:
		x, isDate := val.(int32)
		ok = isDate
		bb.Append(arrow.Date32(x))
	case *array.Time64Builder:
		x, isTime := val.(int64)
		ok = isTime
		bb.Append(arrow.Time64(x))
	case *array.TimestampBuilder:
		x, isTS := val.(int64)
		ok = isTS
		bb.Append(arrow.Timestamp(x))
	case *array.Decimal128Builder:
		x, isDec := val.(decimal128.Num)
		ok = isDec
		bb.Append(x)
	case *array.Decimal64Builder:
		// The input function checked the value against the precision
		// (18 or less), so it fits.
		x, isDec := val.(decimal128.Num)
		ok = isDec
		bb.Append(decimal.Decimal64(x.LowBits()))
	default:
		return fmt.Errorf("no Arrow builder for %s", t.Name())
	}
	if !ok {
		return fmt.Errorf("%s input gave %T", t.Name(), val)
	}
	return nil
}

// Apply creates every namespace the plan names and writes its tables
// through cat. ctx must carry a principal cat lets create and write
// tables. The data directory must not be served while this runs, so the
// server sees the tables from its first query.
func (p *ShimPlan) Apply(ctx context.Context, cat storage.Catalog) error {
	for _, ns := range p.Namespaces {
		if err := cat.CreateNamespace(ctx, ns); err != nil && !errors.Is(err, storage.ErrAlreadyExists) {
			return fmt.Errorf("create namespace %s: %w", ns, err)
		}
	}
	mem := memory.NewGoAllocator()
	for _, t := range p.Tables {
		if err := writeTable(ctx, cat, t, mem); err != nil {
			return fmt.Errorf("load table %s.%s: %w", t.Namespace, t.Name, err)
		}
	}
	return nil
}

func writeTable(ctx context.Context, cat storage.Catalog, t *TablePlan, mem memory.Allocator) error {
	tbl, err := cat.CreateTable(ctx, t.Namespace, t.Name, t.Schema(), storage.CreateTableOptions{})
	if err != nil {
		return err
	}
	if len(t.Rows) == 0 {
		return nil
	}
	rec, err := t.Batch(mem)
	if err != nil {
		return err
	}
	defer rec.Release()
	rdr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
	if err != nil {
		return err
	}
	defer rdr.Release()
	_, err = tbl.Append(ctx, rdr)
	return err
}
