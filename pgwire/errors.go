package pgwire

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"strings"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Every error a client sees goes through errorResponse: statement errors
// of the simple and extended protocols and of COPY in either direction,
// and the FATAL errors of startup, login and connection end.
//
// A user error (a *pgerror.Error of any class but XX and 58: 42P01,
// 42501, 22012, ...) is sent as it was made, in PostgreSQL's wording. An
// internal error is everything else: XX000, class 58 (a system SQE
// depends on failed: a file, the object store, a catalog service, Ranger)
// and any error made without a SQLSTATE. Its cause may name files, hosts,
// Go types or carry an upstream HTTP body, so it goes to the log under a
// short random request id, and the client gets the SQLSTATE, the short
// message (generic for XX000) and that id; with Config.Debug the cause
// also goes to the client, as the DETAIL.

// errorResponse turns err into the ErrorResponse a client sees.
func (c *conn) errorResponse(err error) *pgproto3.ErrorResponse {
	pe := clientError(c.logger, c.srv.cfg.Debug, err)
	sev := pe.Severity
	if sev == "" {
		sev = pgerror.SeverityError
	}
	return &pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                pe.Code,
		Message:             pe.Message,
		Detail:              pe.Detail,
		Hint:                pe.Hint,
		Where:               pe.Where,
		Position:            pe.Position,
	}
}

// clientError is the form of err the client may see: pgerror.From, with
// internal errors logged and reduced (see above).
func clientError(logger *slog.Logger, debug bool, err error) *pgerror.Error {
	pe := pgerror.From(err)
	if !isInternal(pe.Code) {
		return pe
	}
	id := newRequestID()
	cause := internalCause(err, pe)
	logger.Error("internal error", "request_id", id, "code", pe.Code, "message", pe.Message, "cause", cause)
	msg := pe.Message
	if pe.Code == pgerror.InternalError {
		msg = "internal error"
	}
	out := pgerror.New(pe.Code, "%s (request id %s)", msg, id)
	if debug {
		out = out.WithDetail("%s", cause)
	}
	if pe.Severity == pgerror.SeverityFatal {
		out = out.Fatal()
	}
	return out
}

// isInternal reports whether an error of this SQLSTATE is SQE's own
// failure or that of a system behind it, rather than the user's.
func isInternal(code string) bool {
	return code == pgerror.InternalError || strings.HasPrefix(code, "XX") || strings.HasPrefix(code, "58")
}

// internalCause is everything known about an internal error, for the log:
// the text of err (which includes what wrapped the *pgerror.Error), the
// error's own detail and hint, and its cause.
func internalCause(err error, pe *pgerror.Error) string {
	parts := []string{err.Error()}
	if pe.Detail != "" {
		parts = append(parts, "detail: "+pe.Detail)
	}
	if pe.Hint != "" {
		parts = append(parts, "hint: "+pe.Hint)
	}
	if cause := errors.Unwrap(pe); cause != nil && cause != err {
		parts = append(parts, "cause: "+cause.Error())
	}
	return strings.Join(parts, "; ")
}

// newRequestID returns 8 random hex characters: enough to find one log line,
// too short to be mistaken for anything secret.
func newRequestID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "00000000"
	}
	return hex.EncodeToString(b[:])
}

// fatal makes a FATAL error with the given code.
func fatal(code, format string, args ...any) *pgerror.Error {
	return pgerror.New(code, format, args...).Fatal()
}
