package rangeradmin

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sqe-db/sqe/governance"
	"github.com/sqe-db/sqe/governance/access"
	"github.com/sqe-db/sqe/governance/ranger"
)

var _ governance.RenameGuard = (*Service)(nil)

// BeforeRename refuses a rename of a table or namespace that a policy of
// the polaris service in Ranger would stop applying to
// (governance.RenameGuard): Polaris enforces those policies by name, and
// SQE does not rewrite policies other tools manage. Ranger being
// unreachable refuses the rename too.
func (s *Service) BeforeRename(ctx context.Context, r governance.ObjectRename) (governance.RenameFollowUp, error) {
	if r.Kind == governance.RenameColumn {
		return governance.NoFollowUp{}, nil
	}
	snap, err := s.policies(ctx)
	if err != nil {
		return nil, err
	}
	policies := make([]ranger.Policy, 0, len(snap.raw))
	for _, raw := range snap.raw {
		var p ranger.Policy
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, fmt.Errorf("ranger backend: a policy is unreadable: %w", err)
		}
		policies = append(policies, p)
	}
	if err := access.RefuseRename(s.sd, policies, r); err != nil {
		return nil, err
	}
	return governance.NoFollowUp{}, nil
}
