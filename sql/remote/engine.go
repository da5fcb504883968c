package remote

import (
	"context"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/sqlwrite"
)

// Engine is another engine that can run a written statement.
type Engine interface {
	// Name is the engine's name in the configuration.
	Name() string
	// Dialect is the SQL dialect statements are written in for it.
	Dialect() sqlwrite.Dialect
	// Catalogs maps SQE's catalog names to the engine's.
	Catalogs() sqlwrite.Catalogs
	// Query runs sql, whose result columns are cols in order, and streams
	// its rows as batches of the columns' Arrow types. Closing the stream
	// before its end cancels the query on the engine; so does ctx.
	Query(ctx context.Context, sql string, cols []planner.Column) (Stream, error)
}

// Stream is the answer of a query on an engine.
type Stream interface {
	planner.RecordStream
	// BytesRead is how many bytes of answer the engine has sent so far.
	BytesRead() int64
}

// ZoneFollower is an Engine that runs each statement in the time zone
// the statement's context names (WithTimeZone), so that what reads the
// zone gives the caller's answer there too.
type ZoneFollower interface {
	Engine
	FollowsTimeZone() bool
}

type timeZoneKey struct{}

// WithTimeZone names the caller's TimeZone for the engine's statement.
func WithTimeZone(ctx context.Context, zone string) context.Context {
	return context.WithValue(ctx, timeZoneKey{}, zone)
}

// TimeZoneOf is the zone WithTimeZone named, "" when none.
func TimeZoneOf(ctx context.Context) string {
	z, _ := ctx.Value(timeZoneKey{}).(string)
	return z
}
