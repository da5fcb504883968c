package storage

import (
	"context"
	"sync"

	"github.com/apache/iceberg-go/table"
)

// commitGroup gathers the commits of several tables of one embedded
// catalog so that they become visible together: while a context carries
// the group, CommitTable writes each table's new metadata file but leaves
// the catalog's pointer alone, and the group then moves every pointer in
// one SQLite transaction (embeddedCatalog.swapPointers).
type commitGroup struct {
	mu    sync.Mutex
	swaps []pointerSwap
	metas []table.Metadata
}

type commitGroupKey struct{}

func withCommitGroup(ctx context.Context, g *commitGroup) context.Context {
	return context.WithValue(ctx, commitGroupKey{}, g)
}

func commitGroupFrom(ctx context.Context) *commitGroup {
	g, _ := ctx.Value(commitGroupKey{}).(*commitGroup)
	return g
}

func (g *commitGroup) add(s pointerSwap, meta table.Metadata) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.swaps = append(g.swaps, s)
	g.metas = append(g.metas, meta)
}
