package rangerstore

import (
	"context"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/policy"
)

var _ governance.RenameGuard = (*Store)(nil)

// BeforeRename refuses a rename that a policy in Ranger would stop
// applying to (governance.RenameGuard). The policies live in Ranger by
// name and other engines enforce them too, so SQE does not rewrite them:
// the administrator changes the policy in Ranger and renames after. It
// reads the policies afresh, and a Ranger it cannot reach refuses the
// rename, since the policies it would weaken are unknown.
func (s *Store) BeforeRename(ctx context.Context, r governance.ObjectRename) (governance.RenameFollowUp, error) {
	s.Flush()
	snap, err := s.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	if err := policy.RefuseRename(snap, r); err != nil {
		return nil, err
	}
	return governance.NoFollowUp{}, nil
}
