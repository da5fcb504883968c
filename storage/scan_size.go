package storage

import (
	"context"
	"fmt"

	"github.com/apache/iceberg-go"
)

// Shared reports whether the table is what another engine reading the
// same catalog reads under its name: the current snapshot of its main
// branch, with no change staged by a transaction block. A past version,
// a branch's head or a block's own view is SQE's alone.
func (t *Table) Shared() bool {
	return !t.past && t.branch == "" && len(t.staged) == 0 && len(t.hidden) == 0
}

// ScanBytes is the size of the data files a scan pruned by filter (nil:
// none) reads, from the manifests: what sqe.execution = 'auto' weighs.
func (t *Table) ScanBytes(ctx context.Context, filter iceberg.BooleanExpression) (int64, error) {
	tasks, err := t.planInCommitOrder(ctx, filter, 0)
	if err != nil {
		return 0, fmt.Errorf("size the scan of %s: %w", t.ident, err)
	}
	var n int64
	for _, task := range t.visible(tasks) {
		n += task.File.FileSizeBytes()
	}
	for _, f := range t.staged {
		n += f.FileSizeBytes()
	}
	return n, nil
}
