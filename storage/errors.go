package storage

import (
	"errors"
	"fmt"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Sentinel errors; test for them with errors.Is. The errors this package
// returns wrap them inside a *pgerror.Error that carries the SQLSTATE.
var (
	ErrNoSuchNamespace = errors.New("no such namespace")
	ErrNoSuchTable     = errors.New("no such table")
	ErrAlreadyExists   = errors.New("already exists")
	// ErrNotEmpty is a namespace that still holds tables.
	ErrNotEmpty  = errors.New("not empty")
	ErrForbidden = errors.New("forbidden")
	// ErrConstraint is a batch that does not fit the table: a NULL in a
	// NOT NULL column, or a column that is missing or of the wrong type.
	ErrConstraint = errors.New("constraint violation")
	// ErrCommitConflict is a commit that kept losing to concurrent writers.
	ErrCommitConflict = errors.New("commit conflict")
)

func noSuchNamespace(ns string, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrNoSuchNamespace, ns, cause),
		pgerror.InvalidSchemaName, "schema %q does not exist", ns)
}

func noSuchTable(id Ident, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrNoSuchTable, id, cause),
		pgerror.UndefinedTable, "relation %q does not exist", id.Namespace+"."+id.Table)
}

func namespaceExists(ns string, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrAlreadyExists, ns, cause),
		pgerror.DuplicateSchema, "schema %q already exists", ns)
}

func tableExists(id Ident, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s: %w", ErrAlreadyExists, id, cause),
		pgerror.DuplicateTable, "relation %q already exists", id.Namespace+"."+id.Table)
}

func notNullViolation(column string) error {
	return pgerror.Wrap(fmt.Errorf("%w: NULL in NOT NULL column %q", ErrConstraint, column),
		pgerror.NotNullViolation, "null value in column %q violates not-null constraint", column)
}

func columnTypeMismatch(column, want, got string) error {
	return pgerror.Wrap(fmt.Errorf("%w: column %q is %s, batch has %s", ErrConstraint, column, want, got),
		pgerror.DatatypeMismatch, "column %q is of type %s but expression is of type %s", column, want, got)
}

func missingColumn(column string) error {
	return pgerror.Wrap(fmt.Errorf("%w: batch lacks column %q", ErrConstraint, column),
		pgerror.DatatypeMismatch, "missing value for column %q", column)
}

func unknownColumn(table Ident, column string) error {
	return pgerror.New(pgerror.UndefinedColumn, "column %q of relation %q does not exist", column, table.Table)
}

func commitConflict(id Ident, attempts int, cause error) error {
	return pgerror.Wrap(fmt.Errorf("%w: %s after %d attempts: %w", ErrCommitConflict, id, attempts, cause),
		pgerror.SerializationFailure, "could not serialize access due to concurrent update")
}
