package storage

import (
	"errors"
	"fmt"

	"context"
	"github.com/apache/iceberg-go"
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

// groupCommitter is a catalog that can commit several tables atomically.
type groupCommitter interface {
	commitTogether(ctx context.Context, parts []stagedPart) error
}

// stagedPart is one table's share of a multi-table commit: the files
// staged for it and the table they were written for.
type stagedPart struct {
	ident     Ident
	tableUUID string
	files     []iceberg.DataFile
}

// CommitsWith reports whether writes staged for t and for other can be
// committed as one atomic change by CommitStagedTables: always for the
// same table, and for two tables of a catalog that commits several
// tables in one transaction (the embedded catalog).
func (t *Table) CommitsWith(other *Table) bool {
	if t.ident == other.ident {
		return true
	}
	if t.host != other.host {
		return false
	}
	_, ok := t.host.(groupCommitter)
	return ok
}

// CommitStagedTables commits writes, staged for one or more tables that
// CommitsWith one another, as one atomic change: every table gets one new
// snapshot and all become visible together, or none does. Losing a race
// with another writer replays the whole change on the reloaded tables (up
// to the catalog's retry count, then SQLSTATE 40001). On failure the
// caller still owns the writes and should Discard them.
func CommitStagedTables(ctx context.Context, writes []*StagedWrite) error {
	if len(writes) == 0 {
		return nil
	}
	var parts []stagedPart
	index := map[Ident]int{}
	for _, w := range writes {
		if w.host != writes[0].host {
			return fmt.Errorf("commit: writes to %s and %s are in different catalogs", writes[0].ident, w.ident)
		}
		i, ok := index[w.ident]
		if !ok {
			i = len(parts)
			index[w.ident] = i
			parts = append(parts, stagedPart{ident: w.ident, tableUUID: w.tableUUID})
		}
		if parts[i].tableUUID != w.tableUUID {
			return errors.Join(ErrNoSuchTable,
				fmt.Errorf("commit to %s: the table was dropped and re-created since the write", w.ident))
		}
		parts[i].files = append(parts[i].files, w.files...)
	}
	if len(parts) == 1 {
		t := &Table{host: writes[0].host, ident: parts[0].ident}
		_, err := t.CommitStaged(ctx, writes)
		return err
	}
	gc, ok := writes[0].host.(groupCommitter)
	if !ok {
		return fmt.Errorf("commit: the catalog of %s cannot commit several tables at once", parts[0].ident)
	}
	if err := gc.commitTogether(ctx, parts); err != nil {
		return err
	}
	for _, w := range writes {
		w.files = nil // the tables own them now
	}
	return nil
}
