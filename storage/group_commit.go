package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Group commit.
//
// Appends and copy-on-write rewrites (DELETE, UPDATE, MERGE outside a
// transaction block) write their data files without the table's commit
// lock and then queue their change on the table's line. The first change
// to find the line idle leads: it takes the commit lock, takes every
// change queued by then, commits their net effect as one snapshot, and
// acknowledges each once that snapshot is durable (the commit flushes the
// files, the manifests, the metadata file and the catalog before it
// returns). Changes that arrive while that commit is in flight queue
// behind it; when it ends, the first of them leads the next group. A
// commit thus takes as many changes as arrived during the one before it,
// and a lone change is committed at once, without waiting for company.
//
// Rewrites read what they change, so they take turns (the line's rewrite
// slot), and each reads the table as the changes ahead of it in the line
// leave it: the committed snapshot, the files queued or in-flight changes
// add, without the files they remove. A rewrite thus never waits for the
// durability of the one before it, only for its reading and writing; a
// one-row UPDATE of a file that the previous UPDATE rewrote reads that
// UPDATE's new file. The group's net change removes the committed files
// the chain replaced and adds the files it ends with; files added and
// replaced within the chain are removed once the group commits.
//
// What can fail one statement (a constraint, a policy, bad input, a
// cancel before its group is taken) fails before or instead of joining a
// group, so it never fails its neighbours. When a group's commit fails,
// every statement in it fails, none of which was acknowledged, and every
// rewrite queued behind it fails with a RerunConflict, since it read the
// group's changes: the SQL layer runs it again on the table as it is.
// Another process that replaces files a queued rewrite read fails that
// rewrite and every later one the same way. A statement cancelled while
// its group is committing learns the group's outcome: its rows may
// already be durable.
//
// With a REST catalog each commit carries its caller's token, so only
// one caller's changes are grouped: the line's key includes the token.

// commitLines are one catalog's lines of queued changes, by key.
type commitLines struct {
	mu    sync.Mutex
	lines map[string]*commitLine
	// observer, when set, learns of every table a group committed to
	// (automatic maintenance counts commits with it).
	observer atomic.Pointer[func(Ident)]
}

func newCommitLines() *commitLines {
	return &commitLines{lines: make(map[string]*commitLine)}
}

// commitLine is one table's (and, on a REST catalog, one caller's) queue.
// Its fields are guarded by commitLines.mu, except rewriteSlot.
type commitLine struct {
	// leading is set while some change leads a group; queued are the
	// changes no leader has taken yet, in arrival order, and inflight
	// the group being committed, on the metadata at inflightFrom.
	leading      bool
	queued       []*lineChange
	inflight     []*lineChange
	inflightFrom string
	// own are the snapshots the line's last groups committed (at most
	// ownSnapshots): a rewrite that read their changes as pending finds
	// them between the table it read and the one it commits on, and
	// they replaced nothing it did not see. failures counts the groups
	// that failed and the changes withdrawn, which rewrites that read
	// them must not outlive.
	own      []int64
	failures int
	// id and attempts are the table and the catalog's commit attempts.
	id       Ident
	attempts int
	// groupDone is closed, and replaced, when a group ends; ended
	// counts the groups that ended.
	groupDone chan struct{}
	ended     int
	// users counts the rewrites between reading and queuing, which hold
	// the line in the map.
	users int
	// rewriteSlot is held by the rewrite reading and writing its files.
	rewriteSlot chan struct{}
}

// ownSnapshots bounds commitLine.own: a rewrite that spans more groups
// than this between its reading and its commit is run again.
const ownSnapshots = 256

// lineChange is one statement's written change waiting for a commit.
type lineChange struct {
	// base is, for an append, the metadata its files were written
	// against; for a rewrite, the committed table it read, before the
	// changes ahead of it in the line.
	base    *table.Table
	files   []iceberg.DataFile
	removed []iceberg.DataFile // a rewrite's
	rewrite bool
	// batches are a small append's checked rows, under schema, for the
	// leader to write (writeHeld); members are the appends whose rows a
	// change made by writeHeld holds, which share its outcome.
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	members []*lineChange
	// lead is closed when the change is to lead the next group; chosen
	// says so. taken is set when a leader took the change into its
	// group: from then on only done ends the wait.
	lead   chan struct{}
	chosen bool
	taken  bool
	// done is closed once committed or err is set.
	done      chan struct{}
	committed *table.Table
	err       error
}

func newLineChange(base *table.Table, files, removed []iceberg.DataFile, rewrite bool) *lineChange {
	return &lineChange{base: base, files: files, removed: removed, rewrite: rewrite,
		lead: make(chan struct{}), done: make(chan struct{})}
}

// line returns the line of key for table id, creating it.
func (g *commitLines) line(key string, id Ident, attempts int) *commitLine {
	l := g.lines[key]
	if l == nil {
		l = &commitLine{groupDone: make(chan struct{}), rewriteSlot: make(chan struct{}, 1), id: id, attempts: attempts}
		g.lines[key] = l
	}
	return l
}

// fail sets c's own error. The leader of c's group sets it under the
// lock, since rewrites taking their view read the errors of the changes
// in flight.
func (g *commitLines) fail(c *lineChange, err error) {
	g.mu.Lock()
	c.err = err
	g.mu.Unlock()
}

// dropIdle removes line from the map when nothing holds it.
func (g *commitLines) dropIdle(key string, line *commitLine) {
	if !line.leading && len(line.queued) == 0 && line.users == 0 && g.lines[key] == line {
		delete(g.lines, key)
	}
}

// commitQueued queues c on the table's line and waits until a group holding
// it is committed (or fails). It returns the table as of that group's
// snapshot. A rewrite passes the line's failure count when it read
// (failuresSeen; -1 for an append): a failure since fails it, as it may
// have read the failed change. queued, when set, runs once c is queued
// (or has failed so).
func (t *Table) commitQueued(ctx context.Context, groups *commitLines, key string, c *lineChange, failuresSeen int, queued func()) (*table.Table, error) {
	groups.mu.Lock()
	line := groups.line(key, t.ident, t.host.commitAttempts())
	if failuresSeen >= 0 && line.failures != failuresSeen {
		groups.mu.Unlock()
		if queued != nil {
			queued()
		}
		removeFiles(ctx, c.base, c.files)
		return nil, line.rerunConflict(errors.New("a change it read failed to commit"))
	}
	line.queued = append(line.queued, c)
	leads := !line.leading
	if leads {
		line.leading, c.chosen = true, true
	}
	groups.mu.Unlock()
	if queued != nil {
		queued()
	}

	if !leads {
		select {
		case <-c.done:
			return c.committed, c.err
		case <-c.lead:
		case <-ctx.Done():
			if groups.withdraw(key, line, c) {
				removeFiles(ctx, c.base, c.files)
				return nil, fmt.Errorf("commit to %s: %w", t.ident, ctx.Err())
			}
			// Taken into a group or chosen to lead one: the outcome is
			// the group's.
			select {
			case <-c.done:
				return c.committed, c.err
			case <-c.lead:
			}
		}
	}
	t.leadGroup(context.WithoutCancel(ctx), groups, key, line)
	<-c.done
	return c.committed, c.err
}

// withdraw takes c out of line's queue if no leader has taken it and it
// was not chosen to lead; it reports whether it did. A rewrite queued
// behind c read c's change, so once c is withdrawn they fail.
func (g *commitLines) withdraw(key string, line *commitLine, c *lineChange) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c.taken || c.chosen {
		return false
	}
	i := slices.Index(line.queued, c)
	for _, later := range line.queued[i+1:] {
		if later.rewrite && later.err == nil {
			later.err = line.rerunConflict(errors.New("a change it read was withdrawn"))
		}
	}
	line.queued = slices.Delete(line.queued, i, i+1)
	line.failures++
	g.dropIdle(key, line)
	return true
}

// leadGroup commits one group: every change queued on line when the
// commit lock is taken. It then hands the lead to the first change queued
// since, or leaves the line idle. ctx does not end with the leader's
// statement: the group's other statements depend on the commit.
func (t *Table) leadGroup(ctx context.Context, groups *commitLines, key string, line *commitLine) {
	unlock, lockErr := t.host.lockTable(ctx, t.ident)
	groups.mu.Lock()
	group := line.queued
	line.queued = nil
	line.inflight = group
	for _, c := range group {
		c.taken = true
	}
	groups.mu.Unlock()

	var committed *table.Table
	made := false
	err := lockErr
	if lockErr != nil {
		err = fmt.Errorf("commit to %s: wait for commit lock: %w", t.ident, lockErr)
	} else {
		committed, made, err = t.commitGroup(ctx, groups, line, group)
		unlock()
		if fn := groups.observer.Load(); made && fn != nil {
			(*fn)(t.ident)
		}
	}

	groups.mu.Lock()
	defer groups.mu.Unlock()
	line.inflight, line.inflightFrom = nil, ""
	line.ended++
	if made {
		line.own = append(line.own, committed.CurrentSnapshot().SnapshotID)
		if len(line.own) > ownSnapshots {
			line.own = slices.Delete(line.own, 0, len(line.own)-ownSnapshots)
		}
	}
	if err != nil || anyFailed(group) {
		// The rewrites queued since, and those reading now, may have
		// read the changes that failed.
		line.failures++
		for _, c := range line.queued {
			if c.rewrite && c.err == nil {
				c.err = line.rerunConflict(errors.New("a change it read failed to commit"))
			}
		}
	}
	for _, c := range group {
		if c.err == nil {
			c.committed, c.err = committed, err
		}
		close(c.done)
	}
	close(line.groupDone)
	line.groupDone = make(chan struct{})
	if len(line.queued) == 0 {
		line.leading = false
		groups.dropIdle(key, line)
		return
	}
	next := line.queued[0]
	next.chosen = true
	close(next.lead)
}

// anyFailed reports whether a change of group, or an append a change
// holds, failed on its own.
func anyFailed(group []*lineChange) bool {
	for _, c := range group {
		if c.err != nil {
			return true
		}
		for _, m := range c.members {
			if m.err != nil {
				return true
			}
		}
	}
	return false
}

// commitGroup commits the net change of group's changes that still fit
// the table, as one snapshot on its newest metadata, replaying it when
// another process committed first. A change that no longer fits gets its
// own error (an append whose table was re-created or re-partitioned, a
// rewrite whose files another writer replaced), and so does every rewrite
// after a change that failed, since it may have read that change.
func (t *Table) commitGroup(ctx context.Context, groups *commitLines, line *commitLine, group []*lineChange) (committed *table.Table, made bool, err error) {
	fresh, err := t.host.reloadTable(ctx, t.ident)
	if err != nil {
		return nil, false, err
	}
	group = t.writeHeld(ctx, groups, line, group, fresh)
	defer func() {
		for _, c := range group {
			for _, m := range c.members {
				if m.err == nil {
					groups.fail(m, c.err)
				}
			}
		}
	}()
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			if fresh, err = t.host.reloadTable(ctx, t.ident); err != nil {
				return nil, false, err
			}
		}
		var writes []*StagedWrite
		failed := false
		groups.mu.Lock()
		own := slices.Clone(line.own)
		groups.mu.Unlock()
		for _, c := range group {
			if c.err == nil {
				if err := line.changeFits(c, fresh, own, failed); err != nil {
					groups.fail(c, err)
					removeFiles(ctx, c.base, c.files)
				}
			}
			if c.err != nil {
				failed = true
				continue
			}
			writes = append(writes, &StagedWrite{ident: t.ident, files: c.files, removed: c.removed})
		}
		net := netChangeOf(t.ident, "", writes)
		if len(net.added) == 0 && len(net.removed) == 0 {
			removeFiles(ctx, fresh, net.dropped)
			return fresh, false, nil
		}
		groups.mu.Lock()
		line.inflightFrom = fresh.MetadataLocation()
		groups.mu.Unlock()

		tx := fresh.NewTransaction()
		commitCtx := ctx
		if len(net.removed) > 0 {
			err = tx.ReplaceDataFilesWithDataFiles(ctx, net.removed, net.added, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping())
			commitCtx = withNoReplay(ctx)
		} else {
			err = tx.AddDataFiles(ctx, net.added, nil, table.WithoutDuplicateCheck(), table.WithoutAutoNameMapping())
		}
		if err != nil && len(net.removed) > 0 {
			// A file the rewrites remove is not the table's (a change
			// they read did not commit): they run again, the appends
			// commit without them.
			for _, c := range group {
				if c.rewrite && c.err == nil {
					groups.fail(c, line.rerunConflict(fmt.Errorf("stage files: %w", err)))
					removeFiles(ctx, c.base, c.files)
				}
			}
			continue
		}
		if err != nil {
			removeGroupFiles(ctx, fresh, group)
			return nil, false, fmt.Errorf("commit to %s: stage files: %w", t.ident, err)
		}
		if committed, err = tx.Commit(commitCtx); err == nil {
			removeFiles(ctx, fresh, net.dropped)
			return committed, true, nil
		}
		if !isCommitConflict(err) {
			// The catalog may have taken the commit: keep the files.
			return nil, false, t.host.commitError(ctx, t.ident, fmt.Errorf("commit to %s: %w", t.ident, err))
		}
		if attempt >= t.host.commitAttempts() {
			removeGroupFiles(ctx, fresh, group)
			return nil, false, commitConflict(t.ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			removeGroupFiles(ctx, fresh, group)
			return nil, false, fmt.Errorf("commit to %s: %w", t.ident, err)
		}
	}
}

// writeHeld writes the held rows of group's small appends that fit
// fresh into shared data files, one set of files per schema, and returns
// the group with those appends replaced by one change per set, at the
// place of its first append; the appends it replaced are its members.
func (t *Table) writeHeld(ctx context.Context, groups *commitLines, line *commitLine, group []*lineChange, fresh *table.Table) []*lineChange {
	var out, sets []*lineChange
	for _, c := range group {
		if c.batches == nil {
			out = append(out, c)
			continue
		}
		if c.err == nil {
			if err := line.changeFits(c, fresh, nil, false); err != nil {
				groups.fail(c, err)
			}
		}
		if c.err != nil {
			releaseAll(c.batches)
			continue
		}
		i := slices.IndexFunc(sets, func(s *lineChange) bool { return s.schema.Equal(c.schema) })
		if i < 0 {
			set := newLineChange(fresh, nil, nil, false)
			set.schema = c.schema
			sets = append(sets, set)
			out = append(out, set)
			i = len(sets) - 1
		}
		sets[i].members = append(sets[i].members, c)
		sets[i].batches = append(sets[i].batches, c.batches...)
	}
	for _, set := range sets {
		files, err := writeDataFiles(ctx, fresh, set.schema, sliceReader(set.schema, set.batches))
		releaseAll(set.batches)
		set.batches = nil
		if err != nil {
			removeFiles(ctx, fresh, files)
			set.err = fmt.Errorf("append to %s: %w", t.ident, err)
			continue
		}
		set.files = files
	}
	return out
}

// changeFits reports why change c cannot be committed on fresh: the
// table was dropped and re-created, or re-partitioned, since its files
// were written; for a rewrite, a change before it in the group failed,
// or another writer replaced files it read. A newer schema is fine, as
// for any older file: Iceberg reads columns by field id.
func (line *commitLine) changeFits(c *lineChange, fresh *table.Table, own []int64, afterFailure bool) error {
	id := line.id
	if c.base.Metadata().TableUUID() != fresh.Metadata().TableUUID() {
		return errors.Join(ErrNoSuchTable,
			fmt.Errorf("commit to %s: the table was dropped and re-created during the write", id))
	}
	if c.base.Metadata().DefaultPartitionSpec() != fresh.Metadata().DefaultPartitionSpec() {
		return commitConflict(id, 1, errors.New("the table's partitioning changed during the write"))
	}
	if !c.rewrite {
		return nil
	}
	if afterFailure {
		return line.rerunConflict(errors.New("a change it read failed"))
	}
	if !appendedOrOwnSince(c.base, fresh, own) {
		return line.rerunConflict(errors.New("files it read were replaced by another writer"))
	}
	return nil
}

// rerunConflict is a rewrite's failure that running its statement again
// resolves (SQLSTATE 40001 once the runs are used up).
func (line *commitLine) rerunConflict(cause error) error {
	return &RerunConflict{Limit: line.attempts, err: commitConflict(line.id, 1, cause)}
}

// removeGroupFiles removes the files of every change of group that
// failed as a whole.
func removeGroupFiles(ctx context.Context, tbl *table.Table, group []*lineChange) {
	for _, c := range group {
		if c.err == nil {
			removeFiles(ctx, tbl, c.files)
		}
	}
}

// pendingView is what a rewrite reads: the committed table (fresh), and
// the changes queued or in flight ahead of it, whose net effect it sees.
// failures is the line's failure count when the view was taken.
type pendingView struct {
	fresh    *table.Table
	pending  []*StagedWrite
	failures int
}

// viewFor reads the table as the line's pending changes leave it. It
// reads again when a group ended while it read the catalog, and it
// waits for the group in flight to end when the catalog has moved past
// the metadata that group commits on (the group may just have committed,
// and its files must not be seen twice), and when a pending rewrite can
// no longer be committed on the catalog's table (its group will fail).
func (t *Table) viewFor(ctx context.Context, groups *commitLines, line *commitLine) (pendingView, error) {
	for {
		groups.mu.Lock()
		ended := line.ended
		groups.mu.Unlock()
		fresh, err := t.host.reloadTable(ctx, t.ident)
		if err != nil {
			return pendingView{}, err
		}
		groups.mu.Lock()
		if line.ended != ended {
			// A group ended while the table was read: its changes may
			// be neither in what was read nor pending any more.
			groups.mu.Unlock()
			continue
		}
		v := pendingView{fresh: fresh, failures: line.failures}
		wait := line.inflight != nil && fresh.MetadataLocation() != line.inflightFrom
		for _, c := range slices.Concat(line.inflight, line.queued) {
			if wait {
				break
			}
			if c.err != nil {
				continue
			}
			if c.rewrite && !appendedOrOwnSince(c.base, fresh, line.own) {
				wait = true
			}
			v.pending = append(v.pending, &StagedWrite{ident: t.ident, files: c.files, removed: c.removed})
		}
		done := line.groupDone
		groups.mu.Unlock()
		if !wait {
			return v, nil
		}
		select {
		case <-done:
		case <-ctx.Done():
			return pendingView{}, ctx.Err()
		}
	}
}

func (c *embeddedCatalog) commitLines(_ context.Context, id Ident) (*commitLines, string) {
	return c.lines, id.Namespace + "\x00" + id.Table
}

// commitLines keys a line by the caller's token too when each commit
// carries it: a group is committed with its leader's token.
func (c *restCatalog) commitLines(ctx context.Context, id Ident) (*commitLines, string) {
	key := id.Namespace + "\x00" + id.Table
	if p, ok := PrincipalFrom(ctx); ok && c.cfg.perUser() {
		key += "\x00" + p.Token
	}
	return c.lines, key
}
