package sql

import (
	"context"
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// runVacuum answers ANALYZE and VACUUM, which share PostgreSQL's parse
// node.
//
// ANALYZE [table [(columns)], ...] is accepted, as tools send it after
// loading data, and checked as PostgreSQL checks it: each table must
// exist and be visible to the caller (42P01 otherwise, exactly as a
// SELECT would say), each column must exist (42703) and appear once
// (42701). Collecting statistics is not done yet: SQE's planner reads
// row counts from table metadata, so an ANALYZE changes no plan today.
//
// VACUUM has no meaning for Iceberg tables: what it does in PostgreSQL is
// done by the maintenance procedures, which it names.
func (s *Session) runVacuum(ctx context.Context, stmt *pg_query.VacuumStmt, query string) (Result, error) {
	if stmt.IsVacuumcmd {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "VACUUM is not supported: Iceberg tables are maintained by procedures").
			WithHint("Compact a table's files with CALL system.rewrite_data_files(table => 'schema.table'); remove old snapshots and the files only they use with CALL system.expire_snapshots(table => 'schema.table').")
	}
	for _, n := range stmt.Rels {
		rel := n.GetVacuumRelation()
		if rel == nil || rel.Relation == nil {
			return nil, pgerror.Unsupported("this form of ANALYZE is not supported yet")
		}
		if err := s.checkAnalyzeRelation(ctx, rel, query); err != nil {
			return nil, err
		}
	}
	return commandResult("ANALYZE"), nil
}

// checkAnalyzeRelation binds a query over the table, and over each named
// column, so that names resolve and governance applies exactly as for a
// SELECT of the same names.
func (s *Session) checkAnalyzeRelation(ctx context.Context, rel *pg_query.VacuumRelation, query string) error {
	from := []*pg_query.Node{{Node: &pg_query.Node_RangeVar{RangeVar: rel.Relation}}}
	one := pg_query.MakeResTargetNodeWithVal(pg_query.MakeAConstIntNode(1, -1), -1)
	if _, err := s.bindSelect(ctx, analyzeSelect(one, from), query, nil); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, c := range rel.VaCols {
		name := c.GetString_().GetSval()
		if seen[name] {
			return pgerror.New(pgerror.DuplicateColumn, "column \"%s\" of relation \"%s\" appears more than once", name, rel.Relation.Relname)
		}
		seen[name] = true
		col := pg_query.MakeResTargetNodeWithVal(pg_query.MakeColumnRefNode([]*pg_query.Node{pg_query.MakeStrNode(name)}, -1), -1)
		_, err := s.bindSelect(ctx, analyzeSelect(col, from), query, nil)
		var pe *pgerror.Error
		if errors.As(err, &pe) && pe.Code == pgerror.UndefinedColumn {
			return pgerror.New(pgerror.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", name, rel.Relation.Relname)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// analyzeSelect is SELECT target FROM from.
func analyzeSelect(target *pg_query.Node, from []*pg_query.Node) *pg_query.SelectStmt {
	return &pg_query.SelectStmt{
		TargetList:  []*pg_query.Node{target},
		FromClause:  from,
		Op:          pg_query.SetOperation_SETOP_NONE,
		LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT,
	}
}
