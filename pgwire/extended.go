package pgwire

import (
	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// handleExtended is where the extended query protocol (Parse, Bind,
// Describe, Execute, Close) plugs in. It will keep the connection's
// prepared statements and portals (per-connection maps owned by the
// handler goroutine) and answer with ParseComplete, BindComplete,
// ParameterDescription / RowDescription / NoData, DataRows and
// CommandComplete / PortalSuspended. A returned error is sent as an
// ErrorResponse and the rest of the batch is skipped up to Sync (see
// handle). Until then every such message is refused.
func (c *conn) handleExtended(pgproto3.FrontendMessage) error {
	return pgerror.Unsupported("extended query protocol is not supported yet")
}
