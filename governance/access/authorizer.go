package access

import (
	"context"
	"fmt"

	"github.com/sqe-db/sqe/governance/ranger"
	"github.com/sqe-db/sqe/storage"
)

// Authorize decides a catalog operation for p (storage.Authorizer). It
// fails closed: an operation it does not know, a policy store it cannot
// read or policies it cannot compile all refuse. An administrator is
// allowed by default, but a deny naming it or one of its roles still
// refuses it, as it refuses anyone (deny beats allow).
func (s *Service) Authorize(ctx context.Context, p storage.Principal, a storage.Action, target storage.Ident) error {
	op, ok := s.ops[a]
	if !ok {
		return fmt.Errorf("gate one does not know the operation %s", a)
	}
	res, err := resourceOf(s.cfg.Realm, target, op)
	if err != nil {
		return fmt.Errorf("%s: %w", a, err)
	}
	c, err := s.current(ctx)
	if err != nil {
		return fmt.Errorf("gate one unavailable: %w", err)
	}
	req := &ranger.Request{
		Resource: res, AccessType: op.accesses[0], AccessTypes: op.accesses,
		User: p.User, Roles: p.Roles, Groups: p.Groups,
	}
	if s.isAdmin(p.Roles) {
		if id, denied := deniedBy(c.eval, req); denied {
			return fmt.Errorf("%s is denied by policy %s", a, policyName(c.ranger, id))
		}
		return nil
	}
	if r := c.eval.IsAccessAllowed(req); !r.Allowed {
		return fmt.Errorf("%s needs %v", a, op.accesses)
	}
	return nil
}

// DecisionsVersion is the version of the policies Authorize decides under
// for the statement in ctx (storage.VersionedAuthorizer); not ok while any
// policy is conditional.
func (s *Service) DecisionsVersion(ctx context.Context) (int64, bool, error) {
	c, err := s.current(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("gate one unavailable: %w", err)
	}
	return c.version, !ranger.Conditional(c.ranger), nil
}
