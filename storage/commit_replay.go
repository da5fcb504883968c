package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/iceberg-go/table"
)

// iceberg-go replays a commit that lost a race (table.ErrCommitFailed) on
// the table's newest metadata by itself: right for an append, whose files
// belong in the table whatever else was committed, and wrong for a
// copy-on-write rewrite, whose new files were computed from data files
// another writer may have replaced meanwhile; replaying it could bring
// back rows the other writer changed. A rewrite commits with noReplay in
// its context, and the embedded catalog then reports a lost race as
// errMovedUnderRewrite, which iceberg-go does not retry and SQE turns into
// a re-run of the whole statement or SQLSTATE 40001.

type noReplayKey struct{}

var errMovedUnderRewrite = errors.New("table moved on under a rewrite")

func withNoReplay(ctx context.Context) context.Context {
	return context.WithValue(ctx, noReplayKey{}, true)
}

func noReplayFrom(ctx context.Context) bool {
	v, _ := ctx.Value(noReplayKey{}).(bool)
	return v
}

// replayGuard commits through another catalog's CommitTable and keeps a
// rewrite's lost race from being replayed by iceberg-go.
type replayGuard struct{ inner table.CatalogIO }

func (g replayGuard) LoadTable(ctx context.Context, ident table.Identifier) (*table.Table, error) {
	tbl, err := g.inner.LoadTable(ctx, ident)
	if err != nil {
		return nil, err
	}
	return guardReplay(tbl, g.inner), nil
}

func (g replayGuard) CommitTable(ctx context.Context, ident table.Identifier, reqs []table.Requirement, updates []table.Update) (table.Metadata, string, error) {
	meta, loc, err := g.inner.CommitTable(ctx, ident, reqs, updates)
	if err != nil && noReplayFrom(ctx) && errors.Is(err, table.ErrCommitFailed) {
		return nil, "", fmt.Errorf("%w: %s", errMovedUnderRewrite, err.Error())
	}
	return meta, loc, err
}

// guardReplay rebinds tbl, loaded from cat, to commit through a
// replayGuard.
func guardReplay(tbl *table.Table, cat table.CatalogIO) *table.Table {
	return table.New(tbl.Identifier(), tbl.Metadata(), tbl.MetadataLocation(), tbl.FS, replayGuard{inner: cat})
}
