package sql

import (
	"context"
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// runDropView drops views. Every name is resolved first, so a missing one
// (without IF EXISTS) or one that is not a view drops none of them.
//
// Views that read a dropped view (see propViewDependsOn) stop the drop,
// or with CASCADE are dropped too.
func (s *Session) runDropView(ctx context.Context, st *pg_query.DropStmt) (Result, error) {
	type target struct {
		cat storage.Catalog
		id  storage.Ident
	}
	var targets []target
	for _, o := range st.Objects {
		rv, err := rangeVarFromList(o)
		if err != nil {
			return nil, err
		}
		cat, t, v, err := s.findRelation(ctx, rv)
		if err == nil && t != nil {
			return nil, pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a view", rv.Relname).
				WithHint("Use DROP TABLE to remove a table.")
		}
		if errors.Is(err, storage.ErrNoSuchTable) || (errors.Is(err, storage.ErrNoSuchNamespace) && st.MissingOk) {
			if !st.MissingOk {
				return nil, pgerror.Wrap(err, pgerror.UndefinedTable, "view \"%s\" does not exist", rv.Relname)
			}
			if errors.Is(err, storage.ErrNoSuchNamespace) {
				s.notice(pgerror.SuccessfulCompletion, "", "schema \"%s\" does not exist, skipping", rv.Schemaname)
			} else {
				s.notice(pgerror.SuccessfulCompletion, "", "view \"%s\" does not exist, skipping", rv.Relname)
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		targets = append(targets, target{cat, v.Ident})
	}
	if len(targets) > 0 {
		cat := targets[0].cat
		dropped := make(map[storage.Ident]string, len(targets))
		for _, tg := range targets {
			dropped[tg.id] = "view"
		}
		cascaded, err := s.checkDependents(ctx, cat, "view", dropped, st.Behavior == pg_query.DropBehavior_DROP_CASCADE)
		if err != nil {
			return nil, err
		}
		if err := dropViews(ctx, cat, cascaded); err != nil {
			return nil, err
		}
	}
	for _, tg := range targets {
		if err := dropViews(ctx, tg.cat, []storage.Ident{tg.id}); err != nil {
			return nil, err
		}
	}
	return commandResult("DROP VIEW"), nil
}

// findRelation resolves rv to the table or view it names, as PostgreSQL
// resolves a relation name: per schema of search_path, whichever kind
// holds the name. A missing relation is 42P01 wrapping ErrNoSuchTable.
func (s *Session) findRelation(ctx context.Context, rv *pg_query.RangeVar) (storage.Catalog, *storage.Table, *storage.View, error) {
	cat, err := s.ddlCatalog(rv.Catalogname)
	if err != nil {
		return nil, nil, nil, err
	}
	schemas := []string{rv.Schemaname}
	if rv.Schemaname == "" {
		schemas = s.settings.searchPath(s.identity.User)
	} else if err := refuseCatalogSchema(rv.Schemaname); err != nil {
		return nil, nil, nil, err
	}
	vc, _ := cat.(storage.ViewCatalog)
	for _, ns := range schemas {
		if rv.Schemaname == "" && (ns == pgCatalogSchema || ns == informationSchema) {
			continue
		}
		t, err := cat.LoadTable(ctx, ns, rv.Relname)
		switch {
		case err == nil:
			return cat, t, nil, nil
		case errors.Is(err, storage.ErrNoSuchNamespace) && rv.Schemaname != "":
			return nil, nil, nil, err
		case errors.Is(err, storage.ErrNoSuchNamespace):
			continue
		case !errors.Is(err, storage.ErrNoSuchTable):
			return nil, nil, nil, err
		}
		if vc == nil {
			continue
		}
		v, err := vc.LoadView(ctx, ns, rv.Relname)
		switch {
		case err == nil:
			return cat, nil, v, nil
		case errors.Is(err, storage.ErrNoSuchView), errors.Is(err, storage.ErrNoSuchNamespace):
			continue
		default:
			return nil, nil, nil, err
		}
	}
	return nil, nil, nil, pgerror.Wrap(fmt.Errorf("%w: %s", storage.ErrNoSuchTable, rv.Relname),
		pgerror.UndefinedTable, "relation \"%s\" does not exist", rangeVarName(rv))
}

// notATable refuses a table command on a view, with PostgreSQL's hint.
func notATable(name string) error {
	return pgerror.New(pgerror.WrongObjectType, "\"%s\" is not a table", name).
		WithHint("Use DROP VIEW to remove a view.")
}

// schemaViews lists the views in ns, for DROP SCHEMA.
func (s *Session) schemaViews(ctx context.Context, cat storage.Catalog, ns string) ([]string, error) {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil, nil
	}
	return vc.ListViews(ctx, ns)
}

// dropSchemaViews drops the views of a schema DROP SCHEMA CASCADE removes.
func dropSchemaViews(ctx context.Context, cat storage.Catalog, ns string, views []string) error {
	vc, ok := cat.(storage.ViewCatalog)
	if !ok {
		return nil
	}
	for _, v := range views {
		if err := vc.DropView(ctx, ns, v); err != nil && !errors.Is(err, storage.ErrNoSuchView) {
			return err
		}
	}
	return nil
}
