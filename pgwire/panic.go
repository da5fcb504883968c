package pgwire

import (
	"fmt"
	"runtime/debug"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// panicError is a recovered panic of one of a connection's goroutines. The
// client gets FATAL XX000 with a request id; the value and stack go to the
// log under that id (errorResponse), and only this connection ends.
type panicError struct {
	where string
	value any
	stack []byte
}

func newPanicError(where string, value any) *panicError {
	return &panicError{where: where, value: value, stack: debug.Stack()}
}

func (e *panicError) Error() string {
	return fmt.Sprintf("panic in %s: %v\n%s", e.where, e.value, e.stack)
}

// fatal is the error the client is sent.
func (e *panicError) fatal() *pgerror.Error {
	return pgerror.Wrap(e, pgerror.InternalError, "internal error").Fatal()
}
