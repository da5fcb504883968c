package governance

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// FinePolicyEdit turns the policy named in EditFinePolicy, nil when there
// is none, into what is stored in its place: nil removes it.
type FinePolicyEdit func(current *StoredFinePolicy) (*StoredFinePolicy, error)

// EditFinePolicy reads the policy named name, hands it to edit and writes
// edit's answer in its place, in one transaction: two statements editing
// the same policy at once (on this node or another sharing the database)
// both land. It reports whether anything changed; an error from edit
// writes nothing.
func (s *Store) EditFinePolicy(ctx context.Context, name string, edit FinePolicyEdit) (bool, error) {
	return s.writeFinePolicies(ctx, func(tx *sql.Tx) (bool, error) {
		// Take the write lock before reading, so that a concurrent edit
		// waits for this one (busy_timeout) instead of failing at its
		// write for having read a state that moved.
		if _, err := tx.ExecContext(ctx, "UPDATE fine_policies_version SET version = version WHERE id = 1"); err != nil {
			return false, fmt.Errorf("lock policies: %w", err)
		}
		var current *StoredFinePolicy
		var p StoredFinePolicy
		err := tx.QueryRowContext(ctx, "SELECT name, service, policy FROM fine_policies WHERE name = ?", name).Scan(&p.Name, &p.Service, &p.Body)
		switch {
		case err == nil:
			current = &p
		case !errors.Is(err, sql.ErrNoRows):
			return false, fmt.Errorf("read policy %s: %w", name, err)
		}
		next, err := edit(current)
		if err != nil {
			return false, err
		}
		switch {
		case next == nil && current == nil:
			return false, nil
		case next == nil:
			if _, err := tx.ExecContext(ctx, "DELETE FROM fine_policies WHERE name = ?", name); err != nil {
				return false, fmt.Errorf("drop policy %s: %w", name, err)
			}
			return true, nil
		case next.Name != name:
			return false, fmt.Errorf("edit of policy %s renames it to %s", name, next.Name)
		case current != nil && *next == *current:
			return false, nil
		}
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO fine_policies(name, service, policy) VALUES (?, ?, ?)",
			next.Name, string(next.Service), next.Body); err != nil {
			return false, fmt.Errorf("write policy %s: %w", name, err)
		}
		return true, nil
	})
}
