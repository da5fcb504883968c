package functions

import "github.com/sqe-db/sqe/sql/types"

// Argument rules of the json functions whose parameters are PostgreSQL's
// "any" or anyelement: the kernels render each argument by its own type,
// as to_json does.

// jsonAnyArgs accepts any number of arguments of any type (the build
// functions); an untyped literal is text, as PostgreSQL reads an unknown
// argument of a VARIADIC "any" function.
func jsonAnyArgs(result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		out := make([]types.T, len(args))
		for i, a := range args {
			if a.OID == types.OIDUnknown {
				a = types.Text
			}
			out[i] = a
		}
		return out, result, true
	}
}

// toJSONArgs accepts one argument of a known type (to_json(anyelement)
// cannot take an untyped literal).
func toJSONArgs(result types.T) func([]types.T) ([]types.T, types.T, bool) {
	return func(args []types.T) ([]types.T, types.T, bool) {
		if len(args) != 1 || args[0].OID == types.OIDUnknown {
			return nil, types.T{}, false
		}
		return args, result, true
	}
}

// Leakproofness of the json functions: json_build_object and
// jsonb_build_object fail on a NULL key or an odd number of arguments,
// so they are not leakproof; building an array, to_json and reprinting a
// valid json value (strip_nulls, jsonb_pretty) cannot fail.
