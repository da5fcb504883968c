package pgwire

import (
	"time"

	"github.com/sqe-db/sqe/sql/types"
)

// timestamptz values travel as UTC instants; their text form is the wall
// clock of the session's TimeZone (the parameter the session reports, and
// that ParameterStatus tells the client about when it changes). Binary
// results stay UTC microseconds, as in PostgreSQL.

// sessionZone caches the location of the session's TimeZone value.
type sessionZone struct {
	name string
	loc  *time.Location
}

// timeZone is the zone the connection's text results are printed in now.
func (c *conn) timeZone() *time.Location {
	if c.session == nil {
		return time.UTC
	}
	name := c.session.ReportedParameters()["TimeZone"]
	if c.zone.loc != nil && c.zone.name == name {
		return c.zone.loc
	}
	loc, err := types.LoadZone(name)
	if err != nil || name == "" {
		loc = time.UTC
	}
	c.zone = sessionZone{name: name, loc: loc}
	return loc
}

func zoneOrUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}
