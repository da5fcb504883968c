package sql

import (
	"context"
	"fmt"
	"time"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// The procedures that name versions of a table: tags (a snapshot kept
// under a name, e.g. a release of the table) and branches (a line of
// snapshots beside main, for write-audit-publish), and fast_forward,
// which publishes a branch by moving another (main) to it. All are
// writes: the caller needs UPDATE on the table (gate one), which storage
// checks. A tag or branch is read with FOR VERSION AS OF '<name>'.

// refColumns are the row create_tag and create_branch answer.
var refColumns = []Column{
	{Name: "ref_name", Type: types.Text},
	{Name: "ref_type", Type: types.Text},
	{Name: "snapshot_id", Type: types.Int8},
}

func createTagProcedure() *procedure {
	return &procedure{
		name: "system.create_tag",
		params: []procParam{
			{name: "table", typ: types.Text, required: true},
			{name: "tag", typ: types.Text, required: true},
			{name: "snapshot_id", typ: types.Int8},
			{name: "max_ref_age_ms", typ: types.Int8},
			{name: "replace", typ: types.Bool, def: false},
		},
		columns: refColumns,
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			name, _ := args.text("tag")
			return s.createRef(ctx, args, storage.RefSpec{Name: name})
		},
	}
}

func createBranchProcedure() *procedure {
	return &procedure{
		name: "system.create_branch",
		params: []procParam{
			{name: "table", typ: types.Text, required: true},
			{name: "branch", typ: types.Text, required: true},
			{name: "snapshot_id", typ: types.Int8},
			{name: "max_ref_age_ms", typ: types.Int8},
			{name: "max_snapshot_age_ms", typ: types.Int8},
			{name: "min_snapshots_to_keep", typ: types.Int4},
			{name: "replace", typ: types.Bool, def: false},
		},
		columns: refColumns,
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			name, _ := args.text("branch")
			spec := storage.RefSpec{Name: name, Branch: true}
			if ms, ok := args.integer("max_snapshot_age_ms"); ok {
				if ms < 1 {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "max_snapshot_age_ms must be positive, not %d", ms)
				}
				spec.MaxSnapshotAge = time.Duration(ms) * time.Millisecond
			}
			if n, ok := args.integer("min_snapshots_to_keep"); ok {
				if n < 1 {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "min_snapshots_to_keep must be at least 1, not %d", n)
				}
				spec.MinSnapshotsToKeep = int(n)
			}
			return s.createRef(ctx, args, spec)
		},
	}
}

// createRef runs create_tag and create_branch: spec completed with the
// arguments both share.
func (s *Session) createRef(ctx context.Context, args procArgs, spec storage.RefSpec) ([]any, error) {
	if id, ok := args.integer("snapshot_id"); ok {
		spec.SnapshotID = id
	}
	if ms, ok := args.integer("max_ref_age_ms"); ok {
		if ms < 1 {
			return nil, pgerror.New(pgerror.InvalidParameterValue, "max_ref_age_ms must be positive, not %d", ms)
		}
		spec.MaxRefAge = time.Duration(ms) * time.Millisecond
	}
	target, err := s.procedureTable(ctx, args)
	if err != nil {
		return nil, err
	}
	replace, _ := args.boolean("replace")
	_, at, err := target.adapter.t.CreateRef(s.callerContext(ctx), spec, replace)
	if err != nil {
		return nil, fmt.Errorf("create %s of %s: %w", refKindName(spec.Branch), target.relname, err)
	}
	return []any{spec.Name, refKindName(spec.Branch), at}, nil
}

func dropTagProcedure() *procedure    { return dropRefProcedure("tag", false) }
func dropBranchProcedure() *procedure { return dropRefProcedure("branch", true) }

// dropRefProcedure is drop_tag or drop_branch: the ref goes, the
// snapshots it alone kept become expirable.
func dropRefProcedure(kind string, branch bool) *procedure {
	return &procedure{
		name: "system.drop_" + kind,
		params: []procParam{
			{name: "table", typ: types.Text, required: true},
			{name: kind, typ: types.Text, required: true},
		},
		columns: refColumns[:2],
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			name, _ := args.text(kind)
			target, err := s.procedureTable(ctx, args)
			if err != nil {
				return nil, err
			}
			if _, err := target.adapter.t.DropRef(s.callerContext(ctx), name, branch); err != nil {
				return nil, fmt.Errorf("drop %s of %s: %w", kind, target.relname, err)
			}
			return []any{name, kind}, nil
		},
	}
}

// fastForwardProcedure moves a branch to the snapshot of another branch
// or tag that descends from it, with Spark's arguments and result.
func fastForwardProcedure() *procedure {
	return &procedure{
		name: "system.fast_forward",
		params: []procParam{
			{name: "table", typ: types.Text, required: true},
			{name: "branch", typ: types.Text, required: true},
			{name: "to", typ: types.Text, required: true},
		},
		columns: []Column{
			{Name: "branch_updated", Type: types.Text},
			{Name: "previous_ref", Type: types.Int8},
			{Name: "updated_ref", Type: types.Int8},
		},
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			branch, _ := args.text("branch")
			to, _ := args.text("to")
			target, err := s.procedureTable(ctx, args)
			if err != nil {
				return nil, err
			}
			_, from, at, err := target.adapter.t.FastForward(s.callerContext(ctx), branch, to)
			if err != nil {
				return nil, fmt.Errorf("fast-forward %s of %s: %w", branch, target.relname, err)
			}
			return []any{branch, from, at}, nil
		},
	}
}

func refKindName(branch bool) string {
	if branch {
		return "branch"
	}
	return "tag"
}
