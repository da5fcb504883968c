package audit

import "time"

// The record kinds.
const (
	KindStatement       = "statement"
	KindPrivilegeChange = "privilege_change"
)

// OutcomeOK is the outcome of a statement or change that succeeded;
// otherwise the outcome is the error's SQLSTATE.
const OutcomeOK = "ok"

// Caller is who ran a statement, on which session and database.
type Caller struct {
	// SessionID is the connection's process id (pg_backend_pid), 0 when
	// the session has none.
	SessionID int32
	User      string
	Roles     []string
	Database  string
	// ClientAddr is the client's address (an IP, or a socket's path),
	// empty when unknown.
	ClientAddr string
}

// Statement is one statement as a session ran it. Text is the statement
// as the client sent it; the Auditor redacts it.
type Statement struct {
	Caller   Caller
	Start    time.Time
	Text     string
	Duration time.Duration
	// Rows is the row count of the command tag (or the rows returned),
	// HasRows false for statements without one (SET, BEGIN).
	Rows    int64
	HasRows bool
	// Outcome is OutcomeOK or the SQLSTATE; Error the message of a
	// failure.
	Outcome string
	Error   string
	// Decisions are the access decisions of both gates the statement
	// needed; RequestID is the statement's id, which SinkRanger's events
	// share.
	Decisions []Decision
	RequestID string
}

// PrivilegeChange is one GRANT, REVOKE or DENY on one object, or one role
// statement.
type PrivilegeChange struct {
	Caller Caller
	Time   time.Time
	// Action is GRANT, REVOKE, DENY, GRANT ROLE, REVOKE ROLE, CREATE ROLE
	// or DROP ROLE.
	Action     string
	Privileges []string
	// Object is what the change applies to ("table c.n.t", "role r").
	Object   string
	Grantees []string
	// Result is OutcomeOK or the SQLSTATE; Error the message of a
	// failure.
	Result string
	Error  string
}

// record is one line of the log. Fields a kind does not have are left
// out.
type record struct {
	Time       string   `json:"time"`
	Kind       string   `json:"kind"`
	SessionID  int32    `json:"session_id,omitempty"`
	User       string   `json:"user"`
	Roles      []string `json:"roles"`
	Database   string   `json:"database,omitempty"`
	ClientAddr string   `json:"client_addr,omitempty"`
	Statement  *string  `json:"statement,omitempty"`
	DurationMS *float64 `json:"duration_ms,omitempty"`
	Rows       *int64   `json:"rows,omitempty"`
	Outcome    string   `json:"outcome,omitempty"`
	Error      string   `json:"error,omitempty"`

	Action     string   `json:"action,omitempty"`
	Privileges []string `json:"privileges,omitempty"`
	Object     string   `json:"object,omitempty"`
	Grantees   []string `json:"grantees,omitempty"`
	Result     string   `json:"result,omitempty"`

	Decisions []Decision `json:"decisions,omitempty"`
}

func newRecord(kind string, c Caller, t time.Time) record {
	roles := c.Roles
	if roles == nil {
		roles = []string{}
	}
	return record{Time: t.UTC().Format(time.RFC3339Nano), Kind: kind, SessionID: c.SessionID, User: c.User, Roles: roles, Database: c.Database, ClientAddr: c.ClientAddr}
}
