package compattests

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"

	"github.com/sqe-db/sqe/storage"
)

// loadAllTypesSQE creates types.all_types in the SQE catalog and appends
// its rows as one Arrow batch.
func loadAllTypesSQE(ctx context.Context, cat storage.Catalog) error {
	schema := allTypesArrowSchema()
	rec, err := allTypesBatch(schema)
	if err != nil {
		return fmt.Errorf("build %s.%s: %w", allTypesSchema, allTypesTable, err)
	}
	defer rec.Release()
	if err := cat.CreateNamespace(ctx, allTypesSchema); err != nil {
		return fmt.Errorf("create namespace %s: %w", allTypesSchema, err)
	}
	tbl, err := cat.CreateTable(ctx, allTypesSchema, allTypesTable, schema, storage.CreateTableOptions{ColumnProperties: allTypesDeclaredTypes()})
	if err != nil {
		return fmt.Errorf("create table %s.%s: %w", allTypesSchema, allTypesTable, err)
	}
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		return fmt.Errorf("load table %s.%s: %w", allTypesSchema, allTypesTable, err)
	}
	defer rdr.Release()
	if _, err := tbl.Append(ctx, rdr); err != nil {
		return fmt.Errorf("load table %s.%s: %w", allTypesSchema, allTypesTable, err)
	}
	return nil
}

// allTypesDeclaredTypes records the declared types Iceberg cannot hold
// (smallint, varchar(n)) as table properties, so SQE presents those
// columns as PostgreSQL does.
func allTypesDeclaredTypes() map[string]map[string]string {
	props := map[string]map[string]string{}
	for _, c := range allTypesColumns {
		switch {
		case c.kind == kindInt2:
			props[c.name] = map[string]string{storage.DeclaredTypeKey: "smallint"}
		case strings.HasPrefix(c.pgType, "varchar("):
			props[c.name] = map[string]string{storage.DeclaredTypeKey: "character varying" + strings.TrimPrefix(c.pgType, "varchar")}
		}
	}
	return props
}

// loadAllTypesPostgres creates and fills types.all_types in PostgreSQL.
func loadAllTypesPostgres(ctx context.Context, conn *pgx.Conn) error {
	for _, stmt := range []string{"CREATE SCHEMA " + allTypesSchema, allTypesDDL(), allTypesInsert(),
		"ANALYZE " + allTypesSchema + "." + allTypesTable} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			return fmt.Errorf("load table %s.%s: %w", allTypesSchema, allTypesTable, err)
		}
	}
	return nil
}

// allTypesArrowSchema is the table's Arrow schema; id alone is NOT NULL.
func allTypesArrowSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(allTypesColumns))
	for i, c := range allTypesColumns {
		fields[i] = arrow.Field{Name: c.name, Type: arrowTypeOf(c.kind), Nullable: !strings.HasSuffix(c.pgType, "NOT NULL")}
	}
	return arrow.NewSchema(fields, nil)
}

func arrowTypeOf(k typeKind) arrow.DataType {
	switch k {
	case kindBool:
		return arrow.FixedWidthTypes.Boolean
	case kindInt2:
		return arrow.PrimitiveTypes.Int16
	case kindInt4:
		return arrow.PrimitiveTypes.Int32
	case kindInt8:
		return arrow.PrimitiveTypes.Int64
	case kindFloat4:
		return arrow.PrimitiveTypes.Float32
	case kindFloat8:
		return arrow.PrimitiveTypes.Float64
	case kindNumeric:
		return &arrow.Decimal128Type{Precision: allTypesNumericPrecision, Scale: allTypesNumericScale}
	case kindDate:
		return arrow.FixedWidthTypes.Date32
	case kindTimestamp:
		return &arrow.TimestampType{Unit: arrow.Microsecond}
	case kindTimestampTZ:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	case kindUUID:
		return &arrow.FixedSizeBinaryType{ByteWidth: 16}
	case kindBytea:
		return arrow.BinaryTypes.Binary
	}
	return arrow.BinaryTypes.String
}

// allTypesBatch parses every literal into its column's Arrow builder.
func allTypesBatch(schema *arrow.Schema) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for r, row := range allTypesLiterals() {
		for c, v := range row {
			if v == nil {
				b.Field(c).AppendNull()
				continue
			}
			if err := appendLiteral(b.Field(c), allTypesColumns[c].kind, *v); err != nil {
				return nil, fmt.Errorf("row %d column %s: %w", r+1, allTypesColumns[c].name, err)
			}
		}
	}
	return b.NewRecordBatch(), nil
}

// appendLiteral parses s as PostgreSQL's input function for kind would
// (for the forms allTypesLiterals uses) and appends it.
func appendLiteral(fb array.Builder, kind typeKind, s string) error {
	switch kind {
	case kindBool:
		v, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		fb.(*array.BooleanBuilder).Append(v)
	case kindInt2, kindInt4, kindInt8:
		bits := map[typeKind]int{kindInt2: 16, kindInt4: 32, kindInt8: 64}[kind]
		v, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return err
		}
		switch b := fb.(type) {
		case *array.Int16Builder:
			b.Append(int16(v))
		case *array.Int32Builder:
			b.Append(int32(v))
		case *array.Int64Builder:
			b.Append(v)
		}
	case kindFloat4:
		v, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return err
		}
		fb.(*array.Float32Builder).Append(float32(v))
	case kindFloat8:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		fb.(*array.Float64Builder).Append(v)
	case kindNumeric:
		v, err := decimal128.FromString(s, allTypesNumericPrecision, allTypesNumericScale)
		if err != nil {
			return err
		}
		fb.(*array.Decimal128Builder).Append(v)
	case kindText:
		fb.(*array.StringBuilder).Append(s)
	case kindDate:
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return err
		}
		fb.(*array.Date32Builder).Append(arrow.Date32FromTime(t))
	case kindTimestamp, kindTimestampTZ:
		t, err := time.Parse("2006-01-02 15:04:05.999999", strings.TrimSuffix(s, "+00"))
		if err != nil {
			return err
		}
		fb.(*array.TimestampBuilder).Append(arrow.Timestamp(t.UnixMicro()))
	case kindUUID:
		raw, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
		if err != nil || len(raw) != 16 {
			return fmt.Errorf("uuid %q: %v", s, err)
		}
		fb.(*array.FixedSizeBinaryBuilder).Append(raw)
	case kindBytea:
		raw, err := hex.DecodeString(strings.TrimPrefix(s, `\x`))
		if err != nil {
			return err
		}
		fb.(*array.BinaryBuilder).Append(raw)
	default:
		return fmt.Errorf("no Arrow form for kind %d", kind)
	}
	return nil
}
