package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Group commit of appends.
//
// An append writes its data files without the table's commit lock (no
// other writer sees them until a snapshot lists them) and then queues
// them on the table's line. The first append to find the line idle leads:
// it takes the commit lock, takes every append queued by then, commits
// all their files as one snapshot, and acknowledges each append once that
// snapshot is durable (the commit flushes the files, the manifests, the
// metadata file and the catalog before it returns). Appends that arrive
// while that commit is in flight queue behind it; when it ends, the
// first of them leads the next group. A commit thus takes as many
// appends as arrived during the one before it, and a lone append is
// committed at once, without waiting for company.
//
// What can fail one statement (a constraint, a policy, bad input, a
// cancel before its group is taken) fails before or instead of joining a
// group, so it never fails its neighbours; what fails a group's commit
// (a lost race after every retry, an I/O error) fails every statement in
// it, none of which was acknowledged. A statement cancelled while its
// group is committing learns the group's outcome: its rows may already be
// durable.
//
// With a REST catalog each commit carries its caller's token, so only
// one caller's appends are grouped: the line's key includes the token.

// appendGroups are one catalog's lines of queued appends, by key.
type appendGroups struct {
	mu    sync.Mutex
	lines map[string]*appendLine
}

func newAppendGroups() *appendGroups {
	return &appendGroups{lines: make(map[string]*appendLine)}
}

// appendLine is one table's (and, on a REST catalog, one caller's) queue.
// leading is set while some append leads a group; queued are the appends
// no leader has taken yet, in arrival order.
type appendLine struct {
	leading bool
	queued  []*queuedAppend
}

// queuedAppend is one statement's written files waiting for a commit.
type queuedAppend struct {
	// base is the metadata the files were written against.
	base  *table.Table
	files []iceberg.DataFile
	// lead is closed when the append is to lead the next group; chosen
	// says so under appendGroups.mu. taken is set when a leader took
	// the append into its group: from then on only done ends the wait.
	lead   chan struct{}
	chosen bool
	taken  bool
	// done is closed once committed or err is set.
	done      chan struct{}
	committed *table.Table
	err       error
}

// appendGrouped queues files, written against base, on the table's line and
// waits until a group holding them is committed (or fails). It returns the
// table as of that group's snapshot.
func (t *Table) appendGrouped(ctx context.Context, base *table.Table, files []iceberg.DataFile) (*table.Table, error) {
	groups, key := t.host.appendQueue(ctx, t.ident)
	a := &queuedAppend{base: base, files: files, lead: make(chan struct{}), done: make(chan struct{})}

	groups.mu.Lock()
	line := groups.lines[key]
	if line == nil {
		line = &appendLine{}
		groups.lines[key] = line
	}
	line.queued = append(line.queued, a)
	leads := !line.leading
	if leads {
		line.leading, a.chosen = true, true
	}
	groups.mu.Unlock()

	if !leads {
		select {
		case <-a.done:
			return a.committed, a.err
		case <-a.lead:
		case <-ctx.Done():
			if groups.withdraw(line, a) {
				removeFiles(ctx, base, files)
				return nil, fmt.Errorf("append to %s: %w", t.ident, ctx.Err())
			}
			// Taken into a group or chosen to lead one: the outcome is
			// the group's.
			select {
			case <-a.done:
				return a.committed, a.err
			case <-a.lead:
			}
		}
	}
	t.leadGroup(context.WithoutCancel(ctx), groups, key, line)
	<-a.done
	return a.committed, a.err
}

// withdraw takes a out of line's queue if no leader has taken it and it
// was not chosen to lead; it reports whether it did.
func (g *appendGroups) withdraw(line *appendLine, a *queuedAppend) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if a.taken || a.chosen {
		return false
	}
	line.queued = slices.DeleteFunc(line.queued, func(q *queuedAppend) bool { return q == a })
	return true
}

// leadGroup commits one group: every append queued on line when the
// commit lock is taken. It then hands the lead to the first append queued
// since, or leaves the line idle. ctx does not end with the leader's
// statement: the group's other statements depend on the commit.
func (t *Table) leadGroup(ctx context.Context, groups *appendGroups, key string, line *appendLine) {
	unlock, lockErr := t.host.lockTable(ctx, t.ident)
	groups.mu.Lock()
	group := line.queued
	line.queued = nil
	for _, a := range group {
		a.taken = true
	}
	groups.mu.Unlock()

	if lockErr != nil {
		finishGroup(group, nil, fmt.Errorf("append to %s: wait for commit lock: %w", t.ident, lockErr))
	} else {
		committed, err := t.commitGroup(ctx, group)
		unlock()
		finishGroup(group, committed, err)
	}

	groups.mu.Lock()
	defer groups.mu.Unlock()
	if len(line.queued) == 0 {
		line.leading = false
		delete(groups.lines, key)
		return
	}
	next := line.queued[0]
	next.chosen = true
	close(next.lead)
}

// commitGroup commits the files of every append in group whose files
// still fit the table as one snapshot, on the newest metadata. An append
// whose files no longer fit (the table was re-created, or its partition
// spec changed since they were written) gets its own error and its files
// are removed.
func (t *Table) commitGroup(ctx context.Context, group []*queuedAppend) (*table.Table, error) {
	fresh, err := t.host.reloadTable(ctx, t.ident)
	if err != nil {
		return nil, err
	}
	var files []iceberg.DataFile
	for _, a := range group {
		if err := filesFit(t.ident, a.base, fresh); err != nil {
			a.err = err
			removeFiles(ctx, a.base, a.files)
			continue
		}
		files = append(files, a.files...)
	}
	if len(files) == 0 {
		return fresh, nil
	}
	return t.commitFiles(ctx, fresh, files)
}

// filesFit reports whether files written against base may be added to
// fresh: the same table, partitioned by the same spec. A newer schema is
// fine, as for any older file: Iceberg reads columns by field id.
func filesFit(id Ident, base, fresh *table.Table) error {
	if base.Metadata().TableUUID() != fresh.Metadata().TableUUID() {
		return errors.Join(ErrNoSuchTable,
			fmt.Errorf("append to %s: the table was dropped and re-created during the write", id))
	}
	if base.Metadata().DefaultPartitionSpec() != fresh.Metadata().DefaultPartitionSpec() {
		return commitConflict(id, 1, errors.New("the table's partitioning changed during the write"))
	}
	return nil
}

// finishGroup acknowledges every append of group that has no error of
// its own with the group's outcome.
func finishGroup(group []*queuedAppend, committed *table.Table, err error) {
	for _, a := range group {
		if a.err == nil {
			a.committed, a.err = committed, err
		}
		close(a.done)
	}
}

func (c *embeddedCatalog) appendQueue(_ context.Context, id Ident) (*appendGroups, string) {
	return c.appends, id.Namespace + "\x00" + id.Table
}

// appendQueue keys a line by the caller's token too when each commit
// carries it: a group is committed with its leader's token.
func (c *restCatalog) appendQueue(ctx context.Context, id Ident) (*appendGroups, string) {
	key := id.Namespace + "\x00" + id.Table
	if p, ok := PrincipalFrom(ctx); ok && c.cfg.perUser() {
		key += "\x00" + p.Token
	}
	return c.appends, key
}
