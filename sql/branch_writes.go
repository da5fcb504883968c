package sql

import (
	"context"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// writeBranchSetting names the branch that the session's INSERT, UPDATE,
// DELETE, MERGE and COPY FROM write to, for write-audit-publish: a job
// sets it, writes, the branch is checked with FOR VERSION AS OF
// '<branch>', and CALL system.fast_forward(table, 'main', '<branch>')
// publishes it. Empty (the default) and 'main' write the table itself.
// Reads are not affected; DDL and the procedures act on the table.
const writeBranchSetting = "sqe.write_branch"

// resolveRowTarget is resolveWriteTarget for a statement that changes
// rows: under sqe.write_branch, the head of that branch of the table
// (storage.Table.OnBranch), with the transaction block's own writes to
// it.
func (s *Session) resolveRowTarget(ctx context.Context, rv *pg_query.RangeVar, query string) (*insertTarget, error) {
	target, err := s.resolveWriteTarget(ctx, rv, query)
	branch := strings.TrimSpace(s.settings.values[writeBranchSetting])
	if err != nil || branch == "" || branch == "main" {
		return target, err
	}
	t, err := target.adapter.t.OnBranch(branch)
	if err != nil {
		return nil, err
	}
	if t, err = s.withStaged(t); err != nil {
		return nil, err
	}
	a, err := newTableAdapter(t)
	if err != nil {
		return nil, err
	}
	return &insertTarget{adapter: a, relname: target.relname}, nil
}
