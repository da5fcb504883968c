package sql

import (
	"github.com/sqe-db/sqe/planner"
	"github.com/sqe-db/sqe/planner/exec"
	"github.com/sqe-db/sqe/sql/types"
)

// identFunction resolves parse_ident(text [, strict boolean]), which
// Grafana uses to split the table name a user typed: text[] of the name's
// parts. It is computed row by row like quote_ident. It is not leakproof:
// malformed input raises an error that quotes the input.
func identFunction(name string, args []types.T) (*planner.SessionFunction, bool) {
	if name != "parse_ident" || len(args) < 1 || len(args) > 2 {
		return nil, false
	}
	if args[0].Family() != types.FamilyString && args[0].OID != types.OIDUnknown {
		return nil, false
	}
	argTypes := []types.T{types.Text}
	if len(args) == 2 {
		if args[1].OID != types.OIDBool && args[1].OID != types.OIDUnknown {
			return nil, false
		}
		argTypes = append(argTypes, types.Bool)
	}
	return &planner.SessionFunction{ArgTypes: argTypes, Result: types.TextArray, Eval: func(a []any) (any, error) {
		for _, v := range a {
			if v == nil {
				return nil, nil
			}
		}
		strict := true
		if len(a) == 2 {
			strict = a[1].(bool)
		}
		parts, err := exec.ParseIdent(a[0].(string), strict)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			out[i] = p
		}
		return out, nil
	}}, true
}
