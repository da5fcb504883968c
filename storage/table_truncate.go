package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Truncate removes every row in one Iceberg delete commit (one snapshot)
// and returns the table as of it. Whole data files are dropped from the
// table, never rewritten, so no delete files arise. A table without a
// snapshot, or whose current snapshot holds no rows, is left as it is.
func (t *Table) Truncate(ctx context.Context) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if err := t.refuseBranchTruncate(); err != nil {
		return nil, err
	}
	return t.commitStaged(ctx, "truncate", func(base *table.Table, current *Table) (*table.Transaction, error) {
		if base.CurrentSnapshot() == nil || current.RowCountEstimate() == 0 {
			return nil, nil
		}
		tx := base.NewTransaction()
		if err := tx.Delete(ctx, iceberg.AlwaysTrue{}, nil); err != nil {
			return nil, fmt.Errorf("truncate %s: %w", t.ident, err)
		}
		return tx, nil
	})
}
