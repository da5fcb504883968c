package governance

import (
	"context"
	"fmt"
	"sync"
)

// StatementVersions pins, for one statement, the version each policy
// store is read at. Gate one asks about every object a statement touches
// (a catalog query lists hundreds of tables, three checks each), and
// reading the version from the database for each check cost more than
// the checks themselves. Under a pin the first read of a version is kept
// for the rest of the statement, as PostgreSQL reads its catalogs under
// one snapshot per statement: a GRANT or REVOKE committed meanwhile
// applies from the next statement on. Writes never read through a pin
// (they compare and set on the version they read in their own
// transaction).
type StatementVersions struct {
	mu                  sync.Mutex
	read                bool
	access, fine, roles int64
}

type statementVersionsKey struct{}

// WithStatementVersions returns ctx under which the store's version reads
// are pinned by v. One statement uses one v, created when it starts.
func WithStatementVersions(ctx context.Context, v *StatementVersions) context.Context {
	return context.WithValue(ctx, statementVersionsKey{}, v)
}

// versions are the stores' versions as the statement in ctx first read
// them (all at once: one query); without a pin in ctx every call reads.
func (s *Store) versions(ctx context.Context) (access, fine, roles int64, err error) {
	v, ok := ctx.Value(statementVersionsKey{}).(*StatementVersions)
	if !ok || v == nil {
		return s.readVersions(ctx)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.read {
		if v.access, v.fine, v.roles, err = s.readVersions(ctx); err != nil {
			return 0, 0, 0, err
		}
		v.read = true
	}
	return v.access, v.fine, v.roles, nil
}

const versionsQuery = `SELECT (SELECT version FROM access_policies_version WHERE id = 1),
	(SELECT version FROM fine_policies_version WHERE id = 1),
	(SELECT version FROM roles_version WHERE id = 1)`

// readVersions reads the versions from the database.
func (s *Store) readVersions(ctx context.Context) (access, fine, roles int64, err error) {
	if err := s.versionsStmt.QueryRowContext(ctx).Scan(&access, &fine, &roles); err != nil {
		return 0, 0, 0, fmt.Errorf("read policies versions: %w", err)
	}
	return access, fine, roles, nil
}

// RolesVersion is the version of the roles and their memberships, which
// every change of them moves, as the statement in ctx reads it.
func (s *Store) RolesVersion(ctx context.Context) (int64, error) {
	_, _, roles, err := s.versions(ctx)
	return roles, err
}
