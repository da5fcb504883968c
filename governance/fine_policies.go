package governance

import (
	"context"
	"database/sql"
	"fmt"
)

// Gate two's policies (row filters and column masks, [policy] engine =
// "embedded") live in the governance database as Ranger policy JSON, one
// row per policy name, in the hive service or the tag service. Every
// write bumps a version, so that each node sharing the database recompiles
// only when the policies changed.
const finePoliciesSchema = `
CREATE TABLE IF NOT EXISTS fine_policies (
	name    TEXT PRIMARY KEY,
	service TEXT NOT NULL CHECK (service IN ('hive', 'tag')),
	policy  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS fine_policies_version (
	id      INTEGER PRIMARY KEY CHECK (id = 1),
	version INTEGER NOT NULL
);
INSERT OR IGNORE INTO fine_policies_version(id, version) VALUES (1, 0);
`

// FinePolicyService says which Ranger service a gate-two policy belongs
// to.
type FinePolicyService string

const (
	FinePolicyHive FinePolicyService = "hive"
	FinePolicyTag  FinePolicyService = "tag"
)

// StoredFinePolicy is one gate-two policy as stored: its JSON body.
type StoredFinePolicy struct {
	Name    string
	Service FinePolicyService
	Body    string
}

// FinePoliciesVersion is the version gate two's policies are at, as the
// statement in ctx first read it (StatementVersions).
func (s *Store) FinePoliciesVersion(ctx context.Context) (int64, error) {
	_, fine, _, err := s.versions(ctx)
	return fine, err
}

// FinePolicies returns every gate-two policy, by name, and the version
// they are at, read in one transaction.
func (s *Store) FinePolicies(ctx context.Context) ([]StoredFinePolicy, int64, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("read policies: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var version int64
	if err := tx.QueryRowContext(ctx, "SELECT version FROM fine_policies_version WHERE id = 1").Scan(&version); err != nil {
		return nil, 0, fmt.Errorf("read policies version: %w", err)
	}
	rows, err := tx.QueryContext(ctx, "SELECT name, service, policy FROM fine_policies ORDER BY name")
	if err != nil {
		return nil, 0, fmt.Errorf("read policies: %w", err)
	}
	defer rows.Close()
	var out []StoredFinePolicy
	for rows.Next() {
		var p StoredFinePolicy
		if err := rows.Scan(&p.Name, &p.Service, &p.Body); err != nil {
			return nil, 0, fmt.Errorf("read policies: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read policies: %w", err)
	}
	return out, version, nil
}

// PutFinePolicy stores p, replacing a policy of the same name only when
// replace is set; it reports false (and writes nothing) when the name is
// taken and replace is not.
func (s *Store) PutFinePolicy(ctx context.Context, p StoredFinePolicy, replace bool) (bool, error) {
	return s.writeFinePolicies(ctx, func(tx *sql.Tx) (bool, error) {
		q := "INSERT OR IGNORE INTO fine_policies(name, service, policy) VALUES (?, ?, ?)"
		if replace {
			q = "INSERT OR REPLACE INTO fine_policies(name, service, policy) VALUES (?, ?, ?)"
		}
		res, err := tx.ExecContext(ctx, q, p.Name, string(p.Service), p.Body)
		if err != nil {
			return false, fmt.Errorf("write policy %s: %w", p.Name, err)
		}
		n, err := res.RowsAffected()
		return n > 0, err
	})
}

// DropFinePolicy removes the policy named name; false when there was
// none.
func (s *Store) DropFinePolicy(ctx context.Context, name string) (bool, error) {
	return s.writeFinePolicies(ctx, func(tx *sql.Tx) (bool, error) {
		res, err := tx.ExecContext(ctx, "DELETE FROM fine_policies WHERE name = ?", name)
		if err != nil {
			return false, fmt.Errorf("drop policy %s: %w", name, err)
		}
		n, err := res.RowsAffected()
		return n > 0, err
	})
}

// writeFinePolicies runs change in a transaction and bumps the version
// when it changed something.
func (s *Store) writeFinePolicies(ctx context.Context, change func(*sql.Tx) (bool, error)) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("write policies: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	changed, err := change(tx)
	if err != nil || !changed {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE fine_policies_version SET version = version + 1 WHERE id = 1"); err != nil {
		return false, fmt.Errorf("write policies version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("write policies: %w", err)
	}
	return true, nil
}

// FinePolicySwap replaces the body of the policy named Name with To,
// provided its stored body is still From: a change computed from one
// reading of a policy is never written over a newer one.
type FinePolicySwap struct {
	Name     string
	From, To string
	// NewName, when set, renames the policy too; a policy of that name
	// that exists already keeps the swap from applying.
	NewName string
}

// SwapFinePolicies applies swaps in one transaction and reports how many
// applied. With all set, it writes only if every swap applies (and
// otherwise nothing, reporting 0).
func (s *Store) SwapFinePolicies(ctx context.Context, swaps []FinePolicySwap, all bool) (int, error) {
	applied := 0
	_, err := s.writeFinePolicies(ctx, func(tx *sql.Tx) (bool, error) {
		for _, sw := range swaps {
			newName := sw.NewName
			if newName == "" {
				newName = sw.Name
			}
			res, err := tx.ExecContext(ctx, "UPDATE OR IGNORE fine_policies SET name = ?, policy = ? WHERE name = ? AND policy = ?",
				newName, sw.To, sw.Name, sw.From)
			if err != nil {
				return false, fmt.Errorf("write policy %s: %w", sw.Name, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return false, err
			} else if n > 0 {
				applied++
			}
		}
		if all && applied != len(swaps) {
			applied = 0
		}
		return applied > 0, nil
	})
	if err != nil {
		return 0, err
	}
	return applied, nil
}
