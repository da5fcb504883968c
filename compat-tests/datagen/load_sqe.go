package datagen

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqe-db/sqe/storage"
)

const (
	// sqeBatchRows is the size of the batches appended to SQE.
	sqeBatchRows = 65_536
	// sqeRowsPerCommit splits a large table into several commits, hence
	// several data files that a scan can read in parallel.
	sqeRowsPerCommit = 500_000
)

// LoadSQE creates the eight tables in namespace (creating the namespace
// if needed) and fills them with the rows of scale factor sf. ctx must
// carry a principal the catalog lets create and write tables. A table that
// already exists makes it fail: loading twice would double the rows.
func LoadSQE(ctx context.Context, cat storage.Catalog, namespace string, sf float64) error {
	if err := ensureNamespace(ctx, cat, namespace); err != nil {
		return err
	}
	for _, t := range Tables() {
		if err := loadSQETable(ctx, cat, namespace, t, sf); err != nil {
			return fmt.Errorf("load table %s.%s: %w", namespace, t.Name, err)
		}
	}
	return nil
}

// AnalyzeSQE collects the statistics of the eight tables in namespace
// (ANALYZE), as the PostgreSQL load's VACUUM ANALYZE does for its planner.
func AnalyzeSQE(ctx context.Context, cat storage.Catalog, namespace string) error {
	for _, t := range Tables() {
		tbl, err := cat.LoadTable(ctx, namespace, t.Name)
		if err != nil {
			return fmt.Errorf("analyze %s.%s: %w", namespace, t.Name, err)
		}
		if _, err := tbl.Analyze(ctx, nil); err != nil {
			return fmt.Errorf("analyze %s.%s: %w", namespace, t.Name, err)
		}
	}
	return nil
}

func ensureNamespace(ctx context.Context, cat storage.Catalog, ns string) error {
	ok, err := cat.NamespaceExists(ctx, ns)
	if err != nil {
		return fmt.Errorf("load namespace %s: %w", ns, err)
	}
	if ok {
		return nil
	}
	if err := cat.CreateNamespace(ctx, ns); err != nil && !errors.Is(err, storage.ErrAlreadyExists) {
		return fmt.Errorf("create namespace %s: %w", ns, err)
	}
	return nil
}

// loadSQETable creates one table and appends its rows, one commit per
// sqeRowsPerCommit rows, generating each batch only when the writer asks.
func loadSQETable(ctx context.Context, cat storage.Catalog, ns string, t Table, sf float64) error {
	c, err := openCursor(t.Name, sf, sqeBatchRows)
	if err != nil {
		return err
	}
	defer c.release()
	tbl, err := cat.CreateTable(ctx, ns, t.Name, t.Schema, storage.CreateTableOptions{})
	if err != nil {
		return err
	}
	for done := false; !done; {
		rows := 0
		rdr := array.ReaderFromIter(t.Schema, func(yield func(arrow.RecordBatch, error) bool) {
			for rows < sqeRowsPerCommit {
				if err := ctx.Err(); err != nil {
					yield(nil, err)
					return
				}
				rec := c.batch()
				if rec == nil {
					done = true
					return
				}
				rows += int(rec.NumRows())
				if !yield(rec, nil) {
					return
				}
			}
		})
		next, err := tbl.Append(ctx, rdr)
		rdr.Release()
		if err != nil {
			return err
		}
		tbl = next
	}
	return nil
}
