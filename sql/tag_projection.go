package sql

import (
	"context"
	"strings"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// With the Ranger policy store and [policy.ranger] project_tags, column
// tags are also written to Ranger's tag store, where Spark and Kyuubi
// read them; SQE itself reads the Iceberg property. ALTER TABLE ... SET /
// UNSET TAGS projects after its commit, and CALL
// system.reproject_column_tags projects a table tagged before.

// tagProjector is a policy store that writes column tags to its own tag
// store (the Ranger store).
type tagProjector interface {
	ProjectColumnTags(ctx context.Context, database, table string, columns map[string][]string) error
}

// projectTags writes the table's current column tags to the store's tag
// store, when it has one; projected says whether it did.
func (s *Session) projectTags(ctx context.Context, a *tableAdapter) (projected int, ok bool, err error) {
	tp, ok := s.engine.cfg.Policies.(tagProjector)
	if !ok {
		return 0, false, nil
	}
	tags, err := a.ColumnTags()
	if err != nil {
		return 0, true, pgerror.Wrap(err, pgerror.DataCorrupted, "the column tags of table %s cannot be read", a.t.Ident().Table)
	}
	cols := a.Columns()
	byName := map[string][]string{}
	for i, ts := range tags {
		byName[cols[i].Name] = ts
	}
	id := a.t.Ident()
	return len(byName), true, tp.ProjectColumnTags(ctx, policyDatabase(id.Namespace), id.Table, byName)
}

// reprojectColumnTagsProcedure is CALL system.reproject_column_tags(table
// => 't'): the table's column tags written again to the policy store's
// tag store. Administrators only.
func reprojectColumnTagsProcedure() *procedure {
	return &procedure{
		name:    "system.reproject_column_tags",
		params:  []procParam{{name: "table", typ: types.Text, required: true}},
		columns: []Column{{Name: "projected_columns_count", Type: types.Int4}},
		run: func(ctx context.Context, s *Session, args procArgs) ([]any, error) {
			if err := s.requirePolicyAdmin("CALL system.reproject_column_tags", true); err != nil {
				return nil, err
			}
			target, err := s.procedureTable(ctx, args)
			if err != nil {
				return nil, err
			}
			n, ok, err := s.projectTags(ctx, target.adapter)
			if !ok {
				return nil, pgerror.New(pgerror.FeatureNotSupported, "system.reproject_column_tags needs a policy store with a tag store").
					WithDetail("Column tags are projected to Ranger's tag store with [policy] engine = \"ranger\" and [policy.ranger] project_tags = true.")
			}
			if err != nil {
				return nil, err
			}
			return []any{int32(n)}, nil
		},
	}
}

// warnProjection tells the client its tags are set in SQE but not in
// Ranger's tag store, and how to retry.
func (s *Session) warnProjection(table string, err error) {
	s.queueNotice(severityWarning, pgerror.Warning,
		"Run CALL system.reproject_column_tags(table => '"+strings.ReplaceAll(table, "'", "''")+"') to retry.",
		"column tags of %s are set, but writing them to Ranger's tag store failed: %s", table, pgerror.From(err).Message)
}
