package sql

import (
	"time"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/sql/pgerror"
	"github.com/sqe-db/sqe/sql/types"
)

// terminateWaitStep is how often pg_terminate_backend with a timeout looks
// whether the connection it terminated has closed.
const terminateWaitStep = 5 * time.Millisecond

// backendFunction resolves pg_backend_pid, pg_cancel_backend and
// pg_terminate_backend; ok is false for any other name or arity. None is
// leakproof: the signalling ones act on another connection, and all of
// them answer from the server rather than from their arguments.
func (i sessionInfo) backendFunction(name string, args []types.T) (*planner.SessionFunction, bool) {
	s := i.s
	fn := func(argTypes []types.T, result types.T, eval planner.RowFunc) (*planner.SessionFunction, bool) {
		return &planner.SessionFunction{ArgTypes: argTypes, Result: result, Eval: eval}, true
	}
	switch {
	case name == "pg_backend_pid" && len(args) == 0:
		return fn(nil, types.Int4, func([]any) (any, error) {
			if s.backend.pid == 0 {
				return nil, nil
			}
			return int64(s.backend.pid), nil
		})
	case name == "pg_cancel_backend" && len(args) == 1:
		return fn([]types.T{types.Int4}, types.Bool, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			return s.signalBackend(int32(a[0].(int64)), false, 0)
		})
	case name == "pg_terminate_backend" && (len(args) == 1 || len(args) == 2):
		argTypes := []types.T{types.Int4, types.Int8}[:len(args)]
		return fn(argTypes, types.Bool, func(a []any) (any, error) {
			if a[0] == nil || (len(a) == 2 && a[1] == nil) {
				return nil, nil
			}
			var timeout int64
			if len(a) == 2 {
				timeout = a[1].(int64)
			}
			return s.signalBackend(int32(a[0].(int64)), true, timeout)
		})
	}
	return nil, false
}

// signalBackend cancels the running statement of, or terminates, the
// connection pid, with PostgreSQL's rules: a pid that is no connection of
// this server warns and gives false; a caller may signal only its own
// user's connections unless it is a superuser, and only a superuser may
// signal a superuser's. A termination with a timeout (milliseconds) waits
// that long for the connection to close and gives false, with a warning,
// if it has not.
func (s *Session) signalBackend(pid int32, terminate bool, timeoutMS int64) (any, error) {
	if timeoutMS < 0 {
		return nil, pgerror.New(pgerror.InvalidParameterValue, "\"timeout\" must not be negative")
	}
	var target Backend
	found := false
	if s.backend.registry != nil {
		target, found = s.backend.registry.Lookup(pid)
	}
	if !found {
		s.warn("PID %d is not a PostgreSQL backend process", pid)
		return false, nil
	}
	if err := signalPermission(s.BackendOwner(), target.Owner(), terminate); err != nil {
		return nil, err
	}
	if !terminate {
		target.CancelQuery()
		return true, nil
	}
	target.Terminate()
	if timeoutMS == 0 || pid == s.backend.pid {
		return true, nil
	}
	deadline := time.Now().Add(time.Duration(timeoutMS) * time.Millisecond)
	for !target.Ended() {
		if !time.Now().Before(deadline) {
			s.warn("backend with PID %d did not terminate within %d milliseconds", pid, timeoutMS)
			return false, nil
		}
		time.Sleep(min(terminateWaitStep, time.Until(deadline)))
	}
	return true, nil
}

// signalPermission is PostgreSQL's rule for signalling another backend,
// with its messages: superusers may signal anyone, other callers only
// connections of their own user that are not a superuser's.
func signalPermission(caller, target BackendOwner, terminate bool) error {
	if caller.Superuser {
		return nil
	}
	msg := "permission denied to cancel query"
	superDetail := "Only roles with the SUPERUSER attribute may cancel queries of roles with the SUPERUSER attribute."
	roleDetail := "Only roles with privileges of the role whose query is being canceled or with privileges of the \"pg_signal_backend\" role may cancel this query."
	if terminate {
		msg = "permission denied to terminate process"
		superDetail = "Only roles with the SUPERUSER attribute may terminate processes of roles with the SUPERUSER attribute."
		roleDetail = "Only roles with privileges of the role whose process is being terminated or with privileges of the \"pg_signal_backend\" role may terminate this process."
	}
	switch {
	case target.Superuser:
		return pgerror.New(pgerror.InsufficientPrivilege, "%s", msg).WithDetail("%s", superDetail)
	case target.User != caller.User:
		return pgerror.New(pgerror.InsufficientPrivilege, "%s", msg).WithDetail("%s", roleDetail)
	}
	return nil
}
