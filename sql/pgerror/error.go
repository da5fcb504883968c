package pgerror

import (
	"context"
	"errors"
	"fmt"
)

// Severity values as PostgreSQL sends them in the S and V fields.
const (
	SeverityError = "ERROR"
	SeverityFatal = "FATAL"
)

// Error is a user-facing error with a SQLSTATE. Its Message is safe to
// show to the client: it must never carry a hidden row's value, a token or
// an internal path.
type Error struct {
	Severity string // ERROR unless FATAL
	Code     string // five-character SQLSTATE
	Message  string
	Detail   string
	Hint     string
	Position int32  // 1-based character offset into the statement; 0 when unknown
	Where    string // CONTEXT: where the error happened ("COPY t, line 3")

	cause error // internal cause, logged only
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s (SQLSTATE %s)", e.Message, e.Code)
}

// Unwrap exposes the internal cause for logging and errors.Is checks.
func (e *Error) Unwrap() error { return e.cause }

// New makes an Error with the given code and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Severity: SeverityError, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap is New with a cause kept for the server log (never sent).
func Wrap(cause error, code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.cause = cause
	return e
}

// WithPosition returns a copy of e carrying a cursor position.
func (e *Error) WithPosition(pos int32) *Error {
	c := *e
	c.Position = pos
	return &c
}

// WithHint returns a copy of e carrying a hint.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.Hint = fmt.Sprintf(format, args...)
	return &c
}

// WithDetail returns a copy of e carrying a detail line.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.Detail = fmt.Sprintf(format, args...)
	return &c
}

// WithWhere returns a copy of e carrying a CONTEXT line.
func (e *Error) WithWhere(format string, args ...any) *Error {
	c := *e
	c.Where = fmt.Sprintf(format, args...)
	return &c
}

// Fatal returns a copy of e with FATAL severity.
func (e *Error) Fatal() *Error {
	c := *e
	c.Severity = SeverityFatal
	return &c
}

// Unsupported is the error for a construct SQE does not implement yet.
func Unsupported(format string, args ...any) *Error {
	return New(FeatureNotSupported, format, args...)
}

// From returns the user-facing form of err. A *Error anywhere in the chain
// is returned as is; a cancelled context becomes 57014; anything else is an
// internal error whose message is generic, with err kept as the cause.
func From(err error) *Error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	if errors.Is(err, context.Canceled) {
		return Wrap(err, QueryCanceled, "canceling statement due to user request")
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Wrap(err, QueryCanceled, "canceling statement due to statement timeout")
	}
	return Wrap(err, InternalError, "internal error")
}

// Code returns the SQLSTATE of err as From would report it.
func Code(err error) string {
	if err == nil {
		return SuccessfulCompletion
	}
	return From(err).Code
}
