package pgwire

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"

	"github.com/jackc/pgproto3/v2"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// errorResponse turns err into the ErrorResponse a client sees. A
// *pgerror.Error is sent as is. Anything else is an internal error: its text
// may carry internals, so it goes to the log under a short random request id
// and the client gets only that id.
func errorResponse(logger *slog.Logger, err error) *pgproto3.ErrorResponse {
	pe := userError(logger, err)
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

// userError is pgerror.From plus logging of internal errors.
func userError(logger *slog.Logger, err error) *pgerror.Error {
	var pe *pgerror.Error
	if errors.As(err, &pe) {
		if pe.Code == pgerror.InternalError {
			// Someone built an internal error on purpose; its cause still
			// belongs in the log, not on the wire.
			return internalError(logger, err, pe.Severity)
		}
		return pe
	}
	pe = pgerror.From(err)
	if pe.Code != pgerror.InternalError {
		return pe
	}
	return internalError(logger, err, pgerror.SeverityError)
}

func internalError(logger *slog.Logger, err error, severity string) *pgerror.Error {
	id := newRequestID()
	logger.Error("internal error", "request_id", id, "err", err)
	pe := pgerror.Wrap(err, pgerror.InternalError, "internal error (request id %s)", id)
	if severity == pgerror.SeverityFatal {
		pe = pe.Fatal()
	}
	return pe
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
