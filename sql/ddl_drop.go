package sql

import (
	"context"
	"errors"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// runDropTable drops tables. Every name is resolved first, so a missing
// one (without IF EXISTS) drops none of them. Views that read a dropped
// table stop the drop, or with CASCADE are dropped too.
func (s *Session) runDropTable(ctx context.Context, st *pg_query.DropStmt) (Result, error) {
	type target struct {
		cat storage.Catalog
		t   *storage.Table
	}
	var targets []target
	for _, o := range st.Objects {
		rv, err := rangeVarFromList(o)
		if err != nil {
			return nil, err
		}
		cat, t, v, err := s.findRelation(ctx, rv)
		if err == nil && v != nil {
			return nil, notATable(rv.Relname)
		}
		if errors.Is(err, storage.ErrNoSuchTable) || (errors.Is(err, storage.ErrNoSuchNamespace) && st.MissingOk) {
			if !st.MissingOk {
				return nil, pgerror.Wrap(err, pgerror.UndefinedTable, "table \"%s\" does not exist", rv.Relname)
			}
			if errors.Is(err, storage.ErrNoSuchNamespace) {
				s.notice(pgerror.SuccessfulCompletion, "", "schema \"%s\" does not exist, skipping", rv.Schemaname)
			} else {
				s.notice(pgerror.SuccessfulCompletion, "", "table \"%s\" does not exist, skipping", rv.Relname)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		targets = append(targets, target{cat, t})
	}
	if len(targets) > 0 {
		dropped := make(map[storage.Ident]string, len(targets))
		for _, tg := range targets {
			dropped[tg.t.Ident()] = "table"
		}
		cascaded, err := s.checkDependents(ctx, targets[0].cat, "table", dropped, st.Behavior == pg_query.DropBehavior_DROP_CASCADE)
		if err != nil {
			return nil, err
		}
		if err := dropViews(ctx, targets[0].cat, cascaded); err != nil {
			return nil, err
		}
	}
	for _, tg := range targets {
		id := tg.t.Ident()
		if err := tg.cat.DropTable(ctx, id.Namespace, id.Table); err != nil && !errors.Is(err, storage.ErrNoSuchTable) {
			return nil, err
		}
	}
	return commandResult("DROP TABLE"), nil
}

// rangeVarFromList reads a dotted name ([catalog.][schema.]table) as
// DROP and COMMENT carry it: a list of strings.
func rangeVarFromList(n *pg_query.Node) (*pg_query.RangeVar, error) {
	var parts []string
	for _, it := range n.GetList().GetItems() {
		parts = append(parts, it.GetString_().GetSval())
	}
	return rangeVarFromParts(parts)
}

func rangeVarFromParts(parts []string) (*pg_query.RangeVar, error) {
	switch len(parts) {
	case 1:
		return &pg_query.RangeVar{Relname: parts[0]}, nil
	case 2:
		return &pg_query.RangeVar{Schemaname: parts[0], Relname: parts[1]}, nil
	case 3:
		return &pg_query.RangeVar{Catalogname: parts[0], Schemaname: parts[1], Relname: parts[2]}, nil
	}
	return nil, pgerror.New(pgerror.SyntaxError, "improper relation name (too many dotted names)")
}

// runTruncate empties tables, one Iceberg delete snapshot per table. All
// names are resolved before any table is emptied.
func (s *Session) runTruncate(ctx context.Context, st *pg_query.TruncateStmt) (Result, error) {
	if st.RestartSeqs {
		return nil, pgerror.Unsupported("TRUNCATE ... RESTART IDENTITY is not supported: there are no sequences")
	}
	var tables []*storage.Table
	for _, r := range st.Relations {
		rv := r.GetRangeVar()
		if rv == nil {
			return nil, pgerror.New(pgerror.SyntaxError, "unexpected object in TRUNCATE")
		}
		_, t, err := s.findTable(ctx, rv)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	for _, t := range tables {
		if _, err := t.Truncate(ctx); err != nil {
			return nil, err
		}
	}
	return commandResult("TRUNCATE TABLE"), nil
}
