package main

import (
	"context"
	"fmt"

	"github.com/sqe-db/sqe/storage"
	"github.com/sqe-db/sqe/storage/demo"
)

// prepareLargeDir writes the demo tables into dataDir with salesRows rows
// in acdemo.sales, through the storage API as `sqe serve --demo` does,
// but at a size the server's flag does not offer. The server creates the
// rest of the directory (issuer key, governance store, certificate) when
// it first starts.
func prepareLargeDir(ctx context.Context, dataDir string, salesRows int) (err error) {
	cat, err := storage.OpenEmbedded(ctx, sqeDatabase, dataDir, storage.AllowAll{})
	if err != nil {
		return fmt.Errorf("prepare %d-row data dir: %w", salesRows, err)
	}
	defer func() {
		if cerr := cat.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("prepare %d-row data dir: close catalog: %w", salesRows, cerr)
		}
	}()
	loader := storage.WithPrincipal(ctx, storage.Principal{User: benchUser})
	if err := demo.Load(loader, cat, salesRows); err != nil {
		return fmt.Errorf("prepare %d-row data dir: %w", salesRows, err)
	}
	return nil
}
