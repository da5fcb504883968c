package governance

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/sqe-db/sqe/governance/grants"
)

// Gate one's policies (the embedded backend) live in the governance
// database, one row per exact resource as Ranger keeps one policy per
// resource, the policy itself as JSON. A statement's changes are written
// in one SQLite transaction, so a GRANT is never half-applied, and each
// write bumps a version that lets every node sharing the database notice
// that its compiled policies are stale.
const accessPoliciesSchema = `
CREATE TABLE IF NOT EXISTS access_policies (
	root      TEXT NOT NULL,
	catalog   TEXT NOT NULL,
	namespace TEXT NOT NULL,
	tbl       TEXT NOT NULL,
	policy    TEXT NOT NULL,
	PRIMARY KEY (root, catalog, namespace, tbl)
);
CREATE TABLE IF NOT EXISTS access_policies_version (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	version INTEGER NOT NULL
);
INSERT OR IGNORE INTO access_policies_version(id, version) VALUES (1, 0);
`

// AccessPolicies returns every gate-one policy and the version they are
// at, read in one transaction.
func (s *Store) AccessPolicies(ctx context.Context) ([]grants.Policy, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("read access policies: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var version int64
	if err := tx.QueryRowContext(ctx, "SELECT version FROM access_policies_version WHERE id = 1").Scan(&version); err != nil {
		return nil, 0, fmt.Errorf("read access policies version: %w", err)
	}
	rows, err := tx.QueryContext(ctx, "SELECT policy FROM access_policies ORDER BY root, catalog, namespace, tbl")
	if err != nil {
		return nil, 0, fmt.Errorf("read access policies: %w", err)
	}
	defer rows.Close()
	var out []grants.Policy
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			return nil, 0, fmt.Errorf("read access policies: %w", err)
		}
		var p grants.Policy
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			return nil, 0, fmt.Errorf("read access policies: a stored policy is unreadable: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read access policies: %w", err)
	}
	return out, version, nil
}

// AccessPoliciesVersion is the version the policies are at, as the
// statement in ctx first read it (StatementVersions).
func (s *Store) AccessPoliciesVersion(ctx context.Context) (int64, error) {
	access, _, _, err := s.versions(ctx)
	return access, err
}

// WriteAccessPolicies applies changes in one transaction, only if the
// policies are still at version base (the version the changes were
// computed from); otherwise nothing is written and ok is false, and the
// caller recomputes on the newer policies.
func (s *Store) WriteAccessPolicies(ctx context.Context, base int64, changes []grants.Change) (ok bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("write access policies: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, "UPDATE access_policies_version SET version = version + 1 WHERE id = 1 AND version = ?", base)
	if err != nil {
		return false, fmt.Errorf("write access policies: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	for _, c := range changes {
		r := c.Resource
		if c.Policy == nil {
			if _, err := tx.ExecContext(ctx, "DELETE FROM access_policies WHERE root = ? AND catalog = ? AND namespace = ? AND tbl = ?",
				r.Root, r.Catalog, r.Namespace, r.Table); err != nil {
				return false, fmt.Errorf("write access policies: %w", err)
			}
			continue
		}
		body, err := json.Marshal(c.Policy)
		if err != nil {
			return false, fmt.Errorf("write access policies: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO access_policies(root, catalog, namespace, tbl, policy) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(root, catalog, namespace, tbl) DO UPDATE SET policy = excluded.policy`,
			r.Root, r.Catalog, r.Namespace, r.Table, string(body)); err != nil {
			return false, fmt.Errorf("write access policies: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("write access policies: %w", err)
	}
	return true, nil
}
