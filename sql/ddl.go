package sql

import (
	"context"
	"errors"
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v5"

	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/storage"
)

// runDDL runs the data definition statements: CREATE/DROP SCHEMA, CREATE
// TABLE [AS], SELECT INTO, DROP TABLE, ALTER TABLE, COMMENT ON and
// TRUNCATE. ok is false for any other statement.
//
// Each statement is one or more Iceberg catalog commits that take effect
// at once and cannot be rolled back, so none may run inside a
// transaction block (SQLSTATE 25001), the way PostgreSQL refuses its own
// non-transactional commands there.
func (s *Session) runDDL(ctx context.Context, n *pg_query.Node, query string) (res Result, ok bool, err error) {
	var tag string
	var run func(context.Context) (Result, error)
	switch x := n.Node.(type) {
	case *pg_query.Node_SelectStmt:
		if x.SelectStmt.IntoClause == nil {
			return nil, false, nil
		}
		tag = "SELECT INTO"
		run = func(ctx context.Context) (Result, error) { return s.runSelectInto(ctx, x.SelectStmt, query) }
	case *pg_query.Node_CreateSchemaStmt:
		tag = "CREATE SCHEMA"
		run = func(ctx context.Context) (Result, error) { return s.runCreateSchema(ctx, x.CreateSchemaStmt) }
	case *pg_query.Node_CreateStmt:
		tag = "CREATE TABLE"
		run = func(ctx context.Context) (Result, error) { return s.runCreateTable(ctx, x.CreateStmt, query) }
	case *pg_query.Node_CreateTableAsStmt:
		tag = "CREATE TABLE AS"
		run = func(ctx context.Context) (Result, error) { return s.runCreateTableAs(ctx, x.CreateTableAsStmt, query) }
	case *pg_query.Node_DropStmt:
		switch x.DropStmt.RemoveType {
		case pg_query.ObjectType_OBJECT_SCHEMA:
			tag = "DROP SCHEMA"
			run = func(ctx context.Context) (Result, error) { return s.runDropSchema(ctx, x.DropStmt) }
		case pg_query.ObjectType_OBJECT_TABLE:
			tag = "DROP TABLE"
			run = func(ctx context.Context) (Result, error) { return s.runDropTable(ctx, x.DropStmt) }
		case pg_query.ObjectType_OBJECT_VIEW:
			tag = "DROP VIEW"
			run = func(ctx context.Context) (Result, error) { return s.runDropView(ctx, x.DropStmt) }
		default:
			return nil, false, nil
		}
	case *pg_query.Node_AlterTableStmt:
		if x.AlterTableStmt.Objtype != pg_query.ObjectType_OBJECT_TABLE {
			return nil, false, nil
		}
		tag = "ALTER TABLE"
		run = func(ctx context.Context) (Result, error) { return s.runAlterTable(ctx, x.AlterTableStmt, query) }
	case *pg_query.Node_RenameStmt:
		if x.RenameStmt.RenameType == pg_query.ObjectType_OBJECT_SCHEMA {
			// Iceberg catalogs have no namespace rename, and moving each
			// table apart would leave views that name the schema behind.
			return nil, true, pgerror.Unsupported("ALTER SCHEMA ... RENAME is not supported").
				WithDetail("An Iceberg catalog cannot rename a namespace.")
		}
		if x.RenameStmt.RelationType != pg_query.ObjectType_OBJECT_TABLE &&
			x.RenameStmt.RenameType != pg_query.ObjectType_OBJECT_TABLE {
			return nil, false, nil
		}
		tag = "ALTER TABLE"
		run = func(ctx context.Context) (Result, error) { return s.runRename(ctx, x.RenameStmt) }
	case *pg_query.Node_ViewStmt:
		tag = "CREATE VIEW"
		run = func(ctx context.Context) (Result, error) { return s.runCreateView(ctx, x.ViewStmt, query) }
	case *pg_query.Node_CommentStmt:
		tag = "COMMENT"
		run = func(ctx context.Context) (Result, error) { return s.runComment(ctx, x.CommentStmt) }
	case *pg_query.Node_TruncateStmt:
		tag = "TRUNCATE TABLE"
		run = func(ctx context.Context) (Result, error) { return s.runTruncate(ctx, x.TruncateStmt) }
	default:
		return nil, false, nil
	}
	if s.tx != nil {
		return nil, true, pgerror.New(pgerror.ActiveSQLTransaction, "%s cannot run inside a transaction block", tag)
	}
	res, err = run(s.callerContext(ctx))
	return res, true, err
}

// The severities of the NoticeResponses a statement queues.
const (
	severityNotice  = "NOTICE"
	severityWarning = "WARNING"
)

// notice queues a NOTICE for the client, as PostgreSQL sends for IF [NOT]
// EXISTS skips and cascades.
func (s *Session) notice(code, detail, format string, args ...any) {
	s.queueNotice(severityNotice, code, detail, format, args...)
}

// queueNotice queues a NoticeResponse of the given severity.
func (s *Session) queueNotice(severity, code, detail, format string, args ...any) {
	n := pgerror.New(code, format, args...)
	n.Severity = severity
	n.Detail = detail
	s.backend.mu.Lock()
	s.backend.notices = append(s.backend.notices, n)
	s.backend.mu.Unlock()
}

// ddlCatalog is the catalog a (possibly three-part) name lives in.
func (s *Session) ddlCatalog(catalogName string) (storage.Catalog, error) {
	if catalogName == "" {
		catalogName = s.database
	}
	cat, err := s.engine.catalog(catalogName)
	if err != nil {
		return nil, pgerror.New(pgerror.InvalidCatalogName, "database \"%s\" does not exist", catalogName)
	}
	return cat, nil
}

// creationSchema is where a new table named rv goes: its schema when
// qualified, else the first existing schema of search_path, as in
// PostgreSQL.
func (s *Session) creationSchema(ctx context.Context, rv *pg_query.RangeVar) (storage.Catalog, string, error) {
	if rv.Relpersistence == "t" {
		return nil, "", pgerror.Unsupported("temporary tables are not supported")
	}
	cat, err := s.ddlCatalog(rv.Catalogname)
	if err != nil {
		return nil, "", err
	}
	if rv.Schemaname != "" {
		if err := refuseCatalogSchema(rv.Schemaname); err != nil {
			return nil, "", err
		}
		return cat, rv.Schemaname, nil
	}
	for _, ns := range s.settings.searchPath(s.identity.User) {
		if ns == pgCatalogSchema || ns == informationSchema {
			continue
		}
		ok, err := cat.NamespaceExists(ctx, ns)
		if errors.Is(err, storage.ErrForbidden) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if ok {
			return cat, ns, nil
		}
	}
	return nil, "", pgerror.New(pgerror.InvalidSchemaName, "no schema has been selected to create in")
}

// refuseCatalogSchema refuses changes to the computed catalog schemas.
func refuseCatalogSchema(ns string) error {
	if ns == pgCatalogSchema || ns == informationSchema {
		return pgerror.New(pgerror.InsufficientPrivilege, "permission denied for schema %s", ns)
	}
	return nil
}

// findTable loads an existing table named rv: in its schema when
// qualified, else in the first schema of search_path that has it. A
// missing table is 42P01 with PostgreSQL's wording.
func (s *Session) findTable(ctx context.Context, rv *pg_query.RangeVar) (storage.Catalog, *storage.Table, error) {
	cat, err := s.ddlCatalog(rv.Catalogname)
	if err != nil {
		return nil, nil, err
	}
	schemas := []string{rv.Schemaname}
	if rv.Schemaname == "" {
		schemas = s.settings.searchPath(s.identity.User)
	} else if err := refuseCatalogSchema(rv.Schemaname); err != nil {
		return nil, nil, err
	}
	for _, ns := range schemas {
		if rv.Schemaname == "" && (ns == pgCatalogSchema || ns == informationSchema) {
			continue
		}
		t, err := cat.LoadTable(ctx, ns, rv.Relname)
		switch {
		case err == nil:
			return cat, t, nil
		case errors.Is(err, storage.ErrNoSuchNamespace) && rv.Schemaname != "":
			return nil, nil, err
		case errors.Is(err, storage.ErrNoSuchTable), errors.Is(err, storage.ErrNoSuchNamespace):
			continue
		default:
			return nil, nil, err
		}
	}
	return nil, nil, pgerror.Wrap(fmt.Errorf("%w: %s", storage.ErrNoSuchTable, rv.Relname),
		pgerror.UndefinedTable, "relation \"%s\" does not exist", rangeVarName(rv))
}

// rangeVarName is the name as written, for messages.
func rangeVarName(rv *pg_query.RangeVar) string {
	out := rv.Relname
	if rv.Schemaname != "" {
		out = rv.Schemaname + "." + out
	}
	if rv.Catalogname != "" {
		out = rv.Catalogname + "." + out
	}
	return out
}
