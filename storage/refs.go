package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// RefSpec is a branch or tag to create or replace.
type RefSpec struct {
	Name   string
	Branch bool
	// SnapshotID is the snapshot the ref points at; 0 means the table's
	// current snapshot.
	SnapshotID int64
	// Retention, each unset when zero: how long the ref itself is kept
	// (MaxRefAge), and for a branch how old its snapshots may grow
	// (MaxSnapshotAge) and how many it keeps at least (MinSnapshotsToKeep).
	MaxRefAge          time.Duration
	MaxSnapshotAge     time.Duration
	MinSnapshotsToKeep int
}

// CreateRef adds a branch or tag, or moves one when replace is set, and
// returns the table as committed and the snapshot the ref points at. It
// is a write (gate one: UPDATE_TABLE). The main branch is the table's
// current state: it moves only by writes and fast-forwarding.
func (t *Table) CreateRef(ctx context.Context, spec RefSpec, replace bool) (*Table, int64, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, 0, err
	}
	kind := refKind(spec.Branch)
	if err := refuseReservedRef(kind, spec.Name); err != nil {
		return nil, 0, err
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, 0, err
	}
	var at int64
	committed, err := t.commitMetadata(ctx, "create "+kind, func(meta table.Metadata) ([]table.Update, []table.Requirement, error) {
		old, exists := refOf(meta, spec.Name)
		if exists && !replace {
			return nil, nil, pgerror.New(pgerror.DuplicateObject, "%s \"%s\" of table %s already exists", refKindOf(old), spec.Name, t.displayName())
		}
		if exists && old.SnapshotRefType != refType(spec.Branch) {
			return nil, nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" of table %s is a %s, not a %s", spec.Name, t.displayName(), refKindOf(old), kind)
		}
		at = spec.SnapshotID
		if at == 0 {
			cur := meta.CurrentSnapshot()
			if cur == nil {
				return nil, nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState, "table %s has no snapshot to %s", t.displayName(), kind)
			}
			at = cur.SnapshotID
		}
		if meta.SnapshotByID(at) == nil {
			return nil, nil, pgerror.New(pgerror.InvalidParameterValue, "table %s has no snapshot %d", t.displayName(), at)
		}
		upd := table.NewSetSnapshotRefUpdate(spec.Name, at, refType(spec.Branch),
			spec.MaxRefAge.Milliseconds(), spec.MaxSnapshotAge.Milliseconds(), spec.MinSnapshotsToKeep)
		reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID())}
		if exists {
			reqs = append(reqs, table.AssertRefSnapshotID(spec.Name, &old.SnapshotID))
		} else {
			reqs = append(reqs, table.AssertRefSnapshotID(spec.Name, nil))
		}
		return []table.Update{upd}, reqs, nil
	})
	return committed, at, err
}

// DropRef removes a branch or tag; the snapshots it alone kept become
// expirable. It is a write (gate one: UPDATE_TABLE).
func (t *Table) DropRef(ctx context.Context, name string, branch bool) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	kind := refKind(branch)
	if name == table.MainBranch {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "cannot drop the main branch of table %s", t.displayName())
	}
	if err := refuseReservedRef(kind, name); err != nil {
		return nil, err
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, err
	}
	return t.commitMetadata(ctx, "drop "+kind, func(meta table.Metadata) ([]table.Update, []table.Requirement, error) {
		old, exists := refOf(meta, name)
		if !exists {
			return nil, nil, pgerror.New(pgerror.UndefinedObject, "%s \"%s\" of table %s does not exist", kind, name, t.displayName())
		}
		if old.SnapshotRefType != refType(branch) {
			return nil, nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" of table %s is a %s, not a %s", name, t.displayName(), refKindOf(old), kind)
		}
		reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID()), table.AssertRefSnapshotID(name, &old.SnapshotID)}
		return []table.Update{table.NewRemoveSnapshotRefUpdate(name)}, reqs, nil
	})
}

// FastForward moves branch to the snapshot of to (a branch or tag) when
// to's snapshot descends from branch's: the publish step of
// write-audit-publish. It returns the table as committed and the
// snapshots branch pointed at before and after. It is a write (gate one:
// UPDATE_TABLE).
func (t *Table) FastForward(ctx context.Context, branch, to string) (*Table, int64, int64, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, 0, 0, err
	}
	if err := t.host.authorize(ctx, ActionUpdateTable, t.ident); err != nil {
		return nil, 0, 0, err
	}
	var from, target int64
	committed, err := t.commitMetadata(ctx, "fast-forward", func(meta table.Metadata) ([]table.Update, []table.Requirement, error) {
		cur, ok := refOf(meta, branch)
		if !ok {
			return nil, nil, pgerror.New(pgerror.UndefinedObject, "branch \"%s\" of table %s does not exist", branch, t.displayName())
		}
		if cur.SnapshotRefType != table.BranchRef {
			return nil, nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" of table %s is a tag; only a branch moves", branch, t.displayName())
		}
		dst, ok := refOf(meta, to)
		if !ok {
			return nil, nil, pgerror.New(pgerror.UndefinedObject, "branch or tag \"%s\" of table %s does not exist", to, t.displayName())
		}
		from, target = cur.SnapshotID, dst.SnapshotID
		if from == target {
			return nil, nil, nil
		}
		if !descendsFrom(meta, target, from) {
			return nil, nil, pgerror.New(pgerror.ObjectNotInPrerequisiteState,
				"cannot fast-forward branch \"%s\" of table %s to \"%s\": snapshot %d is not an ancestor of snapshot %d", branch, t.displayName(), to, from, target)
		}
		upd := table.NewSetSnapshotRefUpdate(branch, target, table.BranchRef, refMillis(cur.MaxRefAgeMs), refMillis(cur.MaxSnapshotAgeMs), refCount(cur.MinSnapshotsToKeep))
		reqs := []table.Requirement{table.AssertTableUUID(meta.TableUUID()), table.AssertRefSnapshotID(branch, &from)}
		return []table.Update{upd}, reqs, nil
	})
	return committed, from, target, err
}

// refuseReservedRef refuses the names a caller may not make or drop:
// main is the table's current state, and maintenance's lease tag is
// maintenance's to take and release.
func refuseReservedRef(kind, name string) error {
	switch name {
	case "", table.MainBranch:
		return pgerror.New(pgerror.InvalidParameterValue, "cannot create %s \"%s\": the name is reserved for the table's current state", kind, name)
	case LeaseRef:
		return pgerror.New(pgerror.InvalidParameterValue, "\"%s\" is reserved for the lease of automatic maintenance", name)
	}
	return nil
}

// descendsFrom reports whether ancestor is snapshot id or one of its
// parents.
func descendsFrom(meta table.Metadata, id, ancestor int64) bool {
	for id != 0 {
		if id == ancestor {
			return true
		}
		s := meta.SnapshotByID(id)
		if s == nil || s.ParentSnapshotID == nil {
			return false
		}
		id = *s.ParentSnapshotID
	}
	return false
}

// commitMetadata commits the metadata updates plan makes from the newest
// metadata, under the table's commit lock, planning again on the
// reloaded table when another writer won the race. A plan with no
// updates commits nothing and returns the table as reloaded.
func (t *Table) commitMetadata(ctx context.Context, what string, plan func(table.Metadata) ([]table.Update, []table.Requirement, error)) (*Table, error) {
	unlock, err := t.host.lockTable(ctx, t.ident)
	if err != nil {
		return nil, fmt.Errorf("%s %s: wait for commit lock: %w", what, t.ident, err)
	}
	defer unlock()
	cat, err := t.host.catalogIO(ctx)
	if err != nil {
		return nil, err
	}
	ident := table.Identifier{t.ident.Namespace, t.ident.Table}
	for attempt := 1; ; attempt++ {
		base, err := t.host.reloadTable(ctx, t.ident)
		if err != nil {
			return nil, err
		}
		updates, reqs, err := plan(base.Metadata())
		if err != nil {
			return nil, err
		}
		if len(updates) == 0 {
			return newTable(t.host, t.ident, base)
		}
		newMeta, loc, err := cat.CommitTable(ctx, ident, reqs, updates)
		if err == nil {
			return newTable(t.host, t.ident, table.New(ident, newMeta, loc, base.FS, cat))
		}
		if !isCommitConflict(err) {
			return nil, t.host.commitError(ctx, t.ident, fmt.Errorf("%s %s: commit: %w", what, t.ident, err))
		}
		if attempt >= t.host.commitAttempts() {
			return nil, commitConflict(t.ident, attempt, err)
		}
		if err := sleepCtx(ctx, commitBackoff(attempt)); err != nil {
			return nil, fmt.Errorf("%s %s: %w", what, t.ident, err)
		}
	}
}

func refType(branch bool) table.RefType {
	if branch {
		return table.BranchRef
	}
	return table.TagRef
}

func refKind(branch bool) string {
	if branch {
		return "branch"
	}
	return "tag"
}

func refKindOf(r table.SnapshotRef) string { return refKind(r.SnapshotRefType == table.BranchRef) }

func refMillis(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func refCount(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
