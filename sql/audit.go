package sql

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/uuid"

	"github.com/sqe-db/sqe/governance/audit"
	"github.com/sqe-db/sqe/sql/pgerror"
)

// Auditor receives the audit records of the engine's sessions (package
// governance/audit's Auditor). Its methods must not block for long: they
// run on the session's goroutine.
type Auditor interface {
	Statement(audit.Statement)
	PrivilegeChange(audit.PrivilegeChange)
}

// auditor is the engine's Auditor, nil when auditing is off.
func (s *Session) auditor() Auditor {
	if s.engine == nil {
		return nil
	}
	return s.engine.cfg.Auditor
}

// SetClientAddr records the client's address (an IP, or a socket's path)
// for the audit log.
func (s *Session) SetClientAddr(addr string) { s.clientAddr = addr }

// auditCaller is who runs the session, for audit records.
func (s *Session) auditCaller() audit.Caller {
	return audit.Caller{SessionID: s.backend.pid, User: s.identity.User, Roles: s.identity.Roles, Database: s.database, ClientAddr: s.clientAddr}
}

// auditFailedStatement records a statement that failed before it ran
// (parse or prepare errors).
func (s *Session) auditFailedStatement(text string, start time.Time, err error) {
	if a := s.auditor(); a != nil {
		a.Statement(s.statementRecord(text, start, err, nil))
	}
}

// statementRecord is the audit record of a statement; sc, when the
// statement got as far as having one, holds the access decisions it
// needed.
func (s *Session) statementRecord(text string, start time.Time, err error, sc *statementScope) audit.Statement {
	st := audit.Statement{Caller: s.auditCaller(), Start: start, Text: text, Duration: time.Since(start), Outcome: audit.OutcomeOK,
		RequestID: uuid.NewString()}
	if sc != nil {
		st.Decisions = sc.decisions.Decisions()
	}
	if err != nil {
		pe := pgerror.From(err)
		st.Outcome, st.Error = pe.Code, pe.Message
	}
	return st
}

// statementAudit records one executed statement once: when its rows run
// out, when producing them fails, or when it is closed before the end (a
// portal closed early), with the rows returned so far. trackedResult
// drives it; it is nil when auditing is off.
type statementAudit struct {
	s        *Session
	text     string
	start    time.Time
	result   Result
	returned int64
	done     bool
	scope    *statementScope
}

// observe follows a Next.
func (r *statementAudit) observe(b arrow.RecordBatch, err error) {
	switch {
	case err != nil:
		r.finish(err)
	case b == nil:
		r.finish(nil)
	default:
		r.returned += b.NumRows()
	}
}

func (r *statementAudit) finish(err error) {
	if r.done {
		return
	}
	r.done = true
	st := r.s.statementRecord(r.text, r.start, err, r.scope)
	if err == nil {
		st.Rows, st.HasRows = tagRows(r.result.CommandTag())
		if !st.HasRows && r.returned > 0 {
			st.Rows, st.HasRows = r.returned, true
		}
	}
	r.s.auditor().Statement(st)
}

// auditedCopyIn records the outcome of a COPY FROM STDIN's load, which
// runs outside Next.
type auditedCopyIn struct {
	CopyInResult
	audit *statementAudit
}

func (c auditedCopyIn) Load(ctx context.Context, src io.Reader) error {
	err := c.CopyInResult.Load(ctx, src)
	if err != nil {
		c.audit.finish(err)
	}
	return err
}

// tagRows is the row count a command tag ends with ("SELECT 3",
// "INSERT 0 5"), if it has one.
func tagRows(tag string) (int64, bool) {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(tag[i+1:], 10, 64)
	return n, err == nil
}

// auditChange records a privilege change and its result.
func (s *Session) auditChange(action string, privileges []string, object string, grantees []string, err error) {
	RecordPrivilegeChange(s.auditor(), s.auditCaller(), action, privileges, object, grantees, err)
}

// RecordPrivilegeChange gives a an audit record of a privilege change
// made by caller, with err's SQLSTATE and message as its result; nothing
// when a is nil (auditing off). Changes made outside a session (the
// demo's) are recorded the same way.
func RecordPrivilegeChange(a Auditor, caller audit.Caller, action string, privileges []string, object string, grantees []string, err error) {
	if a == nil {
		return
	}
	c := audit.PrivilegeChange{Caller: caller, Time: time.Now(), Action: action, Privileges: privileges,
		Object: object, Grantees: grantees, Result: audit.OutcomeOK}
	if err != nil {
		pe := pgerror.From(err)
		c.Result, c.Error = pe.Code, pe.Message
	}
	a.PrivilegeChange(c)
}
