package sql

import (
	"context"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
	"github.com/sqe-db/sqe/storage"
)

// The table maintenance procedures, with Spark's names, arguments and
// result columns. Both are writes: the caller needs UPDATE on the table
// (gate one), which storage checks.

// rewriteDataFilesProcedure compacts a table's small data files and its
// manifests (storage.Table.RewriteDataFiles); a sorted table's rows are
// ordered by the engine's sort, under the statement's memory limit.
func rewriteDataFilesProcedure() *procedure {
	return &procedure{
		name:   "system.rewrite_data_files",
		params: []procParam{{name: "table", typ: types.Text, required: true}},
		columns: []Column{
			{Name: "rewritten_data_files_count", Type: types.Int4},
			{Name: "added_data_files_count", Type: types.Int4},
			{Name: "rewritten_bytes_count", Type: types.Int8},
		},
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			target, err := s.procedureTable(ctx, args)
			if err != nil {
				return nil, err
			}
			_, res, err := target.adapter.t.RewriteDataFiles(s.callerContext(ctx), rowSorter(s.statementLimits()))
			if err != nil {
				return nil, fmt.Errorf("rewrite data files of %s: %w", target.relname, err)
			}
			return []any{int32(res.RewrittenDataFiles), int32(res.AddedDataFiles), res.RewrittenBytes}, nil
		},
	}
}

// expireSnapshotsProcedure removes old snapshots and the files only they
// referenced (storage.Table.ExpireSnapshots). Without older_than or
// retain_last the table's history.expire.* properties decide, as in
// Spark.
func expireSnapshotsProcedure() *procedure {
	return &procedure{
		name: "system.expire_snapshots",
		params: []procParam{
			{name: "table", typ: types.Text, required: true},
			{name: "older_than", typ: types.TimestampTZ},
			{name: "retain_last", typ: types.Int4},
		},
		columns: []Column{
			{Name: "deleted_data_files_count", Type: types.Int8},
			{Name: "deleted_position_delete_files_count", Type: types.Int8},
			{Name: "deleted_equality_delete_files_count", Type: types.Int8},
			{Name: "deleted_manifest_files_count", Type: types.Int8},
			{Name: "deleted_manifest_lists_count", Type: types.Int8},
			{Name: "deleted_statistics_files_count", Type: types.Int8},
			{Name: "expired_snapshots_count", Type: types.Int8},
		},
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			var opts storage.ExpireOptions
			if n, ok := args.integer("retain_last"); ok {
				if n < 1 {
					return nil, pgerror.New(pgerror.InvalidParameterValue, "retain_last must be at least 1, not %d", n)
				}
				opts.RetainLast = int(n)
			}
			if t, ok := args.timestamp("older_than"); ok {
				opts.OlderThan = t
			}
			target, err := s.procedureTable(ctx, args)
			if err != nil {
				return nil, err
			}
			_, res, err := target.adapter.t.ExpireSnapshots(s.callerContext(ctx), opts)
			if err != nil {
				return nil, fmt.Errorf("expire snapshots of %s: %w", target.relname, err)
			}
			return []any{res.DeletedDataFiles, res.DeletedPositionDeleteFiles, res.DeletedEqualityDeleteFiles,
				res.DeletedManifests, res.DeletedManifestLists, res.DeletedStatisticsFiles, res.ExpiredSnapshots}, nil
		},
	}
}

// procedureTable resolves the "table" argument like any table name in a
// statement: 'table', 'schema.table' or 'catalog.schema.table', quoted
// parts kept as written and others folded to lower case, a bare name
// looked up along search_path.
func (s *Session) procedureTable(ctx context.Context, args procArgs) (*insertTarget, error) {
	name, _ := args.text("table")
	parts, err := exec.ParseIdent(name, true)
	if err != nil {
		return nil, err
	}
	rv := &pg_query.RangeVar{Location: -1}
	switch len(parts) {
	case 1:
		rv.Relname = parts[0]
	case 2:
		rv.Schemaname, rv.Relname = parts[0], parts[1]
	case 3:
		rv.Catalogname, rv.Schemaname, rv.Relname = parts[0], parts[1], parts[2]
	default:
		return nil, pgerror.New(pgerror.SyntaxError, "improper relation name (too many dotted names): %s", name)
	}
	return s.resolveWriteTarget(ctx, rv, "")
}
