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
