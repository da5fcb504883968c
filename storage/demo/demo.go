package demo

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqe-db/sqe/storage"
)

// Namespace is the demo's namespace (Postgres schema).
const Namespace = "acdemo"

// Load creates the demo tables in cat unless they already hold data:
// acdemo.orders with its three rows and acdemo.sales with salesRows
// generated rows. ctx must carry a principal allowed to create them.
func Load(ctx context.Context, cat storage.Catalog, salesRows int) error {
	if salesRows < 0 {
		return fmt.Errorf("load demo: negative sales row count %d", salesRows)
	}
	if err := ensureNamespace(ctx, cat, Namespace); err != nil {
		return err
	}
	if err := fill(ctx, cat, "orders", ordersSchema, func(t *storage.Table) error {
		rdr, err := ordersReader()
		if err != nil {
			return err
		}
		defer rdr.Release()
		_, err = t.Append(ctx, rdr)
		return err
	}); err != nil {
		return err
	}
	return fill(ctx, cat, "sales", salesSchema, func(t *storage.Table) error {
		return appendSales(ctx, t, salesRows)
	})
}

func ensureNamespace(ctx context.Context, cat storage.Catalog, ns string) error {
	ok, err := cat.NamespaceExists(ctx, ns)
	if err != nil {
		return fmt.Errorf("load demo: %w", err)
	}
	if ok {
		return nil
	}
	// Another server may create it between the check and here.
	if err := cat.CreateNamespace(ctx, ns); err != nil && !errors.Is(err, storage.ErrAlreadyExists) {
		return fmt.Errorf("load demo: %w", err)
	}
	return nil
}

// fill creates table name if needed and calls write when it has no data.
func fill(ctx context.Context, cat storage.Catalog, name string, schema *arrow.Schema, write func(*storage.Table) error) error {
	t, err := cat.LoadTable(ctx, Namespace, name)
	if errors.Is(err, storage.ErrForbidden) {
		// The table exists (a load is authorized only once the table is
		// found) and a deny keeps the loader, an administrator, from it:
		// it was loaded before, and stays as it is.
		return nil
	}
	if errors.Is(err, storage.ErrNoSuchTable) {
		t, err = cat.CreateTable(ctx, Namespace, name, schema, storage.CreateTableOptions{})
		if errors.Is(err, storage.ErrAlreadyExists) {
			t, err = cat.LoadTable(ctx, Namespace, name)
		}
	}
	if err != nil {
		return fmt.Errorf("load demo table %s.%s: %w", Namespace, name, err)
	}
	if t.SnapshotID() != 0 && t.RowCountEstimate() != 0 {
		return nil
	}
	if err := write(t); err != nil {
		return fmt.Errorf("load demo table %s.%s: %w", Namespace, name, err)
	}
	return nil
}
