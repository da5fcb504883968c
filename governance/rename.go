package governance

import (
	"context"
	"fmt"
)

// RenameKind says which level of the catalog a rename moves.
type RenameKind int

// The renames a schema change makes.
const (
	RenameNamespace RenameKind = iota + 1
	RenameTable
	RenameColumn
)

// ObjectRename is a schema change that gives an object a new name: a
// namespace (ALTER SCHEMA ... RENAME TO), a table or view (ALTER TABLE
// ... RENAME TO) or a column (ALTER TABLE ... RENAME COLUMN).
//
// Policies are written by name, so a rename would silently take the
// object out of every policy that named it: a masked column would read
// raw under its new name. Every policy store that keeps policies by name
// is therefore told of a rename before and after the catalog makes it,
// and either follows it or refuses it.
type ObjectRename struct {
	Kind RenameKind
	// Catalog is the catalog (warehouse) the object lives in.
	Catalog string
	// Namespace is the object's namespace; for a namespace rename it is
	// From.
	Namespace string
	// Table is the table of a column rename; for a table rename it is
	// From.
	Table string
	// From and To are the renamed level's old and new names.
	From, To string
}

// String names the object under its old name, for messages.
func (r ObjectRename) String() string {
	switch r.Kind {
	case RenameNamespace:
		return fmt.Sprintf("schema %q", r.From)
	case RenameTable:
		return fmt.Sprintf("relation \"%s.%s\"", r.Namespace, r.From)
	default:
		return fmt.Sprintf("column %q of relation \"%s.%s\"", r.From, r.Namespace, r.Table)
	}
}

// RenameGuard is a policy store's part in a rename. The catalog's rename
// and the store's write cannot be one transaction, so a store follows a
// rename in two steps that are safe to stop between: before the rename it
// makes every policy that covers the object under its old name cover the
// new name too (a policy then covers both, which can hide more but never
// less), and after it drops the old name where a policy named only that
// object. A crash between the steps leaves policies that name both.
type RenameGuard interface {
	// BeforeRename widens the policies that cover the object so that they
	// also cover it under its new name, or refuses the rename (42501,
	// naming the policy) when a policy would stop applying and the store
	// cannot follow it (a policy kept in Ranger, a policy whose
	// expression other tables share).
	BeforeRename(ctx context.Context, r ObjectRename) (RenameFollowUp, error)
}

// RenameFollowUp finishes what BeforeRename started, once the catalog's
// rename has succeeded or failed.
type RenameFollowUp interface {
	// Renamed is called after the catalog renamed the object: policies
	// drop the old name where it named only that object, and expressions
	// that named a renamed column name its new name.
	Renamed(ctx context.Context) error
	// Abandoned is called when the catalog did not rename: the widening
	// is undone.
	Abandoned(ctx context.Context) error
}

// NoFollowUp is the follow-up of a rename that changed no policy.
type NoFollowUp struct{}

// Renamed does nothing.
func (NoFollowUp) Renamed(context.Context) error { return nil }

// Abandoned does nothing.
func (NoFollowUp) Abandoned(context.Context) error { return nil }
