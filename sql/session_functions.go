package sql

import (
	"strings"
	"time"

	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/types"
)

// Function resolves the functions a session computes row by row: those
// that answer from the session or the server rather than from their
// arguments alone.
func (i sessionInfo) Function(name string, args []types.T) (*planner.SessionFunction, bool, error) {
	fixed := func(argTypes []types.T, result types.T, eval planner.RowFunc) (*planner.SessionFunction, bool, error) {
		if len(args) != len(argTypes) {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: argTypes, Result: result, Eval: eval, Leakproof: true}, true, nil
	}
	switch name {
	case "pg_is_in_recovery":
		return fixed(nil, types.Bool, func([]any) (any, error) { return false, nil })
	case "pg_postmaster_start_time":
		start := i.s.engine.started.UnixMicro()
		return fixed(nil, types.TimestampTZ, func([]any) (any, error) { return start, nil })
	case "pg_encoding_to_char":
		return fixed([]types.T{types.Int4}, types.Name, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			if a[0].(int64) == 6 { // PG_UTF8
				return "UTF8", nil
			}
			return "", nil
		})
	case "set_config":
		// Not leakproof: it writes its argument where SHOW reads it back.
		if len(args) != 3 {
			return nil, false, nil
		}
		return &planner.SessionFunction{ArgTypes: []types.T{types.Text, types.Text, types.Bool}, Result: types.Text, Eval: i.s.setConfig}, true, nil
	case "quote_ident":
		return fixed([]types.T{types.Text}, types.Text, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			return quoteIdent(a[0].(string)), nil
		})
	case "format_type":
		return fixed([]types.T{types.OID, types.Int4}, types.Text, func(a []any) (any, error) {
			if a[0] == nil {
				return nil, nil
			}
			typmod := int64(-1)
			if a[1] != nil {
				typmod = a[1].(int64)
			}
			return formatType(uint32(a[0].(int64)), int32(typmod)), nil
		})
	}
	if f, ok := i.backendFunction(name, args); ok {
		return f, true, nil
	}
	if f, ok := identFunction(name, args); ok {
		return f, true, nil
	}
	return i.catalogFunction(name, args)
}

// quoteIdent quotes an identifier as PostgreSQL's quote_ident does.
func quoteIdent(s string) string { return exec.QuoteIdent(s) }

// formatType is format_type(oid, typmod) for the types SQE knows; others
// print as PostgreSQL prints an unknown type, ???.
func formatType(oid uint32, typmod int32) string {
	t := types.T{OID: oid}
	switch oid {
	case types.OIDNumeric:
		if typmod >= 4 {
			t.Precision, t.Scale = (typmod-4)>>16, (typmod-4)&0xffff
		}
	case types.OIDVarchar, types.OIDBpchar:
		if typmod >= 4 {
			t.Precision = typmod - 4
		}
	}
	name := t.Name()
	if strings.HasPrefix(name, "oid ") {
		return "???"
	}
	return name
}

// startTime is when the engine was created (pg_postmaster_start_time).
func startTime() time.Time { return time.Now() }
