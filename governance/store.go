package governance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/uptrace/bun/driver/sqliteshim"
)

// Store is the embedded governance database.
type Store struct {
	db *sql.DB
	// versionsStmt reads the policies' versions, prepared once: a
	// statement reads them first thing.
	versionsStmt *sql.Stmt
}

const storeSchema = `
CREATE TABLE IF NOT EXISTS roles (
	name TEXT PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS role_members (
	role        TEXT NOT NULL REFERENCES roles(name) ON DELETE CASCADE,
	member_kind TEXT NOT NULL CHECK (member_kind IN ('USER', 'ROLE')),
	member      TEXT NOT NULL,
	PRIMARY KEY (role, member_kind, member)
);
-- roles_version moves with every change of a role or a membership, so
-- that open sessions take up a GRANT or REVOKE of a role at their next
-- statement (RolesVersion). Triggers bump it whatever code writes.
CREATE TABLE IF NOT EXISTS roles_version (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	version INTEGER NOT NULL
);
INSERT OR IGNORE INTO roles_version (id, version) VALUES (1, 0);
CREATE TRIGGER IF NOT EXISTS roles_version_role_added AFTER INSERT ON roles
	BEGIN UPDATE roles_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS roles_version_role_dropped AFTER DELETE ON roles
	BEGIN UPDATE roles_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS roles_version_member_added AFTER INSERT ON role_members
	BEGIN UPDATE roles_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS roles_version_member_removed AFTER DELETE ON role_members
	BEGIN UPDATE roles_version SET version = version + 1 WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS roles_version_member_changed AFTER UPDATE ON role_members
	BEGIN UPDATE roles_version SET version = version + 1 WHERE id = 1; END;
`

// OpenStore opens (creating on first use) <dataDir>/governance.db.
func OpenStore(ctx context.Context, dataDir string) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("governance store: %w", err)
	}
	path := filepath.Join(dataDir, "governance.db")
	dsn := "file:" + path + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	db, err := sql.Open(sqliteshim.ShimName, dsn)
	if err != nil {
		return nil, fmt.Errorf("open governance store: %w", err)
	}
	if _, err := db.ExecContext(ctx, storeSchema+accessPoliciesSchema+finePoliciesSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("create governance schema: %w", err)
	}
	s := &Store{db: db}
	if s.versionsStmt, err = db.PrepareContext(ctx, versionsQuery); err != nil {
		db.Close()
		return nil, fmt.Errorf("open governance store: %w", err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	return errors.Join(s.versionsStmt.Close(), s.db.Close())
}

// CreateRole adds a role; an existing role is left as it is when
// ifNotExists is set.
func (s *Store) CreateRole(ctx context.Context, name string, ifNotExists bool) error {
	q := "INSERT INTO roles(name) VALUES (?)"
	if ifNotExists {
		q = "INSERT OR IGNORE INTO roles(name) VALUES (?)"
	}
	if _, err := s.db.ExecContext(ctx, q, name); err != nil {
		return fmt.Errorf("create role %s: %w", name, err)
	}
	return nil
}

// MemberKind says whether a role member is a user or another role.
type MemberKind string

const (
	MemberUser MemberKind = "USER"
	MemberRole MemberKind = "ROLE"
)

// GrantRole makes member a member of role (idempotent).
func (s *Store) GrantRole(ctx context.Context, role string, kind MemberKind, member string) error {
	_, err := s.db.ExecContext(ctx,
		"INSERT OR IGNORE INTO role_members(role, member_kind, member) VALUES (?, ?, ?)", role, string(kind), member)
	if err != nil {
		return fmt.Errorf("grant role %s to %s %s: %w", role, kind, member, err)
	}
	return nil
}

// EffectiveRoles is the caller's token roles plus every role the store
// gives the user or any of those roles, nested roles followed once each.
// The result is sorted.
func (s *Store) EffectiveRoles(ctx context.Context, user string, tokenRoles []string) ([]string, error) {
	seen := map[string]bool{}
	var queue []string
	add := func(r string) {
		if !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for _, r := range tokenRoles {
		add(r)
	}
	direct, err := s.rolesOf(ctx, MemberUser, user)
	if err != nil {
		return nil, err
	}
	for _, r := range direct {
		add(r)
	}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		parents, err := s.rolesOf(ctx, MemberRole, r)
		if err != nil {
			return nil, err
		}
		for _, p := range parents {
			add(p)
		}
	}
	out := make([]string, 0, len(seen))
	for r := range seen {
		out = append(out, r)
	}
	sort.Strings(out)
	return out, nil
}

func (s *Store) rolesOf(ctx context.Context, kind MemberKind, member string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT role FROM role_members WHERE member_kind = ? AND member = ?", string(kind), member)
	if err != nil {
		return nil, fmt.Errorf("roles of %s %s: %w", kind, member, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Principals are the users the store names as role members and its
// roles, each sorted.
func (s *Store) Principals(ctx context.Context) (users, roles []string, err error) {
	if users, err = s.names(ctx, "SELECT DISTINCT member FROM role_members WHERE member_kind = 'USER' ORDER BY member"); err != nil {
		return nil, nil, fmt.Errorf("list role members: %w", err)
	}
	if roles, err = s.names(ctx, "SELECT name FROM roles ORDER BY name"); err != nil {
		return nil, nil, fmt.Errorf("list roles: %w", err)
	}
	return users, roles, nil
}

// names is the one-column result of query.
func (s *Store) names(ctx context.Context, query string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// demoMembers are the roles of the demo (spec/001): analyst = alice, bob,
// carol; engineer = bob, carol; sqe_admin = carol; dave has none.
var demoMembers = []struct{ role, user string }{
	{"analyst", "alice"}, {"analyst", "bob"}, {"analyst", "carol"},
	{"engineer", "bob"}, {"engineer", "carol"},
	{"sqe_admin", "carol"},
}

// DemoUsers are the demo's users, dave, in no role, among them: the
// role store names only those it makes members of a role.
func DemoUsers() []string {
	users := []string{"dave"}
	for _, m := range demoMembers {
		if !slices.Contains(users, m.user) {
			users = append(users, m.user)
		}
	}
	slices.Sort(users)
	return users
}

// LoadDemoRoles creates the demo's roles and members (idempotent).
func (s *Store) LoadDemoRoles(ctx context.Context) error {
	for _, m := range demoMembers {
		if err := s.CreateRole(ctx, m.role, true); err != nil {
			return err
		}
		if err := s.GrantRole(ctx, m.role, MemberUser, m.user); err != nil {
			return err
		}
	}
	return nil
}

// RoleExists reports whether the store defines role.
func (s *Store) RoleExists(ctx context.Context, role string) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM roles WHERE name = ?", role).Scan(&n); err != nil {
		return false, fmt.Errorf("look up role %s: %w", role, err)
	}
	return n > 0, nil
}

// DropRole removes a role and its memberships (both ways); false when the
// role did not exist.
func (s *Store) DropRole(ctx context.Context, role string) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("drop role %s: %w", role, err)
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, "DELETE FROM roles WHERE name = ?", role)
	if err != nil {
		return false, fmt.Errorf("drop role %s: %w", role, err)
	}
	n, _ := res.RowsAffected()
	if _, err := tx.ExecContext(ctx, "DELETE FROM role_members WHERE role = ? OR (member_kind = 'ROLE' AND member = ?)", role, role); err != nil {
		return false, fmt.Errorf("drop role %s: %w", role, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("drop role %s: %w", role, err)
	}
	return n > 0, nil
}

// RevokeRole ends member's membership of role; false when it was not a
// member.
func (s *Store) RevokeRole(ctx context.Context, role string, kind MemberKind, member string) (bool, error) {
	res, err := s.db.ExecContext(ctx, "DELETE FROM role_members WHERE role = ? AND member_kind = ? AND member = ?", role, string(kind), member)
	if err != nil {
		return false, fmt.Errorf("revoke role %s from %s %s: %w", role, kind, member, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
