package pgcatalog

import "context"

// Relations whose rows are PostgreSQL's built-in ones (builtin_pg15.go),
// the same for every caller.

// fixedRows returns a relation's built-in rows. The rows are shared and
// only read.
func fixedRows(rows []row) rowFunc {
	return func(context.Context, Source) ([]row, error) { return rows, nil }
}

// noRows is the content of relations for objects SQE does not have
// (indexes, constraints, triggers, policies, ...).
func noRows(context.Context, Source) ([]row, error) { return nil, nil }

// Function is what pg_get_function_result and pg_get_function_arguments
// need of a pg_proc row.
type Function struct {
	Name       string
	ResultType uint32
	ReturnsSet bool
	ArgTypes   []uint32
}

// BuiltinFunction finds a built-in pg_proc row by OID. SQE has no
// user-defined functions, so every function OID is a built-in one.
func BuiltinFunction(oid uint32) (Function, bool) {
	for _, r := range builtinProcs {
		if r["oid"] == oid {
			return Function{
				Name:       r["proname"].(string),
				ResultType: r["prorettype"].(uint32),
				ReturnsSet: r["proretset"].(bool),
				ArgTypes:   r["proargtypes"].([]uint32),
			}, true
		}
	}
	return Function{}, false
}

// BuiltinFunctionOIDs are the OIDs of the built-in functions named name,
// in pg_proc order.
func BuiltinFunctionOIDs(name string) []uint32 {
	var out []uint32
	for _, r := range builtinProcs {
		if r["proname"] == name {
			out = append(out, r["oid"].(uint32))
		}
	}
	return out
}
