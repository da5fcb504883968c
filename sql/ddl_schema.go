package sql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// codeDependentObjects is PostgreSQL's dependent_objects_still_exist.
const codeDependentObjects = "2BP01"

// runCreateSchema creates a namespace in the session's database.
func (s *Session) runCreateSchema(ctx context.Context, st *pg_query.CreateSchemaStmt) (Result, error) {
	if st.Authrole != nil {
		return nil, pgerror.Unsupported("CREATE SCHEMA ... AUTHORIZATION is not supported: Iceberg namespaces have no owner")
	}
	if len(st.SchemaElts) > 0 {
		return nil, pgerror.Unsupported("CREATE SCHEMA with schema elements is not supported; create the objects separately")
	}
	if err := refuseCatalogSchema(st.Schemaname); err != nil {
		return nil, err
	}
	if strings.HasPrefix(st.Schemaname, "pg_") {
		return nil, pgerror.New("42939", "unacceptable schema name \"%s\"", st.Schemaname).
			WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	cat, err := s.ddlCatalog("")
	if err != nil {
		return nil, err
	}
	err = cat.CreateNamespace(ctx, st.Schemaname)
	if errors.Is(err, storage.ErrAlreadyExists) && st.IfNotExists {
		s.notice(pgerror.DuplicateSchema, "", "schema \"%s\" already exists, skipping", st.Schemaname)
		return commandResult("CREATE SCHEMA"), nil
	}
	if err != nil {
		return nil, err
	}
	return commandResult("CREATE SCHEMA"), nil
}

// runDropSchema drops namespaces; with CASCADE their tables go first.
// Every named schema is checked before anything is dropped, so a missing
// or non-empty one leaves all of them in place.
func (s *Session) runDropSchema(ctx context.Context, st *pg_query.DropStmt) (Result, error) {
	cat, err := s.ddlCatalog("")
	if err != nil {
		return nil, err
	}
	cascade := st.Behavior == pg_query.DropBehavior_DROP_CASCADE
	type target struct {
		ns     string
		tables []string
		views  []string
	}
	var targets []target
	var dependents []string
	for _, o := range st.Objects {
		ns := o.GetString_().GetSval()
		if ns == "" {
			return nil, pgerror.New(pgerror.SyntaxError, "unexpected object in DROP SCHEMA")
		}
		if err := refuseCatalogSchema(ns); err != nil {
			return nil, err
		}
		ok, err := cat.NamespaceExists(ctx, ns)
		if err != nil {
			return nil, err
		}
		if !ok {
			if st.MissingOk {
				s.notice(pgerror.SuccessfulCompletion, "", "schema \"%s\" does not exist, skipping", ns)
				continue
			}
			return nil, pgerror.New(pgerror.InvalidSchemaName, "schema \"%s\" does not exist", ns)
		}
		tables, err := cat.ListTables(ctx, ns)
		if err != nil {
			return nil, err
		}
		views, err := s.schemaViews(ctx, cat, ns)
		if err != nil {
			return nil, err
		}
		var objects []string
		for _, t := range tables {
			objects = append(objects, fmt.Sprintf("table %s.%s", ns, t))
		}
		for _, v := range views {
			objects = append(objects, fmt.Sprintf("view %s.%s", ns, v))
		}
		dependents = append(dependents, objects...)
		if len(objects) > 0 && !cascade {
			lines := make([]string, len(objects))
			for i, o := range objects {
				lines[i] = fmt.Sprintf("%s depends on schema %s", o, ns)
			}
			return nil, pgerror.New(codeDependentObjects, "cannot drop schema %s because other objects depend on it", ns).
				WithDetail("%s", strings.Join(lines, "\n")).
				WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		}
		targets = append(targets, target{ns: ns, tables: tables, views: views})
	}
	// Views elsewhere that read what the schemas hold go with them.
	dropped := map[storage.Ident]string{}
	for _, t := range targets {
		for _, name := range t.tables {
			dropped[storage.Ident{Catalog: cat.Name(), Namespace: t.ns, Table: name}] = "table"
		}
		for _, name := range t.views {
			dropped[storage.Ident{Catalog: cat.Name(), Namespace: t.ns, Table: name}] = "view"
		}
	}
	outside, err := s.outsideDependents(ctx, cat, dropped)
	if err != nil {
		return nil, err
	}
	for _, id := range outside {
		dependents = append(dependents, fmt.Sprintf("view %s.%s", id.Namespace, id.Table))
	}
	switch {
	case len(dependents) == 1:
		s.notice(pgerror.SuccessfulCompletion, "", "drop cascades to %s", dependents[0])
	case len(dependents) > 1:
		lines := make([]string, len(dependents))
		for i, d := range dependents {
			lines[i] = "drop cascades to " + d
		}
		s.notice(pgerror.SuccessfulCompletion, strings.Join(lines, "\n"), "drop cascades to %d other objects", len(dependents))
	}
	if err := dropViews(ctx, cat, outside); err != nil {
		return nil, err
	}
	for _, t := range targets {
		if err := dropSchemaViews(ctx, cat, t.ns, t.views); err != nil {
			return nil, err
		}
		for _, name := range t.tables {
			if err := cat.DropTable(ctx, t.ns, name); err != nil && !errors.Is(err, storage.ErrNoSuchTable) {
				return nil, err
			}
		}
		if err := cat.DropNamespace(ctx, t.ns); err != nil {
			return nil, err
		}
	}
	return commandResult("DROP SCHEMA"), nil
}
