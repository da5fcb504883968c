package sql

import (
	"context"
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// runVacuum answers ANALYZE and VACUUM, which share PostgreSQL's parse
// node.
//
// ANALYZE [table [(columns)], ...] collects the statistics of each table's
// current snapshot (storage.Table.Analyze: NULLs, distinct values, width,
// bounds) into an Iceberg statistics file, which the planner's join
// order and pg_stats read. Its names are checked as PostgreSQL checks
// them: each table must exist and be visible to the caller (42P01
// otherwise, exactly as a SELECT would say), each column must exist
// (42703) and appear once (42701). Collecting statistics changes the
// table's metadata, so it takes gate one's UPDATE_TABLE on the table, as
// PostgreSQL takes ownership: a named table the caller may not update is
// skipped with PostgreSQL's WARNING, and ANALYZE without names analyzes
// every table of the current database the caller may update, skipping
// the others silently. A view or catalog relation named is skipped with
// a WARNING, as in PostgreSQL.
//
// VACUUM has no meaning for Iceberg tables: what it does in PostgreSQL is
// done by the maintenance procedures, which it names. VACUUM ANALYZE does
// the ANALYZE and says, as a NOTICE, that the rest is theirs.
func (s *Session) runVacuum(ctx context.Context, stmt *pg_query.VacuumStmt, query string) (Result, error) {
	analyze := !stmt.IsVacuumcmd
	for _, o := range stmt.Options {
		if o.GetDefElem().GetDefname() == "analyze" {
			analyze = true
		}
	}
	if stmt.IsVacuumcmd && !analyze {
		return nil, pgerror.New(pgerror.FeatureNotSupported, "VACUUM is not supported: Iceberg tables are maintained by procedures").
			WithHint(vacuumHint)
	}
	if err := s.analyze(ctx, stmt, query); err != nil {
		return nil, err
	}
	if stmt.IsVacuumcmd {
		s.notice(pgerror.SuccessfulCompletion, "", "VACUUM of Iceberg tables is done by procedures; only ANALYZE was run. %s", vacuumHint)
		return commandResult("VACUUM"), nil
	}
	return commandResult("ANALYZE"), nil
}

// vacuumHint names the procedures that do VACUUM's work.
const vacuumHint = "Compact a table's files with CALL system.rewrite_data_files(table => 'schema.table'); remove old snapshots and the files only they use with CALL system.expire_snapshots(table => 'schema.table')."

// analyze checks every named relation first, so that a wrong name fails
// the statement before any table is analyzed, then analyzes them (or,
// with none named, every table the caller may update).
func (s *Session) analyze(ctx context.Context, stmt *pg_query.VacuumStmt, query string) error {
	type target struct {
		rel     *pg_query.VacuumRelation
		columns []string
	}
	var targets []target
	for _, n := range stmt.Rels {
		rel := n.GetVacuumRelation()
		if rel == nil || rel.Relation == nil {
			return pgerror.Unsupported("this form of ANALYZE is not supported yet")
		}
		if err := s.checkAnalyzeRelation(ctx, rel, query); err != nil {
			return err
		}
		tg := target{rel: rel}
		for _, c := range rel.VaCols {
			tg.columns = append(tg.columns, c.GetString_().GetSval())
		}
		targets = append(targets, tg)
	}
	if len(targets) == 0 {
		return s.analyzeAll(ctx)
	}
	for _, tg := range targets {
		if err := s.analyzeNamed(ctx, tg.rel.Relation, tg.columns, query); err != nil {
			return err
		}
	}
	return nil
}

// analyzeNamed analyzes one table the statement names.
func (s *Session) analyzeNamed(ctx context.Context, rv *pg_query.RangeVar, columns []string, query string) error {
	target, err := s.resolveWriteTarget(ctx, rv, query)
	if pgerror.Code(err) == pgerror.InsufficientPrivilege {
		s.warn("skipping \"%s\" --- cannot analyze non-tables or special system tables", rv.Relname)
		return nil
	}
	if err != nil {
		return err
	}
	_, err = target.adapter.t.Analyze(s.callerContext(ctx), columns)
	if errors.Is(err, storage.ErrForbidden) {
		s.warn("skipping \"%s\" --- only table or database owner can analyze it", rv.Relname)
		return nil
	}
	if err != nil {
		return fmt.Errorf("analyze %s: %w", rv.Relname, err)
	}
	return nil
}

// analyzeAll analyzes every table of the current database that the
// caller may see and update; the others are skipped without a word, so
// that the statement says nothing of tables the caller cannot see.
func (s *Session) analyzeAll(ctx context.Context) error {
	cat, err := s.engine.catalog(s.database)
	if err != nil {
		return err
	}
	ctx = s.callerContext(ctx)
	namespaces, err := visibleNamespaces(ctx, cat)
	if err != nil {
		return err
	}
	for _, ns := range namespaces {
		names, err := cat.ListTables(ctx, ns)
		if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchNamespace) {
			continue
		}
		if err != nil {
			return fmt.Errorf("list tables of %s: %w", ns, err)
		}
		for _, name := range names {
			t, err := cat.LoadTable(ctx, ns, name)
			if errors.Is(err, storage.ErrForbidden) || errors.Is(err, storage.ErrNoSuchTable) {
				continue
			}
			if err != nil {
				return fmt.Errorf("load table %s.%s: %w", ns, name, err)
			}
			if _, err := t.Analyze(ctx, nil); err != nil && !errors.Is(err, storage.ErrForbidden) {
				return fmt.Errorf("analyze %s.%s: %w", ns, name, err)
			}
		}
	}
	return nil
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
