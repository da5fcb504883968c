package sql

import (
	"context"
	"runtime"
	"time"
)

// sessionInfo is what planner.SessionInfo asks of a session.
type sessionInfo struct{ s *Session }

func (i sessionInfo) User() string     { return i.s.identity.User }
func (i sessionInfo) Database() string { return i.s.database }

func (i sessionInfo) Setting(name string) (string, error) { return i.s.settings.get(name) }

// TimeZone is the session's TimeZone, for the binder's folded constants.
func (i sessionInfo) TimeZone() *time.Location { return i.s.settings.timeZone() }

// Version is version()'s text; clients (SQLAlchemy, JDBC) parse the
// PostgreSQL release out of it.
func (i sessionInfo) Version() string {
	return "PostgreSQL " + i.s.engine.cfg.ServerVersion + " (SQE) on " + runtime.GOARCH + "-" + runtime.GOOS + ", compiled by " + runtime.Version()
}

// CurrentSchema is the first search_path entry that exists and that the
// caller may see.
func (i sessionInfo) CurrentSchema(ctx context.Context) string {
	cat, err := i.s.engine.catalog(i.s.database)
	if err != nil {
		return ""
	}
	ctx = i.s.callerContext(ctx)
	for _, ns := range i.s.settings.searchPath(i.s.identity.User) {
		// public, pg_catalog and information_schema always exist, as in
		// PostgreSQL (pg_catalog lists them).
		if ns == "public" || ns == "pg_catalog" || ns == "information_schema" {
			return ns
		}
		if ok, err := cat.NamespaceExists(ctx, ns); err == nil && ok {
			return ns
		}
	}
	return ""
}
