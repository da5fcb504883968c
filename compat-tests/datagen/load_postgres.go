package datagen

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgBatchRows is the size of the batches copied into PostgreSQL.
const pgBatchRows = 65_536

// LoadPostgres creates the eight tables in schema (creating the schema if
// needed), fills each with COPY, adds the primary keys the specification
// allows, and runs VACUUM ANALYZE so the planner knows the data. A table
// that already exists makes it fail.
func LoadPostgres(ctx context.Context, conn *pgx.Conn, schema string, sf float64) error {
	if _, err := conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{schema}.Sanitize()); err != nil {
		return fmt.Errorf("create schema %s: %w", schema, err)
	}
	for _, t := range Tables() {
		if err := loadPostgresTable(ctx, conn, schema, t, sf); err != nil {
			return fmt.Errorf("load table %s.%s: %w", schema, t.Name, err)
		}
	}
	return nil
}

func loadPostgresTable(ctx context.Context, conn *pgx.Conn, schema string, t Table, sf float64) error {
	c, err := openCursor(t.Name, sf, pgBatchRows)
	if err != nil {
		return err
	}
	defer c.release()
	if _, err := conn.Exec(ctx, t.CreateStatement(schema)); err != nil {
		return err
	}
	src := &copySource{c: c}
	defer src.release()
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{schema, t.Name}, columnNames(t.Schema), src); err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	ident := pgx.Identifier{schema, t.Name}.Sanitize()
	keys := strings.Join(t.primaryKey, ", ")
	if _, err := conn.Exec(ctx, "ALTER TABLE "+ident+" ADD PRIMARY KEY ("+keys+")"); err != nil {
		return fmt.Errorf("add primary key: %w", err)
	}
	if _, err := conn.Exec(ctx, "VACUUM ANALYZE "+ident); err != nil {
		return fmt.Errorf("vacuum analyze: %w", err)
	}
	return nil
}

func columnNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}

// copySource feeds a cursor's batches to pgx's COPY row by row, turning
// Arrow values into the Go values pgx encodes.
type copySource struct {
	c      *cursor
	rec    arrow.RecordBatch
	row    int
	values []any
}

func (s *copySource) Next() bool {
	s.row++
	for s.rec == nil || s.row >= int(s.rec.NumRows()) {
		s.release()
		if s.rec = s.c.batch(); s.rec == nil {
			return false
		}
		s.row = 0
	}
	return true
}

func (s *copySource) Values() ([]any, error) {
	if cap(s.values) < int(s.rec.NumCols()) {
		s.values = make([]any, s.rec.NumCols())
	}
	vals := s.values[:s.rec.NumCols()]
	for i, col := range s.rec.Columns() {
		v, err := goValue(col, s.row)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", s.rec.ColumnName(i), err)
		}
		vals[i] = v
	}
	return vals, nil
}

func (s *copySource) Err() error { return nil }

func (s *copySource) release() {
	if s.rec != nil {
		s.rec.Release()
		s.rec = nil
	}
}

// goValue is the value at row i of col as pgx encodes it for COPY.
func goValue(col arrow.Array, i int) (any, error) {
	switch a := col.(type) {
	case *array.Int64:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return pgtype.Numeric{Int: a.Value(i).BigInt(), Exp: -scale, Valid: true}, nil
	case *array.Date32:
		return pgtype.Date{Time: a.Value(i).ToTime(), Valid: true}, nil
	}
	return nil, fmt.Errorf("no PostgreSQL value for Arrow type %s", col.DataType())
}
