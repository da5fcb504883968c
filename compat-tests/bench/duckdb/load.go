package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/sqe-db/sqe/compat-tests/datagen"
)

// loadBatchRows is the size of the generated batches appended to DuckDB.
const loadBatchRows = 65_536

// buildDatabase writes every TPC-H table at sf into a new database at path.
// It builds under a temporary name and renames when done, so a database
// file at path is always complete.
func buildDatabase(ctx context.Context, path string, sf float64) (err error) {
	tmp := path + ".building"
	for _, p := range []string{tmp, tmp + ".wal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	connector, err := duckdb.NewConnector(tmp, nil)
	if err != nil {
		return fmt.Errorf("create %s: %w", tmp, err)
	}
	db := sql.OpenDB(connector)
	closed := false
	defer func() {
		if !closed {
			_ = db.Close()
			_ = os.Remove(tmp)
		}
	}()
	for _, t := range datagen.Tables() {
		fmt.Fprintf(os.Stderr, "duckdb: loading %s\n", t.Name)
		if err := loadTable(ctx, db, t, sf); err != nil {
			return fmt.Errorf("load table %s: %w", t.Name, err)
		}
	}
	if _, err := db.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	closed = true
	if err := db.Close(); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("close %s: %w", tmp, err)
	}
	return os.Rename(tmp, path)
}

// loadTable creates one table and appends its generated rows.
func loadTable(ctx context.Context, db *sql.DB, t datagen.Table, sf float64) error {
	if _, err := db.ExecContext(ctx, t.PostgresDDL); err != nil {
		return err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		app, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", t.Name)
		if err != nil {
			return err
		}
		err = datagen.Generate(ctx, t.Name, sf, loadBatchRows, func(rec arrow.RecordBatch) error {
			return appendBatch(app, rec)
		})
		if cerr := app.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// appendBatch appends a batch row by row.
func appendBatch(app *duckdb.Appender, rec arrow.RecordBatch) error {
	row := make([]driver.Value, rec.NumCols())
	for i := range int(rec.NumRows()) {
		for j, col := range rec.Columns() {
			v, err := duckValue(col, i)
			if err != nil {
				return fmt.Errorf("column %s: %w", rec.ColumnName(j), err)
			}
			row[j] = v
		}
		if err := app.AppendRow(row...); err != nil {
			return err
		}
	}
	return nil
}

// duckValue is the value at row i of col as the appender takes it.
func duckValue(col arrow.Array, i int) (driver.Value, error) {
	switch a := col.(type) {
	case *array.Int64:
		return a.Value(i), nil
	case *array.Int32:
		return a.Value(i), nil
	case *array.String:
		return a.Value(i), nil
	case *array.Decimal128:
		t := a.DataType().(*arrow.Decimal128Type)
		return duckdb.Decimal{Width: uint8(t.Precision), Scale: uint8(t.Scale), Value: a.Value(i).BigInt()}, nil
	case *array.Date32:
		return a.Value(i).ToTime(), nil
	}
	return nil, fmt.Errorf("no DuckDB value for Arrow type %s", col.DataType())
}
