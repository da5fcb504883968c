package storage

import (
	"fmt"

	"github.com/apache/iceberg-go/table"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Writes to a branch (write-audit-publish): a job writes to a branch of
// the table, the branch is checked (read with FOR VERSION AS OF), and
// fast_forward publishes it to main. Branch writes are rare and their
// readers are few, so they skip the group commit of writes to main: each
// is staged and committed on its own (CommitStagedTables), on the
// branch's head, under the table's commit lock.

// OnBranch returns the head of branch as a table: its scans read the
// branch's snapshot (with the table's current schema), and its writes
// (Append, BeginRewrite, Stage, BeginStagedRewrite) commit to the branch.
// A name that is no branch of the table is an error.
func (t *Table) OnBranch(name string) (*Table, error) {
	if err := t.refuseWriteToPast(); err != nil {
		return nil, err
	}
	if name == table.MainBranch {
		return t, nil
	}
	ref, ok := refOf(t.tbl.Metadata(), name)
	switch {
	case !ok:
		return nil, pgerror.New(pgerror.UndefinedObject, "branch \"%s\" of table %s does not exist", name, t.displayName()).
			WithHint("CALL system.create_branch makes one.")
	case ref.SnapshotRefType != table.BranchRef:
		return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" of table %s is a tag; only a branch can be written", name, t.displayName())
	}
	tbl, err := viewAt(t.tbl, ref.SnapshotID)
	if err != nil {
		return nil, fmt.Errorf("open branch %s of %s: %w", name, t.ident, err)
	}
	head := *t
	head.tbl = tbl
	head.staged, head.hidden, head.stagedRows = nil, nil, 0
	head.branch = name
	return &head, nil
}

// Branch is the branch this table is the head of, "" for main.
func (t *Table) Branch() string { return t.branch }

// branchHead is base as its branch's head sees it (base itself for main),
// or an error when the branch is gone.
func branchHead(base *table.Table, id Ident, branch string) (*table.Table, error) {
	if branch == "" {
		return base, nil
	}
	ref, ok := refOf(base.Metadata(), branch)
	if !ok || ref.SnapshotRefType != table.BranchRef {
		return nil, pgerror.New(pgerror.UndefinedObject, "branch \"%s\" of table %s does not exist", branch, id.Namespace+"."+id.Table).
			WithDetail("It was dropped while the statement wrote to it.")
	}
	return viewAt(base, ref.SnapshotID)
}

// snapshotOfBranch is the head snapshot of branch ("" for main), nil when
// there is none.
func snapshotOfBranch(base *table.Table, branch string) *table.Snapshot {
	if branch == "" {
		return base.CurrentSnapshot()
	}
	if ref, ok := refOf(base.Metadata(), branch); ok {
		return base.Metadata().SnapshotByID(ref.SnapshotID)
	}
	return nil
}

// twoBranches is the error of one commit writing two branches of a table.
func twoBranches(id Ident) error {
	return pgerror.New(pgerror.FeatureNotSupported, "a transaction block cannot write two branches of table %s", id.Namespace+"."+id.Table).
		WithHint("COMMIT the writes to one branch before writing to the other.")
}

// refuseBranchTruncate: TRUNCATE replaces the table's main state; a
// branch is emptied with DELETE.
func (t *Table) refuseBranchTruncate() error {
	if t.branch == "" {
		return nil
	}
	return pgerror.New(pgerror.FeatureNotSupported, "cannot truncate branch \"%s\" of table %s", t.branch, t.displayName()).
		WithHint("DELETE FROM the table empties the branch.")
}
