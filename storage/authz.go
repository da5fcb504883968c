package storage

import (
	"context"
	"fmt"

	"github.com/sqe-db/sqe/sql/pgerror"
)

// Action is a catalog operation that gate one authorizes. The names follow
// Apache Polaris's operation names so that the embedded authorizer and a
// Polaris deployment speak about the same things.
type Action string

// The catalog operations gate one decides.
const (
	ActionListNamespaces  Action = "LIST_NAMESPACES"
	ActionLoadNamespace   Action = "LOAD_NAMESPACE_METADATA"
	ActionCreateNamespace Action = "CREATE_NAMESPACE"
	ActionListTables      Action = "LIST_TABLES"
	ActionLoadTable       Action = "LOAD_TABLE"
	ActionCreateTable     Action = "CREATE_TABLE_DIRECT"
	ActionUpdateTable     Action = "UPDATE_TABLE"
	ActionDropTable       Action = "DROP_TABLE_WITHOUT_PURGE"
	ActionDropNamespace   Action = "DROP_NAMESPACE"
	ActionRenameTable     Action = "RENAME_TABLE"
)

// Authorizer decides gate one for the embedded catalog. A nil error allows;
// any error refuses.
type Authorizer interface {
	Authorize(ctx context.Context, p Principal, a Action, target Ident) error
}

// AllowAll allows every action. It stands in until gate one is built.
type AllowAll struct{}

// Authorize allows.
func (AllowAll) Authorize(context.Context, Principal, Action, Ident) error { return nil }

// authorize asks authz about action on target for the principal in ctx.
// It fails closed: no principal, or any error from the authorizer, is a
// refusal wrapping ErrForbidden.
func authorize(ctx context.Context, authz Authorizer, a Action, target Ident) error {
	p, ok := PrincipalFrom(ctx)
	if !ok {
		return forbidden(target, fmt.Errorf("%w: no principal in context", ErrForbidden))
	}
	if err := authz.Authorize(ctx, p, a, target); err != nil {
		return forbidden(target, fmt.Errorf("%w: %s on %s for %s: %w", ErrForbidden, a, target, p.User, err))
	}
	return nil
}

// forbidden builds the client-facing refusal in Postgres's wording for the
// kind of object named by target.
func forbidden(target Ident, cause error) error {
	switch {
	case target.Table != "":
		return pgerror.Wrap(cause, pgerror.InsufficientPrivilege, "permission denied for table %s", target.Table)
	case target.Namespace != "":
		return pgerror.Wrap(cause, pgerror.InsufficientPrivilege, "permission denied for schema %s", target.Namespace)
	default:
		return pgerror.Wrap(cause, pgerror.InsufficientPrivilege, "permission denied for database %s", target.Catalog)
	}
}

// AccessProbe is implemented by catalogs that authorize their operations
// themselves (the embedded catalog): it answers, without doing anything,
// whether the principal in ctx may perform a on target. PostgreSQL's
// has_*_privilege functions ask it. Any failure to decide is a no.
type AccessProbe interface {
	MayPerform(ctx context.Context, a Action, target Ident) bool
}
